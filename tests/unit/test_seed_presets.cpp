// The presets reproducing seed documents 001 to 004 (and the layered example):
// they validate, are thread-independent and region-consistent, and show what
// their seed documents describe, checked by simple statistics on small builds.

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "landform/pipeline/pipeline.hpp"
#include "landform/pipeline/preset.hpp"
#include "unit/stage_checks.hpp"

namespace {

using namespace landform;
using namespace landform_test;

json load(const std::string& name) {
  return load_preset_file(std::string(LANDFORM_SOURCE_DIR) + "/presets/" + name);
}

double fraction_above(const heightfield& h, float level) {
  return static_cast<double>(std::count_if(h.values().begin(), h.values().end(), [&](float v) { return v > level; })) /
         static_cast<double>(h.size());
}

}  // namespace

TEST_CASE("seed presets: deterministic and region-consistent", "[presets][determinism]") {
  const std::string name = GENERATE("value-noise.json", "fault-line.json", "floating-islands.json",
                                    "voronoi-biomes.json", "layered-island.json");
  INFO(name);
  const json preset = load(name);
  REQUIRE_NOTHROW(pipeline::build(preset));
  const json stages = preset.at("stages");
  require_thread_independent(stages);
  require_region_consistent(stages);
}

TEST_CASE("seed presets: the images show the seed documents' systems", "[presets]") {
  SECTION("001: a soft cloud in the middle grey range, never below 0") {
    json preset = load("value-noise.json");
    preset["size"] = 256;
    preset["world"] = 1024;  // a window of the seed's 1024 map
    const heightfield h = run_preset(preset, 0);
    const auto [lo, hi] = finite_range(h);
    CHECK(lo > 0.1f);
    CHECK(hi < 0.95f);
    CHECK(hi - lo > 0.1f);
  }
  SECTION("003: fault terrain spans the range, faults everywhere") {
    json preset = load("fault-line.json");
    preset["size"] = 128;
    const heightfield h = run_preset(preset, 0);
    const auto [lo, hi] = finite_range(h);
    CHECK(lo == 0.0f);
    CHECK(hi == 1.0f);
    CHECK(fraction_above(h, 0.5f) > 0.2);
    CHECK(fraction_above(h, 0.5f) < 0.8);
  }
  SECTION("004: separate islands in a sea, away from the border") {
    const heightfield h = run_preset(load("floating-islands.json"), 0);
    CHECK(fraction_above(h, 0.5f) > 0.03);
    CHECK(fraction_above(h, 0.5f) < 0.5);
    for (int k = 0; k < 512; ++k) {
      REQUIRE(h.at(k, 0) == 0.0f);
      REQUIRE(h.at(0, k) == 0.0f);
      REQUIRE(h.at(k, 511) == 0.0f);
      REQUIRE(h.at(511, k) == 0.0f);
    }
  }
  SECTION("002: an island: land in the middle, sea at the edges") {
    json preset = load("voronoi-biomes.json");
    preset["size"] = 128;
    const heightfield h = run_preset(preset, 0);
    CHECK(fraction_above(h, 0.5f) > 0.05);
    CHECK(fraction_above(h, 0.5f) < 0.6);
    for (int k = 0; k < 128; ++k) {
      REQUIRE(h.at(k, 0) < 0.5f);
      REQUIRE(h.at(0, k) < 0.5f);
    }
  }
}
