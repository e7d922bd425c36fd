// Unit tests for `clamp`.

#include <catch2/catch.hpp>

#include "landform/stages/clamp.hpp"
#include "unit/stage_checks.hpp"

using namespace landform;
using namespace landform_test;

TEST_CASE("clamp: limits to [min, max], keeps the rest", "[stages][clamp]") {
  heightfield h = field_at(5, 1, 0, 0);
  const float in[] = {-1.0f, 0.1f, 0.5f, 0.9f, 3.0f};
  for (int i = 0; i < 5; ++i) h.at(i, 0) = in[i];
  clamp_params p;
  p.min = 0.1;
  p.max = 0.8;
  apply_clamp(h, p, context_for(h, 0));
  const float out[] = {0.1f, 0.1f, 0.5f, 0.8f, 0.8f};
  for (int i = 0; i < 5; ++i) CHECK(h.at(i, 0) == out[i]);
  require_thread_independent(json::array({{{"type", "gradient"}}, {{"type", "clamp"}, {"min", 0.2}, {"max", 0.7}}}));
}

TEST_CASE("clamp: max below min names its JSON path", "[stages][clamp][errors]") {
  require_rejected({{"type", "clamp"}, {"min", 0.5}, {"max", 0.25}},
                   "stages[0] (clamp).max: 0.25 must not be below min (0.5)");
}
