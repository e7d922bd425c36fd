// Unit tests for `terrace`: exact staircase, treads kept, monotone and
// continuous risers, periodic beyond the range, and parameter errors.

#include <catch2/catch.hpp>

#include <cmath>

#include "landform/stages/terrace.hpp"
#include "unit/stage_checks.hpp"

using namespace landform;
using namespace landform_test;

namespace {
heightfield ramp(int n, double lo, double hi) {
  heightfield h = field_at(n, 1, 0, 0);
  for (int i = 0; i < n; ++i) h.at(i, 0) = static_cast<float>(lo + (hi - lo) * i / (n - 1));
  return h;
}
}  // namespace

TEST_CASE("terrace: smoothness 0 is a staircase of floor(h * steps) / steps", "[stages][terrace]") {
  heightfield h = ramp(101, 0.0, 1.0);
  const heightfield before = h;
  terrace_params p;
  p.steps = 4;
  p.smoothness = 0.0;
  apply_terrace(h, p, context_for(h, 0));
  for (int i = 0; i < 101; ++i) {
    REQUIRE(h.at(i, 0) == static_cast<float>(std::floor(before.at(i, 0) * 4.0) / 4.0));
  }
}

TEST_CASE("terrace: monotone, continuous, treads unchanged", "[stages][terrace]") {
  heightfield h = ramp(2001, -0.5, 1.5);
  terrace_params p;
  p.steps = 5;
  p.smoothness = 0.3;
  apply_terrace(h, p, context_for(h, 0));
  for (int i = 1; i < 2001; ++i) {
    REQUIRE(h.at(i, 0) >= h.at(i - 1, 0));
    REQUIRE(h.at(i, 0) - h.at(i - 1, 0) < 0.01f);  // no jumps with smooth risers
  }
  heightfield t = field_at(3, 1, 0, 0);
  t.at(0, 0) = 0.2f;
  t.at(1, 0) = 0.6f;
  t.at(2, 0) = 1.0f;
  apply_terrace(t, p, context_for(t, 0));
  CHECK(t.at(0, 0) == Approx(0.2));
  CHECK(t.at(1, 0) == Approx(0.6));
  CHECK(t.at(2, 0) == Approx(1.0));
}

TEST_CASE("terrace: deterministic and region-consistent; bad ranges rejected", "[stages][terrace][errors]") {
  const json stages = json::array({{{"type", "gradient"}, {"angle", 20}}, {{"type", "terrace"}, {"steps", 6}}});
  require_thread_independent(stages);
  require_region_consistent(stages);
  require_rejected({{"type", "terrace"}, {"min", 1}, {"max", 1}},
                   "stages[0] (terrace).max: 1 must be greater than min (1)");
  require_rejected({{"type", "terrace"}, {"steps", 0}}, "stages[0] (terrace).steps: 0 is below the minimum 1");
  require_rejected({{"type", "terrace"}, {"smoothness", 1.5}},
                   "stages[0] (terrace).smoothness: 1.5 is above the maximum 1");
}
