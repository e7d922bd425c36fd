// Unit tests for `invert`.

#include <catch2/catch.hpp>

#include "landform/stages/invert.hpp"
#include "unit/stage_checks.hpp"

using namespace landform;
using namespace landform_test;

TEST_CASE("invert: min + max - h, an involution", "[stages][invert]") {
  heightfield h = field_at(4, 1, 0, 0);
  const float in[] = {0.0f, 0.25f, 1.0f, -2.0f};
  for (int i = 0; i < 4; ++i) h.at(i, 0) = in[i];
  apply_invert(h, invert_params{}, context_for(h, 0));
  const float out[] = {1.0f, 0.75f, 0.0f, 3.0f};
  for (int i = 0; i < 4; ++i) CHECK(h.at(i, 0) == out[i]);
  invert_params p;
  p.min = -1.0;
  p.max = 3.0;
  apply_invert(h, p, context_for(h, 0));
  apply_invert(h, p, context_for(h, 0));
  for (int i = 0; i < 4; ++i) CHECK(h.at(i, 0) == out[i]);
  require_thread_independent(json::array({{{"type", "gradient"}}, {{"type", "invert"}}}));
}

TEST_CASE("invert: non-numeric bounds name their JSON path", "[stages][invert][errors]") {
  require_rejected({{"type", "invert"}, {"max", true}}, "stages[0] (invert).max: true must be a number");
}
