// Unit tests for the "biome" output: seed 002's biomeColor() on known
// (elevation, moisture) pairs, a transcription of the seed's JavaScript over a
// grid of pairs, a user colour table and sea level through a preset, the
// default moisture when no stage wrote the layer, and option errors.

#include <catch2/catch.hpp>

#include <stb_image.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "landform/derive/biome.hpp"
#include "landform/outputs/biome_output.hpp"
#include "landform/pipeline/pipeline.hpp"
#include "unit/stage_checks.hpp"

namespace {

using namespace landform;
using namespace landform_test;
using rgb = std::array<std::uint8_t, 3>;

// Seed document 002's biomeColor(), transcribed from its JavaScript.
rgb seed_biome_color(double elevation, double moisture) {
  double e = (elevation - 0.5) * 2, m = moisture, r, g, b;
  if (e < 0.0) {
    r = 48 + 48 * e;
    g = 64 + 64 * e;
    b = 127 + 127 * e;
  } else {
    m = m * (1 - e);
    e = std::pow(e, 4);  // e**4
    r = 210 - 100 * m;
    g = 185 - 45 * m;
    b = 139 - 45 * m;
    r = 255 * e + r * (1 - e);
    g = 255 * e + g * (1 - e);
    b = 255 * e + b * (1 - e);
  }
  return {static_cast<std::uint8_t>(static_cast<int>(r)), static_cast<std::uint8_t>(static_cast<int>(g)),
          static_cast<std::uint8_t>(static_cast<int>(b))};  // r | 0
}

// Encodes the preset's first output over its region and decodes the PNG.
std::vector<std::uint8_t> render(const json& preset, int& w, int& h) {
  const pipeline p = pipeline::build(preset);
  const build_result r = p.run_full();
  const output_spec& spec = p.outputs().at(0);
  output_context ctx(r.field, r.layers);
  const encoded_file file = spec.kind->encode(spec.options, spec.format, ctx);
  int channels = 0;
  stbi_uc* pixels = stbi_load_from_memory(file.bytes.data(), static_cast<int>(file.bytes.size()), &w, &h, &channels, 3);
  REQUIRE(pixels != nullptr);
  REQUIRE(channels == 3);
  std::vector<std::uint8_t> out(pixels, pixels + static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 3);
  stbi_image_free(pixels);
  return out;
}

}  // namespace

TEST_CASE("biome: known (elevation, moisture) pairs", "[outputs][biome]") {
  const biome_palette o;
  CHECK(biome_color(o, 0.0, 0.7) == rgb{0, 0, 0});         // deepest water: black
  CHECK(biome_color(o, 0.25, 0.7) == rgb{24, 32, 63});     // half depth: half the shore colour
  CHECK(biome_color(o, 0.4999, 0.0) == rgb{47, 63, 126});  // just below sea level
  CHECK(biome_color(o, 0.5, 0.0) == rgb{210, 185, 139});   // dry shore: sand
  CHECK(biome_color(o, 0.5, 1.0) == rgb{110, 140, 94});    // wet shore: green
  CHECK(biome_color(o, 0.75, 0.5) == rgb{189, 178, 135});  // m = 0.25, e^4 = 1/16
  CHECK(biome_color(o, 1.0, 1.0) == rgb{255, 255, 255});   // the top: snow
  CHECK(biome_color(o, 1.7, 0.3) == rgb{255, 255, 255});   // above 1 clamps to snow
  CHECK(biome_color(o, -0.5, 0.3) == rgb{0, 0, 0});        // below 0 clamps to the deep
}

TEST_CASE("biome: the seed's formula on a grid of pairs", "[outputs][biome]") {
  const biome_palette o;
  for (int i = 0; i <= 200; ++i)
    for (int k = 0; k <= 20; ++k) {
      const double e = static_cast<float>(i / 200.0), m = static_cast<float>(k / 20.0);
      INFO("elevation " << e << ", moisture " << m);
      REQUIRE(biome_color(o, e, m) == seed_biome_color(e, m));
    }
}

TEST_CASE("biome: colours the voronoi map from its height and moisture", "[outputs][biome]") {
  const json stages = json::array({{{"type", "voronoi"}, {"grid_size", 8}}});
  json preset = preset_of(stages, 48, 3);
  preset["outputs"] = json::array({{{"map", "biome"}, {"format", "rgb8"}}});
  int w = 0, h = 0;
  const std::vector<std::uint8_t> pixels = render(preset, w, h);
  REQUIRE(w == 48);
  REQUIRE(h == 48);
  const build_result r = pipeline::build(preset).run_full();
  const std::vector<float>& moisture = *r.layers.find("moisture");
  int water = 0;
  for (std::size_t k = 0; k < r.field.size(); ++k) {
    const rgb expected = biome_color(biome_palette{}, r.field.values()[k], moisture[k]);
    REQUIRE(rgb{pixels[3 * k], pixels[3 * k + 1], pixels[3 * k + 2]} == expected);
    water += r.field.values()[k] < 0.5f;
  }
  CHECK(water > 0);  // the island's sea is there
}

TEST_CASE("biome: a user colour table and sea level override the seed's", "[outputs][biome]") {
  // A constant height 0.6 with no moisture layer: default_moisture 0.5.
  json preset = preset_of(json::array({{{"type", "constant"}, {"value", 0.6}}}), 4);
  preset["outputs"] = json::array({{{"map", "biome"},
                                    {"format", "rgb8"},
                                    {"sea_level", 0.8},
                                    {"deep_water", {10, 20, 30}},
                                    {"shallow_water", {110, 120, 130}}}});
  int w = 0, h = 0;
  std::vector<std::uint8_t> pixels = render(preset, w, h);
  // e = (0.6 - 0.8) / 0.8 = -0.25: shallow + (shallow - deep) * e = 85, 95, 105.
  CHECK(rgb{pixels[0], pixels[1], pixels[2]} == rgb{85, 95, 105});

  preset["outputs"][0] = {{"map", "biome"},          {"format", "rgb8"},     {"dry_land", {200, 0, 0}},
                          {"wet_land", {0, 0, 200}}, {"snow_exponent", 1.0}, {"default_moisture", 1.0}};
  pixels = render(preset, w, h);
  // e = (0.6f - 0.5) / 0.5 = 0.2000000477, m = 1 - e: land = (40, 0, 160), blended by k = e toward
  // white: 83.00002, 51.00001, 178.99999, truncated.
  CHECK(rgb{pixels[0], pixels[1], pixels[2]} == rgb{83, 51, 178});
}

TEST_CASE("biome: bad options name their JSON path", "[outputs][biome][errors]") {
  json preset = preset_of(json::array({{{"type", "constant"}}}), 4);
  preset["outputs"] = json::array({{{"map", "biome"}, {"format", "rgb8"}, {"sea_level", 1}, {"snow", {255, 255}}}});
  CHECK(issues_of(preset) == std::vector<std::string>{"outputs[0] (biome).sea_level: 1 must be less than 1",
                                                      "outputs[0] (biome).snow: has 2 elements, needs at least 3"});
  preset["outputs"][0] = {{"map", "biome"}, {"format", "png16"}};
  const auto issues = issues_of(preset);
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].rfind("outputs[0] (biome).format:", 0) == 0);
}
