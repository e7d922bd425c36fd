// Unit tests for `curve` and control_curve: exact linear segments, the
// monotone smooth spline (through the points, no overshoot), clamping beyond
// the ends, the stage on a heightfield and the point-list errors.

#include <catch2/catch.hpp>

#include "landform/stages/curve.hpp"
#include "unit/stage_checks.hpp"

using namespace landform;
using namespace landform_test;

TEST_CASE("curve: linear segments and constant ends", "[stages][curve]") {
  const control_curve c({{0.0, 0.0}, {0.5, 0.1}, {1.0, 1.0}}, control_curve::kind::linear);
  CHECK(c(-3.0) == 0.0);
  CHECK(c(0.25) == Approx(0.05));
  CHECK(c(0.5) == 0.1);
  CHECK(c(0.75) == Approx(0.55));
  CHECK(c(7.0) == 1.0);
  CHECK(control_curve({{0.0, 0.0}, {1.0, 1.0}}, control_curve::kind::linear).is_identity());
}

TEST_CASE("curve: smooth passes through the points, monotone, no overshoot", "[stages][curve]") {
  const std::vector<std::array<double, 2>> pts = {{0.0, 0.0}, {0.2, 0.05}, {0.3, 0.8}, {0.6, 0.85}, {1.0, 1.0}};
  const control_curve c(pts, control_curve::kind::smooth);
  for (const auto& p : pts) CHECK(c(p[0]) == Approx(p[1]));
  double previous = -1.0;
  for (int k = 0; k <= 1000; ++k) {
    const double v = c(k / 1000.0);
    REQUIRE(v >= previous);
    REQUIRE(v >= 0.0);
    REQUIRE(v <= 1.0);
    previous = v;
  }
  // A peak stays a peak: no value above the highest point.
  const control_curve peak({{0.0, 0.0}, {0.5, 1.0}, {1.0, 0.0}}, control_curve::kind::smooth);
  for (int k = 0; k <= 100; ++k) REQUIRE(peak(k / 100.0) <= 1.0);
}

TEST_CASE("curve: the stage remaps every height", "[stages][curve]") {
  heightfield h = field_at(11, 3, 0, 0);
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 11; ++i) h.at(i, j) = static_cast<float>(i / 10.0);
  curve_params p;
  p.points = {{0.0, 1.0}, {1.0, 0.0}};
  apply_curve(h, p, context_for(h, 0, 2));
  for (int i = 0; i < 11; ++i) CHECK(h.at(i, 1) == Approx(1.0 - i / 10.0));
  const json stages =
      json::array({{{"type", "gradient"}},
                   {{"type", "curve"}, {"points", {{0, 0}, {0.4, 0.1}, {1, 1}}}, {"interpolation", "smooth"}}});
  require_thread_independent(stages);
  require_region_consistent(stages);
}

TEST_CASE("curve: bad point lists name their JSON path", "[stages][curve][errors]") {
  require_rejected(
      {{"type", "curve"}, {"points", {{0, 0}, {0.5, 1}, {0.5, 0}}}},
      "stages[0] (curve).points: x must increase strictly from point to point: point 2 has x 0.5 after 0.5");
  require_rejected({{"type", "curve"}, {"points", {{0, 0}}}},
                   "stages[0] (curve).points: has 1 elements, needs at least 2");
  require_rejected({{"type", "curve"}, {"points", {{0, 0}, {1}}}},
                   "stages[0] (curve).points: element 1: [1] must be [x, y]");
}
