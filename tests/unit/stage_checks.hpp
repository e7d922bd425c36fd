#pragma once
// Shared fixtures and acceptance checks for stage tests: small fields and
// contexts, presets built around one stage entry, and checks of determinism
// across thread counts, seed sensitivity, region consistency and the exact
// error text for bad values.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bit_equal.hpp"
#include "landform/core/error.hpp"
#include "landform/core/heightfield.hpp"
#include "landform/pipeline/pipeline.hpp"
#include "landform/stages/stage.hpp"

namespace landform_test {

using json = nlohmann::json;

/// A w x h field at origin 0 filled with `fill`, cells of `cell_size` metres.
inline landform::heightfield make_field(int w, int h, float fill = 0.0f, double cell_size = 1.0) {
  landform::region r;
  r.width = w;
  r.height = h;
  r.cell_size = cell_size;
  return landform::heightfield(r, fill);
}

/// A context whose world is the field itself, seed 1.
inline landform::stage_context make_ctx(const landform::heightfield& h, int nthreads = 1) {
  landform::stage_context ctx;
  ctx.seed = 1;
  ctx.world = {0, 0, h.width(), h.height()};
  ctx.nthreads = nthreads;
  return ctx;
}

/// Every issue text of a preset that fails to build; empty if it builds.
inline std::vector<std::string> build_issue_texts(const json& preset) {
  std::vector<std::string> out;
  try {
    (void)landform::pipeline::build(preset);
  } catch (const landform::preset_error& e) {
    for (const auto& issue : e.issues()) out.push_back(issue.to_string());
  }
  return out;
}

/// A preset of one stage entry (or several) with an r32 height output.
inline json preset_of(const json& stages, json size, std::int64_t seed = 7) {
  json preset = {{"landform", 1},
                 {"size", std::move(size)},
                 {"seed", seed},
                 {"stages", stages},
                 {"outputs", json::array({{{"map", "height"}, {"format", "r32"}}})}};
  return preset;
}

inline landform::heightfield run_preset(const json& preset, int nthreads = 1) {
  landform::run_options options;
  options.nthreads = nthreads;
  return landform::pipeline::build(preset).run(options);
}

/// Same seed: identical bytes for 1, 2 and 8 threads (a non-square map).
inline void require_thread_independent(const json& stages) {
  const json preset = preset_of(stages, json::array({96, 72}));
  const landform::heightfield one = run_preset(preset, 1);
  for (int threads : {2, 8}) {
    INFO("threads " << threads);
    REQUIRE(bit_equal(one, run_preset(preset, threads)));
  }
  REQUIRE(bit_equal(one, run_preset(preset, 1)));  // and again
}

/// A different preset seed gives a different map (at least 5% of the cells;
/// islands leave most of the sea unchanged).
inline void require_seed_sensitive(const json& stages) {
  const landform::heightfield a = run_preset(preset_of(stages, 64, 1));
  const landform::heightfield b = run_preset(preset_of(stages, 64, 2));
  std::size_t differ = 0;
  for (std::size_t k = 0; k < a.size(); ++k) differ += a.values()[k] != b.values()[k];
  INFO(differ << " of " << a.size() << " cells differ");
  REQUIRE(differ > a.size() / 20);
}

/// A 64 x 64 region with origin (96, 160) of a 256 x 256 world equals the
/// same window of the whole world, bit for bit.
inline void require_region_consistent(const json& stages) {
  const landform::heightfield world = run_preset(preset_of(stages, 256), 2);
  json region = preset_of(stages, 64);
  region["world"] = 256;
  region["origin"] = {96, 160};
  const landform::heightfield part = run_preset(region, 2);
  REQUIRE(bit_equal(part, world.crop(96, 160, 64, 64)));
}

/// The preset issue texts of a preset that must fail to build.
inline std::vector<std::string> issues_of(const json& preset) {
  try {
    (void)landform::pipeline::build(preset);
  } catch (const landform::preset_error& e) {
    std::vector<std::string> out;
    for (const auto& issue : e.issues()) out.push_back(issue.to_string());
    return out;
  }
  FAIL("pipeline::build accepted " << preset.dump());
  return {};
}

/// The stage entry is rejected with exactly the message `expected` (path included).
inline void require_rejected(const json& stage, const std::string& expected) {
  const auto issues = issues_of(preset_of(json::array({stage}), 16));
  INFO(stage.dump());
  REQUIRE(issues == std::vector<std::string>{expected});
}

/// A heightfield placed at `origin`, with `world` the same extent.
inline landform::heightfield field_at(int w, int h, std::int64_t ox, std::int64_t oy, double cell_size = 1.0) {
  landform::region r;
  r.width = w;
  r.height = h;
  r.origin_x = ox;
  r.origin_y = oy;
  r.cell_size = cell_size;
  return landform::heightfield(r);
}

inline landform::stage_context context_for(const landform::heightfield& h, std::uint64_t seed, int nthreads = 0) {
  landform::stage_context ctx;
  ctx.seed = seed;
  ctx.world = {h.placement().origin_x, h.placement().origin_y, h.width(), h.height()};
  ctx.nthreads = nthreads;
  return ctx;
}

/// The placements used for range checks: near the origin, negative, and
/// about 1e6 cells out (each its own world).
inline std::vector<std::pair<std::int64_t, std::int64_t>> range_origins() {
  return {{0, 0}, {-300, -700}, {-1000000, -1000000}, {999500, 1000250}, {-1234567, 987654}};
}

/// Min and max of a field; fails on NaN or infinity.
inline std::pair<float, float> finite_range(const landform::heightfield& h) {
  float lo = INFINITY, hi = -INFINITY;
  for (float v : h.values()) {
    if (!std::isfinite(v)) FAIL("non-finite value " << v);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  return {lo, hi};
}

}  // namespace landform_test
