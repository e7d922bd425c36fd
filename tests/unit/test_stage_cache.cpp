// Unit tests for stage_cache (the watch's resume after unchanged stages): a
// resumed run equals a run from scratch bit for bit, resumes exactly after
// the last unchanged stage, and never resumes across a change of the grid,
// a side layer's use or the budget.

#include <catch2/catch.hpp>

#include <string>

#include "landform/pipeline/pipeline.hpp"
#include "landform/pipeline/stage_cache.hpp"

#include "bit_equal.hpp"

namespace {

using namespace landform;
using landform_test::bit_equal;

// Noise, a warp, droplets, talus, a final stretch; outputs read the heights
// and (optionally) the droplets' erosion map.
json preset(int talus_iterations, int perturb_magnitude = 6, bool erosion_map = false) {
  json p = {{"landform", 1},
            {"size", 64},
            {"seed", 3},
            {"cell_size", 4.0},
            {"height_scale", 500.0},
            {"stages",
             {{{"type", "opensimplex"}, {"feature_size", 120}, {"octaves", 5}},
              {{"type", "perturb"}, {"frequency", 4}, {"magnitude", perturb_magnitude}},
              {{"type", "normalize"}, {"mode", "min_max"}},
              {{"type", "hydraulic_erosion"}, {"droplets_per_cell", 0.5}},
              {{"type", "thermal_erosion"}, {"talus_angle", 35}, {"iterations", talus_iterations}},
              {{"type", "normalize"}, {"mode", "min_max"}}}},
            {"outputs", {{{"map", "height"}, {"format", "r32"}, {"file", "h.r32"}}}}};
  if (erosion_map) p["outputs"].push_back({{"map", "erosion"}, {"format", "r32"}, {"file", "e.r32"}});
  return p;
}

build_result run(const json& p, stage_cache* cache) {
  run_options o;
  o.nthreads = 2;
  o.cache = cache;
  return pipeline::build(p).run_full(o);
}

bool same(const build_result& a, const build_result& b) {
  if (!bit_equal(a.field, b.field) || a.layers.names() != b.layers.names()) return false;
  for (const auto& name : a.layers.names()) {
    if (!bit_equal(*a.layers.find(name), *b.layers.find(name))) return false;
  }
  return a.stage_reports == b.stage_reports;
}

}  // namespace

TEST_CASE("stage_cache: an edit of a late stage resumes after the stages before it", "[pipeline][cache]") {
  stage_cache cache;
  const build_result first = run(preset(10), &cache);
  CHECK(first.stages_cached == 0);
  CHECK(cache.size() == 6);
  CHECK(same(first, run(preset(10), nullptr)));

  // The same preset again: every stage from the cache.
  const build_result again = run(preset(10), &cache);
  CHECK(again.stages_cached == 6);
  CHECK(same(again, first));

  // The talus erosion (stage 4) changed: stages 0 to 3 come from the cache.
  const build_result edited = run(preset(25), &cache);
  CHECK(edited.stages_cached == 4);
  CHECK(same(edited, run(preset(25), nullptr)));
  CHECK(!bit_equal(edited.field, first.field));

  // The warp (stage 1) changed: only the noise is reused.
  const build_result warped = run(preset(25, 9), &cache);
  CHECK(warped.stages_cached == 1);
  CHECK(same(warped, run(preset(25, 9), nullptr)));
}

TEST_CASE("stage_cache: no resume across a new grid, seed or side layer", "[pipeline][cache]") {
  stage_cache cache;
  (void)run(preset(10), &cache);
  SECTION("size") {
    json p = preset(10);
    p["size"] = 48;
    const build_result r = run(p, &cache);
    CHECK(r.stages_cached == 0);
    CHECK(same(r, run(p, nullptr)));
  }
  SECTION("height scale") {
    json p = preset(10);
    p["height_scale"] = 800.0;
    CHECK(run(p, &cache).stages_cached == 0);
  }
  SECTION("seed") {
    json p = preset(10);
    p["seed"] = 4;
    CHECK(run(p, &cache).stages_cached == 0);
  }
  SECTION("an output now wants the droplets' erosion map") {
    // The droplet stage must run again to record it; the stages before it
    // are unchanged.
    const build_result r = run(preset(10, 6, true), &cache);
    CHECK(r.stages_cached == 3);
    REQUIRE(r.layers.find("erosion") != nullptr);
    CHECK(same(r, run(preset(10, 6, true), nullptr)));
  }
}

TEST_CASE("stage_cache: within its budget, results stay the same", "[pipeline][cache]") {
  // 64 x 64 float32 heights: 16 KiB a snapshot; room for two. Which two are
  // kept depends on the stages' timings; what a resumed run returns does not.
  constexpr std::size_t k_snapshot = 64 * 64 * sizeof(float);
  stage_cache cache(2 * k_snapshot);
  (void)run(preset(10), &cache);
  CHECK(cache.size() == 2);
  CHECK(cache.bytes() <= 2 * k_snapshot);
  for (const int iterations : {30, 31, 10}) {
    const build_result edited = run(preset(iterations), &cache);
    CHECK(edited.stages_cached <= 4);
    CHECK(same(edited, run(preset(iterations), nullptr)));
    CHECK(cache.bytes() <= 2 * k_snapshot);
  }
  // A budget below one snapshot keeps nothing and changes nothing.
  stage_cache tiny(100);
  CHECK(same(run(preset(10), &tiny), run(preset(10), nullptr)));
  CHECK(tiny.size() == 0);
}
