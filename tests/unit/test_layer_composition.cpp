// Composition with the new layer stages through the pipeline: every blend mode
// on constant layers gives the exact arithmetic result, and a three-layer
// preset confined by an island mask validates, builds and keeps the sea flat.

#include <catch2/catch.hpp>

#include <string>

#include "landform/pipeline/pipeline.hpp"
#include "unit/stage_checks.hpp"

using namespace landform;
using namespace landform_test;

TEST_CASE("composition: blend modes on constant layers are exact", "[stages][composition]") {
  // base c = 0.75, layer L = 0.5, weight w = 0.5 (all dyadic: exact in float).
  struct expectation {
    const char* mode;
    float value;
  };
  const expectation cases[] = {{"replace", 0.25f}, {"add", 1.0f},  {"subtract", 0.5f}, {"multiply", 0.1875f},
                               {"min", 0.25f},     {"max", 0.75f}, {"lerp", 0.625f}};
  for (const auto& c : cases) {
    INFO(c.mode);
    const json stages = json::array({{{"type", "constant"}, {"value", 0.75}},
                                     {{"type", "constant"}, {"value", 0.5}, {"blend", c.mode}, {"weight", 0.5}}});
    const heightfield h = run_preset(preset_of(stages, 8), 2);
    for (float v : h.values()) REQUIRE(v == c.value);
  }
  // Weight 1 and a chain: ((0.75 + 0.5) * 0.5) - 0.125 = 0.5.
  const json chain = json::array({{{"type", "constant"}, {"value", 0.75}},
                                  {{"type", "constant"}, {"value", 0.5}, {"blend", "add"}},
                                  {{"type", "constant"}, {"value", 0.5}, {"blend", "multiply"}},
                                  {{"type", "constant"}, {"value", 0.125}, {"blend", "subtract"}}});
  const heightfield chained = run_preset(preset_of(chain, 8));
  for (float v : chained.values()) REQUIRE(v == 0.5f);
}

TEST_CASE("composition: three layers confined by an island mask validate and build", "[stages][composition]") {
  const json stages = json::parse(R"([
    {"type": "island_mask", "target": "island", "inner": 0.3, "outer": 0.9},
    {"type": "value_noise", "mode": "fbm", "feature_size": 40, "octaves": 5, "normalize": true},
    {"type": "voronoi", "mode": "f1", "grid_size": 10, "blend": "add", "weight": 0.25},
    {"type": "fault_line", "iterations": 60, "blend": "add", "weight": 0.005},
    {"type": "normalize", "mode": "min_max"},
    {"type": "island_mask", "inner": 0.3, "outer": 0.9, "blend": "multiply"},
    {"type": "constant", "value": 0, "mask": {"layer": "island", "invert": true}}
  ])");
  json preset = preset_of(stages, 64, 11);
  preset["outputs"].push_back({{"map", "island"}, {"format", "r32"}});
  const pipeline p = pipeline::build(preset);
  const build_result r = p.run_full();
  const heightfield h = r.heights();
  // Outside the mask (corners, d > 0.9) the sea is exactly 0; the middle is land.
  CHECK(h.at(0, 0) == 0.0f);
  CHECK(h.at(63, 63) == 0.0f);
  CHECK(h.at(0, 32) == 0.0f);
  CHECK(h.at(32, 32) > 0.05f);
  const std::vector<float>* island = r.layers.find("island");
  REQUIRE(island != nullptr);
  CHECK((*island)[32 * 64 + 32] == 1.0f);
  CHECK((*island)[0] == 0.0f);
  require_thread_independent(stages);
  require_region_consistent(stages);
}
