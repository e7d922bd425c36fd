// Unit tests for improved Perlin noise and the `perlin` stage: lattice
// zeros, the fade and hash formula at a hand-checked point, the SIMD kernel
// bit for bit against the scalar reference on every Highway target this CPU
// allows, determinism, region consistency, ranges and continuity.

#include <catch2/catch.hpp>

#include <hwy/targets.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "landform/noise/opensimplex2.hpp"
#include "landform/noise/perlin.hpp"
#include "landform/stages/perlin.hpp"
#include "unit/stage_checks.hpp"

namespace {

using namespace landform;
using namespace landform_test;
using P = perlin_params;

}  // namespace

TEST_CASE("perlin: zero at every lattice point, and the documented formula between them", "[stages][perlin]") {
  for (const std::int64_t seed : {std::int64_t{0}, std::int64_t{-5}, std::int64_t{123456789012345}})
    for (int x = -40; x <= 40; x += 7)
      for (int y = -1000003; y <= -999990; y += 3) REQUIRE(noise::perlin_noise2(seed, x, y) == 0.0f);
  // At (0.5, 0.25), seed 0: corner gradients from the documented hash.
  const auto gradient = [](std::uint32_t i, std::uint32_t j) {
    const std::uint32_t k = ((0u ^ i * 0x9E3779B1u ^ j * 0x85EBCA77u) * 0xC2B2AE3Du) >> 29;
    const float s = 1.41421356237309504880f;
    const float gx[8] = {1, -1, 1, -1, s, -s, 0, 0}, gy[8] = {1, 1, -1, -1, 0, 0, s, -s};
    return std::pair<float, float>{gx[k], gy[k]};
  };
  const auto dot = [&](std::uint32_t i, std::uint32_t j, float dx, float dy) {
    const auto [gx, gy] = gradient(i, j);
    return gx * dx + gy * dy;
  };
  const float u = 0.5f * 0.5f * 0.5f * (0.5f * (0.5f * 6.0f - 15.0f) + 10.0f);
  const float v = 0.25f * 0.25f * 0.25f * (0.25f * (0.25f * 6.0f - 15.0f) + 10.0f);
  const float a = dot(0, 0, 0.5f, 0.25f), b = dot(1, 0, -0.5f, 0.25f);
  const float c = dot(0, 1, 0.5f, -0.75f), d = dot(1, 1, -0.5f, -0.75f);
  const float x0 = a + u * (b - a), x1 = c + u * (d - c);
  CHECK(noise::perlin_noise2(0, 0.5, 0.25) == x0 + v * (x1 - x0));
}

TEST_CASE("perlin: SIMD rows equal the scalar reference bit for bit on every dispatch target",
          "[stages][perlin][simd]") {
  struct reset {
    ~reset() { hwy::SetSupportedTargetsForTest(0); }
  } const restore;
  std::vector<noise::fractal_plan> plans;
  for (const auto kind : {noise::fractal_kind::fbm, noise::fractal_kind::ridged, noise::fractal_kind::billow}) {
    noise::fractal_settings s;
    s.kind = kind;
    s.feature_size = 33.0;
    s.warp_amplitude = kind == noise::fractal_kind::billow ? 20.0 : 0.0;
    s.warp_frequency = 0.02;
    plans.push_back(noise::make_fractal_plan(s, 17));
  }
  int targets = 0;
  for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    REQUIRE(noise::simd_target_name() == hwy::TargetName(target));
    ++targets;
    for (const auto& plan : plans)
      for (const std::int64_t x0 : {std::int64_t{0}, std::int64_t{-77}, std::int64_t{1000001}})
        for (int row = 0; row < 6; ++row) {
          const int n = 61 + row;
          std::vector<float> simd(static_cast<std::size_t>(n)), scalar(simd.size());
          const double wy = -500.0 + 7.0 * row;
          noise::perlin_fractal_row(plan, x0, n, 1.5, wy, simd.data());
          noise::perlin_fractal_row_scalar(plan, x0, n, 1.5, wy, scalar.data());
          INFO("target " << hwy::TargetName(target) << " x0 " << x0 << " row " << row);
          REQUIRE(bit_equal(simd, scalar));
        }
  }
  CHECK(targets >= 2);
}

TEST_CASE("perlin stage: deterministic, seed-sensitive and region-consistent", "[stages][perlin][determinism]") {
  const json stage = GENERATE(json{{"type", "perlin"}, {"feature_size", 40}},
                              json{{"type", "perlin"}, {"fractal", "billow"}, {"warp_amplitude", 30}});
  INFO(stage.dump());
  require_thread_independent(json::array({stage}));
  require_seed_sensitive(json::array({stage}));
  require_region_consistent(json::array({stage}));
}

TEST_CASE("perlin stage: within the fBm bound, and neighbours within the Lipschitz bound", "[stages][perlin]") {
  // |dn/dx| <= |g_x| + max fade' * max |n_10 - n_00| = sqrt 2 + 15/8 * 4 < 8.92
  // per noise unit (dot products are at most |g| |d| = 2).
  const auto mode = GENERATE(P::fractal_mode::fbm, P::fractal_mode::ridged, P::fractal_mode::billow);
  P p;
  p.fractal = mode;
  p.feature_size = 1024.0;
  const double bound = (1.0 - std::pow(0.5, 6)) / 0.5;
  double slope = 0.0;
  for (int k = 0; k < 6; ++k) slope += std::pow(0.5, k) * std::pow(2.0, k) / 1024.0;
  const double step_bound = (mode == P::fractal_mode::fbm ? 1.0 : 2.0) * 8.92 * slope + 1e-5;
  float lo = INFINITY, hi = -INFINITY;
  double largest = 0.0;
  for (const auto& [ox, oy] : range_origins()) {
    heightfield h = field_at(160, 128, ox, oy, 4.0);
    apply_perlin(h, p, context_for(h, 4242, 2));
    const auto [a, b] = finite_range(h);
    lo = std::min(lo, a);
    hi = std::max(hi, b);
    for (int j = 0; j + 1 < h.height(); ++j)
      for (int i = 0; i + 1 < h.width(); ++i) {
        largest = std::max(largest, std::abs(double(h.at(i + 1, j)) - h.at(i, j)));
        largest = std::max(largest, std::abs(double(h.at(i, j + 1)) - h.at(i, j)));
      }
  }
  INFO("range " << lo << " .. " << hi << " bound " << bound << "; step " << largest << " bound " << 4 * step_bound);
  REQUIRE(lo >= -bound);
  REQUIRE(hi <= bound);
  CHECK(hi - lo > 0.5 * bound);
  REQUIRE(largest <= 4.0 * step_bound);  // cells of 4 world units
}
