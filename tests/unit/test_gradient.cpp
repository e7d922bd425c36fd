// Unit tests for the `gradient` generator: exact linear ramps along x,
// reversed and diagonal ramps, radial distance, ranges, region consistency
// and parameter errors.

#include <catch2/catch.hpp>

#include <cmath>

#include "landform/stages/gradient.hpp"
#include "unit/stage_checks.hpp"

using namespace landform;
using namespace landform_test;
using P = gradient_params;

TEST_CASE("gradient: linear along x is (i + 0.5) / width across the world", "[stages][gradient]") {
  heightfield h = field_at(64, 16, 0, 0);
  apply_gradient(h, P{}, context_for(h, 0));
  for (int j = 0; j < 16; ++j)
    for (int i = 0; i < 64; ++i) REQUIRE(h.at(i, j) == static_cast<float>((i + 0.5) / 64.0));
}

TEST_CASE("gradient: angles turn the ramp; start and end set its range", "[stages][gradient]") {
  heightfield h = field_at(40, 40, -20, 7);
  P p;
  p.start = 2.0;
  p.end = -2.0;
  p.angle = 180.0;  // right to left
  apply_gradient(h, p, context_for(h, 0));
  CHECK(h.at(0, 5) == Approx(-2.0 + 4.0 * 0.5 / 40.0));
  CHECK(h.at(39, 5) == Approx(2.0 - 4.0 * 0.5 / 40.0));
  p.angle = 45.0;  // corner to corner: top-left lowest... start at top-left
  apply_gradient(h, p, context_for(h, 0));
  CHECK(h.at(0, 0) > h.at(39, 39));
  CHECK(h.at(5, 30) == Approx(h.at(30, 5)).margin(1e-6));
  const auto [lo, hi] = finite_range(h);
  CHECK(lo >= -2.0f);
  CHECK(hi <= 2.0f);
}

TEST_CASE("gradient: radial runs from the centre to the radius and stays there", "[stages][gradient]") {
  heightfield h = field_at(100, 50, 0, 0);
  P p;
  p.shape = P::shape_kind::radial;
  p.radius = 0.4;  // 20 cells: the smaller side is 50
  apply_gradient(h, p, context_for(h, 0));
  CHECK(h.at(49, 24) == Approx(std::hypot(0.5, 0.5) / 20.0));
  CHECK(h.at(59, 24) == Approx(std::hypot(9.5, 0.5) / 20.0));
  CHECK(h.at(0, 0) == 1.0f);
  CHECK(h.at(99, 49) == 1.0f);
}

TEST_CASE("gradient: deterministic and region-consistent", "[stages][gradient][determinism]") {
  const json stage = GENERATE(json{{"type", "gradient"}, {"angle", 30}},
                              json{{"type", "gradient"}, {"shape", "radial"}, {"center_x", 0.3}, {"radius", 0.2}});
  const json stages = json::array({stage});
  require_thread_independent(stages);
  require_region_consistent(stages);
}

TEST_CASE("gradient: out-of-range parameters name their JSON path", "[stages][gradient][errors]") {
  require_rejected({{"type", "gradient"}, {"radius", 0}}, "stages[0] (gradient).radius: 0 must be greater than 0");
  require_rejected({{"type", "gradient"}, {"angle", 400}}, "stages[0] (gradient).angle: 400 is above the maximum 360");
}
