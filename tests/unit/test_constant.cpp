// Unit tests for the `constant` generator.

#include <catch2/catch.hpp>

#include "landform/stages/constant.hpp"
#include "unit/stage_checks.hpp"

using namespace landform;
using namespace landform_test;

TEST_CASE("constant: every cell gets the value", "[stages][constant]") {
  const double v = GENERATE(0.0, -2.5, 0.1, 1e6);
  heightfield h = field_at(33, 17, -1000000, 5);
  h.values().assign(h.size(), 9.0f);
  constant_params p;
  p.value = v;
  apply_constant(h, p, context_for(h, 1, 2));
  for (float x : h.values()) REQUIRE(x == static_cast<float>(v));
}

TEST_CASE("constant: deterministic and region-consistent", "[stages][constant][determinism]") {
  const json stages = json::array({{{"type", "constant"}, {"value", 0.3}}});
  require_thread_independent(stages);
  require_region_consistent(stages);
}

TEST_CASE("constant: a non-number value names its JSON path", "[stages][constant][errors]") {
  require_rejected({{"type", "constant"}, {"value", "high"}}, "stages[0] (constant).value: \"high\" must be a number");
}
