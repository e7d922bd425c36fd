// Unit tests for OpenSimplex2 and the `opensimplex2` stage: the scalar
// reference against values the published Java computed, the SIMD kernel bit
// for bit against the scalar reference on every Highway target this CPU
// allows, the fractal formulas, determinism across threads, region
// consistency, cell-size scaling, ranges, continuity and parameter errors.

#include <catch2/catch.hpp>

#include <hwy/targets.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "landform/core/rng.hpp"
#include "landform/noise/opensimplex2.hpp"
#include "landform/stages/opensimplex2.hpp"
#include "unit/stage_checks.hpp"

namespace {

using namespace landform;
using namespace landform_test;
using P = opensimplex2_params;

struct reference_value {
  std::int64_t seed;
  double x, y;
  std::uint32_t bits;
};

const reference_value k_reference[] = {
#include "unit/opensimplex2_reference.inc"
};

noise::fractal_plan plan_of(noise::fractal_kind kind, int octaves, double feature_size, double warp = 0.0,
                            std::uint64_t seed = 99) {
  noise::fractal_settings s;
  s.kind = kind;
  s.octaves = octaves;
  s.feature_size = feature_size;
  s.warp_amplitude = warp;
  s.warp_frequency = 0.013;
  return noise::make_fractal_plan(s, seed);
}

// Restores runtime dispatch to the CPU's own choice when a test ends.
struct target_mock_reset {
  ~target_mock_reset() { hwy::SetSupportedTargetsForTest(0); }
};

}  // namespace

TEST_CASE("opensimplex2: the scalar reference equals K.jpg's published Java bit for bit", "[stages][opensimplex2]") {
  int nonzero = 0;
  for (const auto& r : k_reference) {
    const float v = noise::opensimplex2_noise2(r.seed, r.x, r.y);
    INFO("seed " << r.seed << " x " << r.x << " y " << r.y << " got " << v << " expected "
                 << std::bit_cast<float>(r.bits));
    REQUIRE(std::bit_cast<std::uint32_t>(v) == r.bits);
    nonzero += v != 0.0f;
  }
  CHECK(std::size(k_reference) == 400);
  CHECK(nonzero > 300);
}

TEST_CASE("opensimplex2: SIMD rows equal the scalar reference bit for bit on every dispatch target",
          "[stages][opensimplex2][simd]") {
  const target_mock_reset reset;
  const std::vector<std::int64_t> targets = hwy::SupportedAndGeneratedTargets();
  struct row_case {
    noise::fractal_plan plan;
    std::int64_t x0;
    int n;
    double cell, wy;
  };
  const std::vector<row_case> cases = {
      {plan_of(noise::fractal_kind::fbm, 6, 64.0), 0, 257, 1.0, 0.0},
      {plan_of(noise::fractal_kind::fbm, 6, 64.0), -1000003, 131, 1.0, -777777.0},
      {plan_of(noise::fractal_kind::ridged, 5, 37.5), 12345, 77, 2.5, 991.25},
      {plan_of(noise::fractal_kind::billow, 4, 9.0), -20, 45, 0.75, -3.0},
      {plan_of(noise::fractal_kind::fbm, 3, 100.0, 40.0), -300, 203, 1.0, 17.0},
      {plan_of(noise::fractal_kind::ridged, 8, 512.0, 120.0, 7), 999000, 99, 4.0, -123456.0},
      {plan_of(noise::fractal_kind::fbm, 16, 1000.0, 0.0, 3), 5, 1, 1.0, 5.0},
  };
  std::vector<std::string> tested;
  for (const std::int64_t target : targets) {
    hwy::SetSupportedTargetsForTest(target);
    const std::string name = noise::simd_target_name();
    REQUIRE(name == hwy::TargetName(target));
    tested.push_back(name);
    for (const auto& c : cases) {
      for (int row = 0; row < 8; ++row) {
        const double wy = c.wy + row * 3.0 * c.cell;
        std::vector<float> simd(static_cast<std::size_t>(c.n)), scalar(simd.size());
        noise::opensimplex2_fractal_row(c.plan, c.x0, c.n, c.cell, wy, simd.data());
        noise::opensimplex2_fractal_row_scalar(c.plan, c.x0, c.n, c.cell, wy, scalar.data());
        INFO("target " << name << " x0 " << c.x0 << " n " << c.n << " wy " << wy);
        REQUIRE(bit_equal(simd, scalar));
      }
    }
  }
  std::string list;
  for (const auto& t : tested) list += t + " ";
  INFO("targets tested: " << list);
  // At least the emulated fallback and one real SIMD target on any x86-64.
  CHECK(tested.size() >= 2);
  WARN("opensimplex2 bit-identity checked on: " << list);
}

TEST_CASE("opensimplex2 stage: each mode follows its documented formula", "[stages][opensimplex2]") {
  const auto mode = GENERATE(P::fractal_mode::fbm, P::fractal_mode::ridged, P::fractal_mode::billow);
  P p;
  p.fractal = mode;
  p.octaves = 3;
  p.feature_size = 40.0;
  p.lacunarity = 2.5;
  p.gain = 0.4;
  p.amplitude = 1.5;
  heightfield h = field_at(21, 13, -10, 4, 2.0);
  apply_opensimplex2(h, p, context_for(h, 321, 1));
  for (int j = 0; j < h.height(); ++j)
    for (int i = 0; i < h.width(); ++i) {
      const double x = static_cast<double>(-10 + i) * 2.0, y = static_cast<double>(4 + j) * 2.0;
      float sum = 0.0f;
      double scale = 1.0, amp = 1.5;
      for (int k = 0; k < 3; ++k) {
        const auto seed = static_cast<std::int64_t>(hash64(321, static_cast<std::uint64_t>(k)));
        const double f = scale / 40.0;
        const float n = noise::opensimplex2_noise2(seed, x * f, y * f);
        const auto a = static_cast<float>(amp);
        const float term = mode == P::fractal_mode::fbm ? n * a
                           : mode == P::fractal_mode::billow
                               ? (std::fabs(n) * 2.0f - 1.0f) * a
                               : ((1.0f - std::fabs(n)) * (1.0f - std::fabs(n)) * 2.0f - 1.0f) * a;
        sum = sum + term;
        scale *= 2.5;
        amp *= 0.4;
      }
      REQUIRE(h.at(i, j) == sum);
    }
}

TEST_CASE("opensimplex2 stage: deterministic, seed-sensitive and region-consistent",
          "[stages][opensimplex2][determinism]") {
  const json stage = GENERATE(json{{"type", "opensimplex2"}, {"feature_size", 40}},
                              json{{"type", "opensimplex2"}, {"fractal", "ridged"}, {"feature_size", 30}},
                              json{{"type", "opensimplex2"},
                                   {"fractal", "billow"},
                                   {"feature_size", 50},
                                   {"warp_amplitude", 25},
                                   {"warp_frequency", 0.02}});
  INFO(stage.dump());
  require_thread_independent(json::array({stage}));
  require_seed_sensitive(json::array({stage}));
  require_region_consistent(json::array({stage}));
}

TEST_CASE("opensimplex2 stage: cell size 2 with feature size 200 equals cell size 1 with 100",
          "[stages][opensimplex2]") {
  P a, b;
  a.feature_size = 100.0;
  b.feature_size = 200.0;
  heightfield h1 = field_at(48, 40, -20, 11, 1.0), h2 = field_at(48, 40, -20, 11, 2.0);
  apply_opensimplex2(h1, a, context_for(h1, 5, 1));
  apply_opensimplex2(h2, b, context_for(h2, 5, 1));
  CHECK(bit_equal(h1.values(), h2.values()));
}

TEST_CASE("opensimplex2 stage: every mode stays within its bound and uses it, near 0 and near 1e6",
          "[stages][opensimplex2]") {
  const auto mode = GENERATE(P::fractal_mode::fbm, P::fractal_mode::ridged, P::fractal_mode::billow);
  P p;
  p.fractal = mode;
  p.octaves = 6;
  p.feature_size = 48.0;
  p.amplitude = 2.0;
  const double bound = 2.0 * (1.0 - std::pow(0.5, 6)) / (1.0 - 0.5);
  float lo = INFINITY, hi = -INFINITY;
  for (const auto& [ox, oy] : range_origins()) {
    heightfield h = field_at(192, 160, ox, oy);
    apply_opensimplex2(h, p, context_for(h, 31337, 2));
    const auto [a, b] = finite_range(h);
    lo = std::min(lo, a);
    hi = std::max(hi, b);
  }
  INFO("range " << lo << " .. " << hi << ", bound " << bound);
  REQUIRE(lo >= -bound);
  REQUIRE(hi <= bound);
  CHECK(lo < -0.35 * bound);
  CHECK(hi > 0.35 * bound);
}

TEST_CASE("opensimplex2 stage: neighbours differ by at most the noise's Lipschitz bound", "[stages][opensimplex2]") {
  // One vertex contributes (a^2)^2 (g . d) with a = 0.5 - |d|^2 and |g| = 1 /
  // 0.01001634121365712; its gradient is at most |g| max_u (0.5 - u)^3 (0.5 +
  // 7u) = |g| (3/7)^3 (u = 1/14), and three vertices contribute: L < 23.6 per
  // noise unit. Octave k moves f_k per cell, so a step changes the sum by at
  // most 23.6 * sum_k |a_k| f_k * cell (ridged and billow double it).
  const auto mode = GENERATE(P::fractal_mode::fbm, P::fractal_mode::ridged, P::fractal_mode::billow);
  P p;
  p.fractal = mode;
  p.octaves = 6;
  p.feature_size = 2048.0;
  const double lipschitz = 3.0 * (1.0 / 0.01001634121365712) * std::pow(3.0 / 7.0, 3);
  REQUIRE(lipschitz < 23.6);
  double slope = 0.0;
  for (int k = 0; k < 6; ++k) slope += std::pow(0.5, k) * std::pow(2.0, k) / 2048.0;
  const double step_bound = (mode == P::fractal_mode::fbm ? 1.0 : 2.0) * lipschitz * slope + 1e-5;
  heightfield h = field_at(256, 256, -128, 1000000);
  apply_opensimplex2(h, p, context_for(h, 8, 2));
  double largest = 0.0;
  for (int j = 0; j < h.height(); ++j)
    for (int i = 0; i < h.width(); ++i) {
      if (i + 1 < h.width()) largest = std::max(largest, std::abs(double(h.at(i + 1, j)) - h.at(i, j)));
      if (j + 1 < h.height()) largest = std::max(largest, std::abs(double(h.at(i, j + 1)) - h.at(i, j)));
    }
  INFO("largest step " << largest << ", bound " << step_bound);
  REQUIRE(largest <= step_bound);
  CHECK(largest > 0.0);
}

TEST_CASE("opensimplex2 stage: coordinates beyond the noise domain are refused", "[stages][opensimplex2]") {
  P p;
  heightfield far = field_at(8, 8, std::int64_t{1} << 40, 0);
  CHECK_THROWS_AS(apply_opensimplex2(far, p, context_for(far, 1, 1)), std::domain_error);
  heightfield near = field_at(8, 8, 20000000000, -20000000000);
  p.octaves = 1;
  p.feature_size = 100.0;
  CHECK_NOTHROW(apply_opensimplex2(near, p, context_for(near, 1, 1)));
}

TEST_CASE("opensimplex2 stage: out-of-range parameters name their JSON path", "[stages][opensimplex2][errors]") {
  require_rejected({{"type", "opensimplex2"}, {"octaves", 17}},
                   "stages[0] (opensimplex2).octaves: 17 is above the maximum 16");
  require_rejected(
      {{"type", "opensimplex2"}, {"fractal", "ridge"}},
      "stages[0] (opensimplex2).fractal: \"ridge\" is not one of fbm | ridged | billow; did you mean \"ridged\"?");
}
