// Unit tests for the `island_mask` generator: 1 inside, 0 past `outer`, the
// curve between, radial against square, round masks in non-square worlds,
// region consistency and parameter errors.

#include <catch2/catch.hpp>

#include <cmath>

#include "landform/stages/island_mask.hpp"
#include "unit/stage_checks.hpp"

using namespace landform;
using namespace landform_test;
using P = island_mask_params;

TEST_CASE("island_mask: 1 in the middle, 0 at the edges, curve between", "[stages][island_mask]") {
  heightfield h = field_at(100, 100, 0, 0);
  P p;
  p.curve = P::curve_kind::linear;
  apply_island_mask(h, p, context_for(h, 0));
  CHECK(h.at(50, 50) == 1.0f);
  CHECK(h.at(0, 50) == Approx(1.0 - (2.0 * std::hypot(0.495, 0.005) - 0.5) / 0.5));  // d = 0.99
  CHECK(h.at(0, 20) == 0.0f);
  CHECK(h.at(0, 0) == 0.0f);
  // Linear between inner 0.5 and outer 1: 1 - (d - 0.5) / 0.5.
  const double d = 2.0 * std::hypot(75.5 / 100.0 - 0.5, 50.5 / 100.0 - 0.5);
  CHECK(h.at(75, 50) == Approx(1.0 - (d - 0.5) / 0.5));
  const auto [lo, hi] = finite_range(h);
  CHECK(lo == 0.0f);
  CHECK(hi == 1.0f);
}

TEST_CASE("island_mask: square reaches further along the diagonal than radial", "[stages][island_mask]") {
  heightfield r = field_at(64, 64, 0, 0), s = field_at(64, 64, 0, 0);
  P p;
  apply_island_mask(r, p, context_for(r, 0));
  p.shape = P::shape_kind::square;
  apply_island_mask(s, p, context_for(s, 0));
  CHECK(s.at(12, 12) > r.at(12, 12));
  CHECK(s.at(32, 5) == Approx(r.at(32, 5)).margin(0.02));  // the same along an axis
}

TEST_CASE("island_mask: fit circle is round in a wide world", "[stages][island_mask]") {
  heightfield h = field_at(200, 100, 0, 0);
  P p;
  p.fit = P::fit_kind::circle;
  apply_island_mask(h, p, context_for(h, 0));
  // 30 cells right of the centre equals 30 cells below it.
  CHECK(h.at(129, 49) == Approx(h.at(99, 79)).margin(1e-6));
  CHECK(h.at(10, 49) == 0.0f);  // far outside the circle, still inside the world
  p.fit = P::fit_kind::world;
  apply_island_mask(h, p, context_for(h, 0));
  CHECK(h.at(10, 49) > 0.0f);  // the ellipse reaches toward the short edges
}

TEST_CASE("island_mask: deterministic and region-consistent", "[stages][island_mask][determinism]") {
  const json stages = json::array({{{"type", "island_mask"}, {"shape", "square"}, {"exponent", 2.0}}});
  require_thread_independent(stages);
  require_region_consistent(stages);
}

TEST_CASE("island_mask: out-of-range parameters name their JSON path", "[stages][island_mask][errors]") {
  require_rejected({{"type", "island_mask"}, {"inner", 0.8}, {"outer", 0.5}},
                   "stages[0] (island_mask).outer: 0.5 must be greater than inner (0.8)");
  require_rejected({{"type", "island_mask"}, {"inner", -0.1}},
                   "stages[0] (island_mask).inner: -0.1 is below the minimum 0");
  require_rejected({{"type", "island_mask"}, {"exponent", 0}},
                   "stages[0] (island_mask).exponent: 0 is below the minimum 0.05");
}
