// Unit tests for ambient_occlusion() and the "ao" output: a flat map is exactly
// 1 (borders included), a hand-made wall gives the closed-form value, a pit's
// bottom is darker than its rim, values stay in [0, 1], results do not depend
// on the thread count, a region equals the same window of the world, and the
// png16 file decodes (stb_image) to the quantised values.

#include <stb_image.h>
#include <catch2/catch.hpp>

#include "bit_equal.hpp"
#include "stage_checks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "landform/core/error.hpp"
#include "landform/core/heightfield.hpp"
#include "landform/derive/ambient_occlusion.hpp"
#include "landform/pipeline/manifest.hpp"
#include "landform/pipeline/pipeline.hpp"
#include "landform/stages/opensimplex.hpp"

namespace {

using namespace landform;
using landform_test::bit_equal;

heightfield noise_field(int w, int h, double cell_size = 1.0) {
  heightfield f(region{w, h, 0, 0, cell_size});
  stage_context ctx;
  ctx.world = {0, 0, w, h};
  ctx.seed = 11;
  opensimplex_params p;
  p.octaves = 4;
  p.feature_size = 24.0 * cell_size;
  apply_opensimplex(f, p, ctx);
  return f;
}

std::vector<float> r32_values(const std::vector<std::uint8_t>& bytes) {
  std::vector<float> out(bytes.size() / 4);
  for (std::size_t k = 0; k < out.size(); ++k) {
    const std::uint32_t u =
        static_cast<std::uint32_t>(bytes[4 * k]) | (static_cast<std::uint32_t>(bytes[4 * k + 1]) << 8) |
        (static_cast<std::uint32_t>(bytes[4 * k + 2]) << 16) | (static_cast<std::uint32_t>(bytes[4 * k + 3]) << 24);
    std::memcpy(&out[k], &u, 4);
  }
  return out;
}

// Runs a preset and returns its encoded outputs and the computed field.
std::vector<encoded_output> build_outputs(const json& preset, int nthreads = 1) {
  const pipeline p = pipeline::build(preset);
  run_options options;
  options.nthreads = nthreads;
  const build_result result = p.run_full(options);
  return encode_outputs(p, result, nthreads);
}

}  // namespace

TEST_CASE("ambient_occlusion: a flat map is exactly 1 everywhere, borders included", "[derive][ao]") {
  // Including steep scalings (1e6 m of height per cell of distance), where a
  // rounding error in the interpolation would show.
  struct scaling {
    double cell_size, height_scale, radius;
  };
  for (const auto [cell_size, height_scale, radius] : {scaling{2.5, 300.0, 40.0}, scaling{0.01, 1e4, 0.3}}) {
    for (const float level : {0.0f, 0.37f, -5.0f, 1234.5f}) {
      for (const auto border : {ao_params::border_policy::open, ao_params::border_policy::clamp}) {
        for (const int directions : {1, 3, 16, 64}) {
          heightfield h(region{37, 23, 5, -9, cell_size}, level);
          ao_params p;
          p.directions = directions;
          p.radius = radius;
          p.border = border;
          const auto ao = ambient_occlusion(h, p, height_scale, 1);
          REQUIRE(ao.size() == h.size());
          INFO("level " << level << ", directions " << directions << ", cell size " << cell_size);
          CHECK(std::all_of(ao.begin(), ao.end(), [](float v) { return v == 1.0f; }));
        }
      }
    }
  }
}

TEST_CASE("ambient_occlusion: a wall at 45 degrees in one of four azimuths gives (3 + cos^2 45) / 4", "[derive][ao]") {
  // Ground at 0, a wall of height 1 (2 m with height_scale 2) from column 12
  // on. Seen from column 10 the wall's foot is 2 m away: horizon 45 degrees
  // to the east, none north, west or south, so ao = (0.5 + 1 + 1 + 1) / 4.
  heightfield h(region{20, 15, 0, 0, 1.0});
  for (int y = 0; y < 15; ++y)
    for (int x = 12; x < 20; ++x) h.at(x, y) = 1.0f;
  ao_params p;
  p.directions = 4;
  p.radius = 6.0;
  p.border = ao_params::border_policy::clamp;
  const auto ao = ambient_occlusion(h, p, 2.0, 1);
  for (int y = 0; y < 15; ++y) {
    INFO("row " << y);
    CHECK(ao[static_cast<std::size_t>(y) * 20 + 10] == 0.875f);
    CHECK(ao[static_cast<std::size_t>(y) * 20 + 3] == 1.0f);  // the wall is beyond the radius
  }
  // One cell from the wall: tan H = 2 / 1, cos^2 = 1 / 5.
  CHECK(ao[5 * 20 + 11] == Approx((3.0 + 0.2) / 4.0).epsilon(1e-6));
}

TEST_CASE("ambient_occlusion: the bottom of a pit is darker than its rim, and the rim than open ground",
          "[derive][ao]") {
  // A crater 8 m deep in a flat plain: a flat floor 4 cells in radius, walls
  // rising at 45 degrees to the rim 12 cells from the centre.
  const int n = 61, c = 30;
  heightfield h(region{n, n, 0, 0, 1.0});
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      const double r = std::hypot(x - c, y - c);
      h.at(x, y) = static_cast<float>(-0.8 + std::clamp(r - 4.0, 0.0, 8.0) / 10.0);
    }
  }
  ao_params p;
  p.radius = 20.0;
  const auto ao = ambient_occlusion(h, p, 10.0, 2);
  const auto at = [&](int x, int y) { return ao[static_cast<std::size_t>(y) * n + static_cast<std::size_t>(x)]; };
  const float bottom = at(c, c), half = at(c + 8, c), rim = at(c + 12, c), plain = at(2, 2);
  INFO("bottom " << bottom << ", half-way " << half << ", rim " << rim << ", plain " << plain);
  CHECK(bottom < half);
  CHECK(half < rim);
  CHECK(rim <= plain);
  CHECK(plain == 1.0f);
  // From the centre the rim is the horizon in every azimuth, 8 m up and 12 m
  // away: ao = cos^2(atan(8 / 12)) = 1 / (1 + 4 / 9), up to sampling.
  CHECK(bottom == Approx(9.0 / 13.0).epsilon(0.02));
}

TEST_CASE("ambient_occlusion: values stay in [0, 1]; exponent and strength shape them", "[derive][ao]") {
  const heightfield h = noise_field(64, 48, 2.0);
  ao_params p;
  p.radius = 30.0;
  for (const auto border : {ao_params::border_policy::open, ao_params::border_policy::clamp}) {
    p.border = border;
    const auto ao = ambient_occlusion(h, p, 40.0, 1);
    CHECK(std::all_of(ao.begin(), ao.end(), [](float v) { return v >= 0.0f && v <= 1.0f; }));
    CHECK(*std::min_element(ao.begin(), ao.end()) < 0.9f);  // the terrain does occlude
    ao_params shaped = p;
    shaped.exponent = 2.0;
    shaped.strength = 0.5;
    const auto s = ambient_occlusion(h, shaped, 40.0, 1);
    for (std::size_t k = 0; k < s.size(); k += 37) {
      CHECK(s[k] == Approx(1.0 - 0.5 * (1.0 - std::pow(static_cast<double>(ao[k]), 2.0))).epsilon(1e-6));
    }
    shaped.strength = 0.0;
    const auto none = ambient_occlusion(h, shaped, 40.0, 1);
    CHECK(std::all_of(none.begin(), none.end(), [](float v) { return v == 1.0f; }));
  }
}

TEST_CASE("ambient_occlusion: clamp extends edge heights, open lets rays leave the map", "[derive][ao]") {
  // A ridge along the top edge: with clamp it continues beyond the map and
  // shades the cells below it more than with open.
  heightfield h(region{32, 32, 0, 0, 1.0});
  for (int x = 0; x < 32; ++x) h.at(x, 0) = 1.0f;
  ao_params p;
  p.radius = 10.0;
  p.border = ao_params::border_policy::open;
  const auto open = ambient_occlusion(h, p, 5.0, 1);
  p.border = ao_params::border_policy::clamp;
  const auto clamp = ambient_occlusion(h, p, 5.0, 1);
  CHECK(open[3 * 32 + 16] < 1.0f);
  CHECK(clamp[3 * 32 + 16] == Approx(open[3 * 32 + 16]).margin(0.05));
  CHECK(clamp[3 * 32 + 0] < open[3 * 32 + 0]);  // at the corner, clamp also sees the ridge continue west
}

TEST_CASE("ambient_occlusion: bit-identical for 1, 2 and 8 threads", "[derive][ao][determinism]") {
  const heightfield h = noise_field(97, 75);
  ao_params p;
  p.radius = 12.0;
  p.directions = 12;
  p.border = ao_params::border_policy::clamp;
  const auto one = ambient_occlusion(h, p, 25.0, 1);
  CHECK(bit_equal(one, ambient_occlusion(h, p, 25.0, 2)));
  CHECK(bit_equal(one, ambient_occlusion(h, p, 25.0, 8)));
}

TEST_CASE("ambient_occlusion: a region with its halo equals the same window of the world", "[derive][ao]") {
  const heightfield world = noise_field(90, 70, 2.0);
  ao_params p;
  p.radius = 15.0;  // 8 cells at 2 m
  const int halo = ambient_occlusion_halo(p, 2.0);
  REQUIRE(halo == 8);
  const auto world_ao = ambient_occlusion(world, p, 30.0, 1);
  const int x0 = 30, y0 = 20, w = 25, ht = 19;
  const heightfield grown = world.crop(x0 - halo, y0 - halo, w + 2 * halo, ht + 2 * halo);
  const auto grown_ao = ambient_occlusion(grown, p, 30.0, 1);
  for (int y = 0; y < ht; ++y) {
    for (int x = 0; x < w; ++x) {
      const float a = world_ao[static_cast<std::size_t>(y0 + y) * 90 + static_cast<std::size_t>(x0 + x)];
      const float b = grown_ao[static_cast<std::size_t>(y + halo) * static_cast<std::size_t>(w + 2 * halo) +
                               static_cast<std::size_t>(x + halo)];
      if (a != b) FAIL("cell (" << x << ", " << y << "): world " << a << ", region " << b);
    }
  }
}

TEST_CASE("ao output: a region's file equals the same window of the world's, at any thread count",
          "[derive][ao][pipeline]") {
  for (const char* border : {"open", "clamp"}) {
    INFO("border " << border);
    json world = json::parse(R"({
      "size": [80, 64], "cell_size": 2.0, "height_scale": 40,
      "stages": [{"type": "opensimplex", "feature_size": 40, "octaves": 3}],
      "outputs": [{"map": "ao", "format": "r32", "radius": 12}]
    })");
    world["outputs"][0]["border"] = border;
    json tile = world;
    tile["world"] = {80, 64};
    tile["size"] = {30, 20};
    // Touches the world's west edge (the border policy applies there in
    // both) and reaches into the interior elsewhere.
    tile["origin"] = {0, 37};
    const auto world_files = build_outputs(world, 2);
    const auto tile_files = build_outputs(tile, 1);
    REQUIRE(world_files.size() == 1);
    REQUIRE(tile_files.size() == 1);
    const auto w = r32_values(world_files[0].bytes);
    const auto t = r32_values(tile_files[0].bytes);
    REQUIRE(w.size() == 80u * 64u);
    REQUIRE(t.size() == 30u * 20u);
    for (int y = 0; y < 20; ++y) {
      for (int x = 0; x < 30; ++x) {
        const float a = w[static_cast<std::size_t>(37 + y) * 80 + static_cast<std::size_t>(x)];
        const float b = t[static_cast<std::size_t>(y) * 30 + static_cast<std::size_t>(x)];
        if (a != b) FAIL("cell (" << x << ", " << y << "): world " << a << ", tile " << b);
      }
    }
    CHECK(world_files[0].bytes == build_outputs(world, 8)[0].bytes);
  }
}

TEST_CASE("ao output: png16 decodes to round(ao * 65535) and png8 to round(ao * 255)", "[derive][ao][pipeline]") {
  const json preset = json::parse(R"({
    "size": [48, 40], "cell_size": 1.0, "height_scale": 30,
    "stages": [{"type": "opensimplex", "feature_size": 20, "octaves": 3}],
    "outputs": [{"map": "ao", "format": "png16", "radius": 10},
                {"map": "ao", "format": "png8", "radius": 10, "file": "ao8.png"},
                {"map": "ao", "format": "r32", "radius": 10}]
  })");
  const auto files = build_outputs(preset);
  REQUIRE(files.size() == 3);
  CHECK(files[0].spec.file == "ao.png");
  const auto values = r32_values(files[2].bytes);
  REQUIRE(values.size() == 48u * 40u);

  int w = 0, h = 0, channels = 0;
  REQUIRE(stbi_is_16_bit_from_memory(files[0].bytes.data(), static_cast<int>(files[0].bytes.size())) == 1);
  stbi_us* p16 =
      stbi_load_16_from_memory(files[0].bytes.data(), static_cast<int>(files[0].bytes.size()), &w, &h, &channels, 0);
  REQUIRE(p16 != nullptr);
  CHECK(w == 48);
  CHECK(h == 40);
  CHECK(channels == 1);
  std::size_t mismatches = 0;
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (p16[k] != static_cast<int>(std::lround(values[k] * 65535.0))) ++mismatches;
  }
  stbi_image_free(p16);
  CHECK(mismatches == 0);

  stbi_uc* p8 =
      stbi_load_from_memory(files[1].bytes.data(), static_cast<int>(files[1].bytes.size()), &w, &h, &channels, 0);
  REQUIRE(p8 != nullptr);
  mismatches = 0;
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (p8[k] != static_cast<int>(std::lround(values[k] * 255.0))) ++mismatches;
  }
  stbi_image_free(p8);
  CHECK(mismatches == 0);
  CHECK(files[0].description["clipped_cells"] == 0);
}

TEST_CASE("ao output: options are validated with their path and rule", "[derive][ao][pipeline]") {
  const json preset = json::parse(R"({
    "size": 16, "stages": [{"type": "opensimplex"}],
    "outputs": [{"map": "ao", "directions": 0, "radius": 0, "border": "wrap", "format": "rgb8"}]
  })");
  const std::vector<std::string> texts = landform_test::build_issue_texts(preset);
  CHECK(texts == std::vector<std::string>{
                     "outputs[0] (ao).border: \"wrap\" is not one of open | clamp",
                     "outputs[0] (ao).directions: 0 is below the minimum 1",
                     "outputs[0] (ao).radius: 0 must be greater than 0",
                     "outputs[0] (ao).format: \"rgb8\" is not one of png8 | png16 | r32",
                 });
}

TEST_CASE("ambient_occlusion: invalid arguments throw with the value and the rule", "[derive][ao]") {
  heightfield h(region{4, 4, 0, 0, 1.0});
  ao_params p;
  p.directions = 0;
  CHECK_THROWS_WITH(ambient_occlusion(h, p, 1.0, 1), "ambient_occlusion: directions 0, must be >= 1");
  p.directions = 8;
  CHECK_THROWS_WITH(ambient_occlusion(h, p, 0.0, 1), "ambient_occlusion: height_scale 0, must be > 0");
  CHECK(ambient_occlusion_halo(p, 2.0) == 25);
  CHECK(ambient_occlusion_halo(p, 0.3) == 167);
}
