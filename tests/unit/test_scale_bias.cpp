// Unit tests for `scale_bias`.

#include <catch2/catch.hpp>

#include "landform/stages/scale_bias.hpp"
#include "unit/stage_checks.hpp"

using namespace landform;
using namespace landform_test;

TEST_CASE("scale_bias: h * scale + bias; the defaults are the identity", "[stages][scale_bias]") {
  heightfield h = field_at(4, 1, 0, 0);
  const float in[] = {-1.0f, 0.0f, 0.3f, 1.0f};
  for (int i = 0; i < 4; ++i) h.at(i, 0) = in[i];
  const heightfield before = h;
  apply_scale_bias(h, scale_bias_params{}, context_for(h, 0));
  CHECK(bit_equal(h, before));
  scale_bias_params p;
  p.scale = 0.5;
  p.bias = 0.5;
  apply_scale_bias(h, p, context_for(h, 0));
  const float out[] = {0.0f, 0.5f, static_cast<float>(0.3f * 0.5 + 0.5), 1.0f};
  for (int i = 0; i < 4; ++i) CHECK(h.at(i, 0) == out[i]);
  require_thread_independent(
      json::array({{{"type", "gradient"}}, {{"type", "scale_bias"}, {"scale", -2}, {"bias", 1}}}));
}

TEST_CASE("scale_bias: non-numeric values name their JSON path", "[stages][scale_bias][errors]") {
  require_rejected({{"type", "scale_bias"}, {"scale", "2"}}, "stages[0] (scale_bias).scale: \"2\" must be a number");
}
