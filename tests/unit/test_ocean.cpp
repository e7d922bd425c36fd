// Sea level, once (issue 10, acceptance 1): on a ramp with an inland basin
// below sea level, one sea_level moves the coast of the preview, biome, splat
// and water outputs to the same cells, and the basin is sea in none of them;
// the local `ocean` rule (below_sea_level) keeps the old painting and a
// finite halo; region builds equal the window of the world with either rule.

#include <stb_image.h>
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "landform/derive/water.hpp"
#include "landform/outputs/derived_cache.hpp"
#include "landform/outputs/output_kind.hpp"
#include "landform/pipeline/manifest.hpp"
#include "landform/pipeline/pipeline.hpp"
#include "output_checks.hpp"
#include "water_checks.hpp"

using namespace landform;
using landform_test::at;
using landform_test::r32_values;

namespace {

constexpr int k_w = 64, k_h = 16;

// A ramp rising east, 0 at x = 0 to 1 at x = 63, with an inland basin at
// height 0.05 (x 44..49, y 5..10) walled by land above 0.68.
heightfield ramp_with_basin() {
  heightfield f(region{k_w, k_h, 0, 0, 10.0});
  for (int y = 0; y < k_h; ++y)
    for (int x = 0; x < k_w; ++x) f.at(x, y) = static_cast<float>(x) / static_cast<float>(k_w - 1);
  for (int y = 5; y <= 10; ++y)
    for (int x = 44; x <= 49; ++x) f.at(x, y) = 0.05f;
  return f;
}

bool in_basin(int x, int y) {
  return x >= 44 && x <= 49 && y >= 5 && y <= 10;
}

// Decoded pixels of a PNG with `channels` channels.
std::vector<std::uint8_t> pixels(const std::vector<std::uint8_t>& png, int channels) {
  int w = 0, h = 0, n = 0;
  stbi_uc* p = stbi_load_from_memory(png.data(), static_cast<int>(png.size()), &w, &h, &n, channels);
  REQUIRE(p != nullptr);
  std::vector<std::uint8_t> out(p, p + static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * channels);
  stbi_image_free(p);
  return out;
}

using rgb = std::array<std::uint8_t, 3>;

rgb pixel(const std::vector<std::uint8_t>& p, int x, int y) {
  const std::size_t c = 3 * at(k_w, x, y);
  return {p[c], p[c + 1], p[c + 2]};
}

// The maps of the ramp at one sea level, every output with the `ocean` rule
// `rule` (the water outputs have no rule: theirs is always connected).
struct ramp_maps {
  std::vector<float> depth, lake;
  std::vector<std::uint8_t> biome, preview, earth, earth_water, splat;
};

ramp_maps maps_of(double sea, const std::string& rule, int nthreads = 1) {
  const heightfield f = ramp_with_basin();
  const layer_set layers;
  derived_cache cache;
  output_context ctx(f, layers);
  ctx.height_scale = 10.0;
  ctx.sea_level = sea;
  ctx.cache = &cache;
  ctx.nthreads = nthreads;
  const output_registry& reg = builtin_outputs();
  const auto encode = [&](const std::string& kind, json options, const std::string& format) {
    options["ocean"] = rule;
    if (kind == "water_depth" || kind == "lake") options.erase("ocean");
    return reg.find(kind)->encode(reg.find(kind)->canonical(options), format, ctx);
  };
  ramp_maps m;
  m.depth = r32_values(encode("water_depth", json::object(), "r32").bytes);
  m.lake = r32_values(encode("lake", json::object(), "r32").bytes);
  m.biome = pixels(encode("biome", json::object(), "rgb8").bytes, 3);
  // A step ramp at sea level: blue below, red above, nothing in between.
  const json step = {{0, 0, 0, 200}, {sea, 0, 0, 200}, {sea, 200, 0, 0}, {1, 200, 0, 0}};
  m.preview = pixels(encode("preview", {{"stops", step}, {"hillshade", 0}}, "rgb8").bytes, 3);
  m.earth = pixels(encode("preview", {{"ramp", "earth"}, {"hillshade", 0}}, "rgb8").bytes, 3);
  m.earth_water = pixels(encode("preview", {{"ramp", "earth"}, {"hillshade", 0}, {"water", true}}, "rgb8").bytes, 3);
  const json layers_json = json::array(
      {{{"name", "land"}, {"above_sea", {0, 1}}}, {{"name", "sea"}, {"above_sea", {-1, 0}}, {"ocean", {1, 1}}}});
  m.splat =
      pixels(encode("splat", {{"layers", layers_json}, {"height_blend", 0}, {"ocean_blend", 0}}, "rgba8").bytes, 4);
  return m;
}

}  // namespace

TEST_CASE(
    "ocean: one sea_level moves the coast of preview, biome, splat and water to the same cells; an inland "
    "basin below it is sea in none",
    "[outputs][ocean][water]") {
  for (const double sea : {0.35, 0.5}) {
    INFO("sea_level " << sea);
    const ramp_maps m = maps_of(sea, "connected");
    // x / 63 < sea: columns 0..22 at 0.35, 0..31 at 0.5.
    const int last_sea_column = sea == 0.35 ? 22 : 31;
    int sea_cells = 0;
    for (int y = 0; y < k_h; ++y) {
      for (int x = 0; x < k_w; ++x) {
        INFO("cell " << x << ", " << y);
        const std::size_t c = at(k_w, x, y);
        const bool expected = x <= last_sea_column;
        // Water: the sea has depth and is no lake; the basin is a lake.
        const bool water_sea = m.depth[c] > 0.0f && m.lake[c] == 0.0f;
        CHECK(water_sea == expected);
        CHECK(m.lake[c] == (in_basin(x, y) ? 1.0f : 0.0f));
        // Biome: water colours are bluer than red, or black in the deep.
        const rgb b = pixel(m.biome, x, y);
        CHECK((b[2] > b[0] || b == rgb{0, 0, 0}) == expected);
        // Preview on the step ramp: blue on the sea, red on land.
        CHECK(pixel(m.preview, x, y) == (expected ? rgb{0, 0, 200} : rgb{200, 0, 0}));
        // Splat: the sea layer (G) takes every ocean cell, land (R) the rest.
        CHECK(m.splat[4 * c] == (expected ? 0 : 255));
        CHECK(m.splat[4 * c + 1] == (expected ? 255 : 0));
        sea_cells += expected;
      }
    }
    CHECK(sea_cells == (last_sea_column + 1) * k_h);
    // The basin in real colours: biome's lowest land (e = 0, moisture 0.5:
    // (210, 185, 139) - 0.5 (100, 45, 45), truncated), the earth ramp's
    // sand at its coast (0.3), and with water: true the preview's lake colour.
    CHECK(pixel(m.biome, 46, 7) == rgb{160, 162, 116});
    CHECK(pixel(m.earth, 46, 7) == rgb{214, 202, 150});
    CHECK(pixel(m.earth_water, 46, 7) == rgb{52, 96, 160});
    // The deep sea at height 0: biome's deep_water, the earth ramp's first stop.
    CHECK(pixel(m.biome, 0, 7) == rgb{0, 0, 0});
    CHECK(pixel(m.earth, 0, 7) == rgb{16, 40, 96});
  }
}

TEST_CASE("ocean: the local rule below_sea_level paints the basin as sea, as before", "[outputs][ocean]") {
  const ramp_maps m = maps_of(0.35, "below_sea_level");
  for (int y = 5; y <= 10; ++y) {
    for (int x = 44; x <= 49; ++x) {
      INFO("cell " << x << ", " << y);
      // Biome: e = (0.05 - 0.35) / 0.35 = -0.857: (48, 64, 127) x 0.143, truncated.
      CHECK(pixel(m.biome, x, y) == rgb{6, 9, 18});
      // Earth ramp: 0.05 maps to 0.3 x 0.05 / 0.35 = 0.0429, between (16, 40, 96)
      // at 0 and (56, 104, 164) at 0.28: t = 0.153.
      CHECK(pixel(m.earth, x, y) == rgb{22, 50, 106});
      CHECK(pixel(m.preview, x, y) == rgb{0, 0, 200});
      CHECK(m.splat[4 * at(k_w, x, y) + 1] == 255);
      // The water outputs keep their one definition: the basin is a lake.
      CHECK(m.lake[at(k_w, x, y)] == 1.0f);
    }
  }
  // Land and sea elsewhere are as with the connected rule.
  const ramp_maps connected = maps_of(0.35, "connected");
  for (int y = 0; y < k_h; ++y) {
    for (int x = 0; x < k_w; ++x) {
      if (in_basin(x, y)) continue;
      INFO("cell " << x << ", " << y);
      CHECK(pixel(m.biome, x, y) == pixel(connected.biome, x, y));
      CHECK(pixel(m.earth, x, y) == pixel(connected.earth, x, y));
      CHECK(m.splat[4 * at(k_w, x, y) + 1] == connected.splat[4 * at(k_w, x, y) + 1]);
    }
  }
}

TEST_CASE("ocean: halos: the connected ocean needs the whole world, the local rule a finite halo",
          "[outputs][ocean][halo]") {
  const output_registry& reg = builtin_outputs();
  const auto halo = [&](const std::string& kind, const json& options, bool sea_level) {
    return reg.find(kind)->halo(options, {10.0, sea_level});
  };
  CHECK(halo("biome", json::object(), false) == -1);
  CHECK(halo("biome", {{"ocean", "below_sea_level"}}, false) == 0);
  // The preview knows an ocean only with the preset's sea_level.
  CHECK(halo("preview", json::object(), false) == 1);
  CHECK(halo("preview", json::object(), true) == -1);
  CHECK(halo("preview", {{"ocean", "below_sea_level"}}, true) == 1);
  CHECK(halo("preview", {{"ocean", "below_sea_level"}, {"water", true}}, true) == -1);
  // Splat: only ocean rules need the ocean; the local one reaches ocean_blend.
  const json plain = {{"layers", json::array({{{"name", "a"}}, {{"name", "b"}, {"above_sea", {-1, 0}}}})}};
  json sea_rule = {{"layers", json::array({{{"name", "a"}}, {{"name", "b"}, {"ocean", {1, 1}}}})}};
  CHECK(halo("splat", plain, true) == 1);
  CHECK(halo("splat", sea_rule, true) == -1);
  sea_rule["ocean"] = "below_sea_level";
  sea_rule["ocean_blend"] = 45;
  CHECK(halo("splat", sea_rule, true) == 5);  // ceil(45 m / 10 m)
}

TEST_CASE("ocean: a region equals the window of the world, with the connected and the local rule",
          "[outputs][ocean][halo][pipeline]") {
  // Rolling land whose lows at 0.4 hold both a sea and inland basins.
  json world = json::parse(R"({
    "size": [72, 60], "cell_size": 20.0, "height_scale": 300, "sea_level": 0.4, "seed": 5,
    "stages": [{"type": "opensimplex", "feature_size": 300, "octaves": 4}, {"type": "normalize", "mode": "min_max"}],
    "outputs": [{"map": "height", "format": "r32"}, {"map": "biome", "format": "rgb8"},
                {"map": "preview", "format": "rgb8", "ramp": "earth"},
                {"map": "splat", "format": "rgba8", "ocean_blend": 30,
                 "layers": [{"name": "land"}, {"name": "sea", "above_sea": [-1, 0], "ocean": [1, 1]}]}]
  })");
  const int x0 = 40, y0 = 13, tw = 20, th = 16;
  const auto world_files = landform_test::build_outputs(world, 2);
  // The world has inland basins below sea level, some inside the window.
  const std::vector<float> z = r32_values(world_files[0].bytes);
  const std::vector<std::uint8_t> ocean = find_ocean(z.data(), 72, 60, 0.4);
  int basin_cells = 0, basin_in_window = 0, ocean_in_window = 0;
  for (int y = 0; y < 60; ++y) {
    for (int x = 0; x < 72; ++x) {
      const bool inside = x >= x0 && x < x0 + tw && y >= y0 && y < y0 + th;
      const std::size_t c = at(72, x, y);
      const bool basin = z[c] < 0.4f && ocean[c] == 0;
      basin_cells += basin;
      basin_in_window += basin && inside;
      ocean_in_window += ocean[c] != 0 && inside;
    }
  }
  WARN("inland basin cells below sea level: " << basin_cells << " (" << basin_in_window << " in the window), ocean "
                                              << ocean_in_window << " in the window");
  REQUIRE(basin_in_window > 0);
  REQUIRE(ocean_in_window > 0);
  std::vector<std::vector<std::uint8_t>> biomes;
  for (const std::string rule : {"connected", "below_sea_level"}) {
    INFO("ocean " << rule);
    json w = world;
    for (std::size_t k = 1; k < 4; ++k) w["outputs"][k]["ocean"] = rule;
    const auto whole = landform_test::build_outputs(w, 2);
    biomes.push_back(whole[1].bytes);
    const json tile = landform_test::tile_preset(w, 72, 60, tw, th, x0, y0);
    const pipeline part = pipeline::build(tile);
    CHECK(part.computes_world() == (rule == "connected"));
    const auto files = landform::encode_outputs(part, part.run_full({1, {}, {}, {}}), 1);
    for (std::size_t k = 1; k < 4; ++k) {
      INFO("output " << k);
      const int channels = k == 3 ? 4 : 3;
      const std::vector<std::uint8_t> a = pixels(whole[k].bytes, channels), b = pixels(files[k].bytes, channels);
      REQUIRE(b.size() == static_cast<std::size_t>(tw * th * channels));
      std::size_t mismatches = 0;
      for (int y = 0; y < th; ++y)
        for (int x = 0; x < tw * channels; ++x)
          mismatches += b[static_cast<std::size_t>(y * tw * channels + x)] !=
                        a[static_cast<std::size_t>((y0 + y) * 72 * channels + x0 * channels + x)];
      CHECK(mismatches == 0);
    }
  }
  CHECK(biomes[0] != biomes[1]);  // the rule matters on this world
}

TEST_CASE("ocean: biome, preview and splat with either rule are the same bytes on 1, 2 and 8 threads",
          "[outputs][ocean][determinism]") {
  for (const std::string rule : {"connected", "below_sea_level"}) {
    CAPTURE(rule);
    const ramp_maps one = maps_of(0.35, rule, 1);
    for (const int threads : {2, 8}) {
      CAPTURE(threads);
      const ramp_maps many = maps_of(0.35, rule, threads);
      CHECK(many.biome == one.biome);
      CHECK(many.preview == one.preview);
      CHECK(many.earth == one.earth);
      CHECK(many.earth_water == one.earth_water);
      CHECK(many.splat == one.splat);
    }
  }
}
