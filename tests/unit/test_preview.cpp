// The preview is computed and encoded in bands of rows (the PNG encoder asks
// for them chunk by chunk): its bytes equal encoding the whole picture, do
// not depend on the thread count, and its shading equals the per-cell
// formula of lambert_shade.

#include <stb_image.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "landform/derive/color_ramp.hpp"
#include "landform/derive/hillshade.hpp"
#include "landform/io/encode.hpp"
#include "landform/outputs/output_kind.hpp"
#include "landform/outputs/surface_outputs.hpp"

using namespace landform;

namespace {

// 301 x 420 cells of 20 m: rolling hills with valleys below 0.4 (the sea
// level of the tests), so the preview has ocean, coast, lakes and rivers,
// and rows of 904 PNG bytes make several deflate chunks.
heightfield hills() {
  constexpr int k_w = 301, k_h = 420;
  heightfield f(region{k_w, k_h, 0, 0, 20.0});
  for (int y = 0; y < k_h; ++y) {
    for (int x = 0; x < k_w; ++x) {
      const double v = 0.5 + 0.25 * std::sin(x * 0.045) * std::cos(y * 0.031) + 0.15 * std::sin((x + 2 * y) * 0.013);
      f.at(x, y) = static_cast<float>(v);
    }
  }
  return f;
}

std::vector<std::uint8_t> decoded_rgb(const std::vector<std::uint8_t>& png) {
  int w = 0, h = 0, n = 0;
  stbi_uc* p = stbi_load_from_memory(png.data(), static_cast<int>(png.size()), &w, &h, &n, 3);
  REQUIRE(p != nullptr);
  std::vector<std::uint8_t> out(p, p + static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 3);
  stbi_image_free(p);
  return out;
}

}  // namespace

TEST_CASE("preview: the banded encoding equals the whole picture's, on 1, 2 and 8 threads", "[preview][threads]") {
  const heightfield f = hills();
  const layer_set layers;
  const output_kind& kind = *builtin_outputs().find("preview");
  const json options = GENERATE(json::object(), json{{"multidirectional", true}, {"z_factor", 3.0}},
                                json{{"ramp", "earth"}, {"water", true}, {"river_area", 0.02}},
                                json{{"ocean", "below_sea_level"}, {"edges", "clamp"}, {"sun_altitude", 15.0}},
                                json{{"stops", {{0.0, 10, 20, 30}, {0.45, 200, 90, 40}, {1.0, 250, 250, 250}}}});
  const bool sea = GENERATE(false, true);
  const bool window = GENERATE(false, true);
  CAPTURE(options.dump(), sea, window);
  const auto context = [&](int nthreads) {
    output_context ctx(f, layers);
    ctx.height_scale = 300.0;
    ctx.nthreads = nthreads;
    if (sea) ctx.sea_level = 0.4;
    if (window) {  // a region inside the field, as a tile's build has it
      ctx.x0 = 7;
      ctx.y0 = 11;
      ctx.width = 280;
      ctx.height = 390;
    }
    return ctx;
  };
  const json canonical = kind.canonical(options);
  const output_context one = context(1);
  const std::vector<std::uint8_t> bytes = kind.encode(canonical, "rgb8", one).bytes;
  const std::vector<std::uint8_t> pixels = preview_pixels(canonical, one);
  CHECK(bytes == encode_png_rgb8(one.width, one.height, pixels.data(), one.deflate));
  CHECK(decoded_rgb(bytes) == pixels);
  for (int nthreads : {2, 8}) {
    CAPTURE(nthreads);
    const output_context many = context(nthreads);
    CHECK(kind.encode(canonical, "rgb8", many).bytes == bytes);
    CHECK(preview_pixels(canonical, many) == pixels);
  }
}

TEST_CASE("shaded_relief_row equals lambert_shade and the documented formula cell by cell", "[preview][hillshade]") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> slope(-3.0f, 3.0f), height(-0.1f, 1.1f);
  constexpr std::size_t k_n = 4000;
  std::vector<float> heights(k_n), east(k_n), north(k_n);
  for (std::size_t k = 0; k < k_n; ++k) {
    heights[k] = height(rng);
    east[k] = k % 7 == 0 ? 0.0f : slope(rng);  // some flat cells, which keep the ramp colour
    north[k] = k % 7 == 0 ? 0.0f : slope(rng);
  }
  const std::vector<color_stop>& ramp = builtin_ramp(ramp_name::earth);
  const hillshade_light light{GENERATE(0.0, 135.0, 315.0), GENERATE(10.0, 45.0, 90.0), GENERATE(false, true),
                              GENERATE(0.0, 0.65, 1.0)};
  CAPTURE(light.sun_azimuth, light.sun_altitude, light.multidirectional, light.strength);
  std::vector<std::uint8_t> rgb(3 * k_n);
  shaded_relief_row(heights.data(), east.data(), north.data(), k_n, ramp, light_vectors(light), rgb.data());
  const double flat = std::sin(light.sun_altitude * 3.14159265358979323846 / 180.0);
  for (std::size_t k = 0; k < k_n; ++k) {
    double s = 0.0;
    if (light.multidirectional) {
      for (double az : {225.0, 270.0, 315.0, 360.0})
        s += 0.25 * lambert_shade(east[k], north[k], az, light.sun_altitude);
    } else {
      s = lambert_shade(east[k], north[k], light.sun_azimuth, light.sun_altitude);
    }
    const double shade = (1.0 - light.strength) + light.strength * s / flat;
    const auto c = ramp_colour(ramp, heights[k]);
    for (std::size_t ch = 0; ch < 3; ++ch) {
      const auto expected = static_cast<std::uint8_t>(std::clamp(std::lround(c[ch] * shade), 0L, 255L));
      if (rgb[3 * k + ch] != expected) {
        CAPTURE(k, ch, heights[k], east[k], north[k]);
        CHECK(int{rgb[3 * k + ch]} == int{expected});
      }
    }
  }
}
