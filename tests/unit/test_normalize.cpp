// Unit tests for the `normalize` filter: the tutorial's exact range mapping,
// min_max, flat maps, clamping, reversed output ranges and the cross-parameter
// rule enforced by pipeline::build.

#include <catch2/catch.hpp>

#include "bit_equal.hpp"
#include "stage_checks.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "landform/core/error.hpp"
#include "landform/core/heightfield.hpp"
#include "landform/pipeline/pipeline.hpp"
#include "landform/stages/normalize.hpp"
#include "landform/stages/opensimplex.hpp"

namespace {

using namespace landform;
using landform_test::bit_equal;
using landform_test::make_ctx;
using landform_test::make_field;
using mode = normalize_params::kind;

heightfield noise_field(int w, int h, std::uint64_t seed, double amplitude = 1.0) {
  heightfield f = make_field(w, h);
  opensimplex_params p;
  p.octaves = 4;
  p.feature_size = 20.0;
  p.amplitude = amplitude;
  stage_context ctx = make_ctx(f);
  ctx.seed = seed;
  apply_opensimplex(f, p, ctx);
  return f;
}

}  // namespace

TEST_CASE("normalize: range [-1, 1] -> [0, 1] is (h + 1) / 2 in double, rounded to float", "[stages][normalize]") {
  heightfield h = noise_field(64, 64, 7);
  // Plus the ends and some values whose float rounding matters.
  h.at(0, 0) = -1.0f;
  h.at(1, 0) = 1.0f;
  h.at(2, 0) = 0.0f;
  h.at(3, 0) = -0.999999940395f;  // next float above -1
  h.at(4, 0) = 1e-30f;
  h.at(5, 0) = 0.1f;
  const heightfield before = h;
  apply_normalize(h, normalize_params{}, make_ctx(h));
  for (std::size_t k = 0; k < h.size(); ++k) {
    const double v = before.values()[k];
    const float expected = static_cast<float>((v - -1.0) / (1.0 - -1.0));
    INFO("input " << v);
    REQUIRE(h.values()[k] == expected);
  }
  CHECK(h.at(0, 0) == 0.0f);
  CHECK(h.at(1, 0) == 1.0f);
  CHECK(h.at(2, 0) == 0.5f);
}

TEST_CASE("normalize: range mode with a general input and output range", "[stages][normalize]") {
  heightfield h = make_field(5, 1);
  const float in[5] = {2.0f, 4.0f, 6.0f, 1.0f, 10.0f};
  for (int i = 0; i < 5; ++i) h.at(i, 0) = in[i];
  normalize_params p;
  p.input_min = 2.0;
  p.input_max = 6.0;
  p.output_min = -10.0;
  p.output_max = 10.0;
  apply_normalize(h, p, make_ctx(h));
  CHECK(h.at(0, 0) == -10.0f);
  CHECK(h.at(1, 0) == 0.0f);
  CHECK(h.at(2, 0) == 10.0f);
  CHECK(h.at(3, 0) == -15.0f);  // outside the input range, not clamped
  CHECK(h.at(4, 0) == 30.0f);
}

TEST_CASE("normalize: min_max maps the lowest cell to exactly 0 and the highest to exactly 1", "[stages][normalize]") {
  const double amplitude = GENERATE(1.0, 0.013, 250.0);
  const int nthreads = GENERATE(1, 2);
  heightfield h = noise_field(96, 80, 11, amplitude);
  const auto [mn, mx] = std::minmax_element(h.values().begin(), h.values().end());
  const auto imin = mn - h.values().begin(), imax = mx - h.values().begin();
  const float in_lo = *mn, in_hi = *mx;
  REQUIRE(in_lo < in_hi);
  const heightfield before = h;
  normalize_params p;
  p.mode = mode::min_max;
  apply_normalize(h, p, make_ctx(h, nthreads));
  const auto [omn, omx] = std::minmax_element(h.values().begin(), h.values().end());
  CHECK(*omn == 0.0f);
  CHECK(*omx == 1.0f);
  CHECK(h.values()[static_cast<std::size_t>(imin)] == 0.0f);
  CHECK(h.values()[static_cast<std::size_t>(imax)] == 1.0f);
  // A cell in between follows the linear formula.
  const double v = before.at(10, 10);
  CHECK(h.at(10, 10) == static_cast<float>((v - in_lo) / (static_cast<double>(in_hi) - in_lo)));
}

TEST_CASE("normalize: min_max into a custom output range", "[stages][normalize]") {
  heightfield h = noise_field(40, 40, 3);
  normalize_params p;
  p.mode = mode::min_max;
  p.output_min = -2.0;
  p.output_max = 6.0;
  apply_normalize(h, p, make_ctx(h));
  const auto [mn, mx] = std::minmax_element(h.values().begin(), h.values().end());
  CHECK(*mn == -2.0f);
  CHECK(*mx == 6.0f);
}

TEST_CASE("normalize: a flat map maps to the middle of the output range in min_max mode", "[stages][normalize]") {
  const float c = GENERATE(0.0f, 3.5f, -1e6f);
  const double out_lo = GENERATE(0.0, -4.0);
  const double out_hi = GENERATE(1.0, 10.0);
  heightfield h = make_field(13, 9, c);
  normalize_params p;
  p.mode = mode::min_max;
  p.output_min = out_lo;
  p.output_max = out_hi;
  apply_normalize(h, p, make_ctx(h));
  const float expected = static_cast<float>(0.5 * (out_lo + out_hi));
  for (float v : h.values()) {
    REQUIRE_FALSE(std::isnan(v));
    REQUIRE(v == expected);
  }
}

TEST_CASE("normalize: clamp limits results to the output range", "[stages][normalize]") {
  heightfield h = make_field(6, 1);
  const float in[6] = {-3.0f, -1.0f, 0.0f, 0.5f, 1.0f, 2.5f};
  for (int i = 0; i < 6; ++i) h.at(i, 0) = in[i];
  heightfield unclamped = h;
  normalize_params p;  // [-1, 1] -> [0, 1]
  p.clamp = true;
  apply_normalize(h, p, make_ctx(h));
  const float expected[6] = {0.0f, 0.0f, 0.5f, 0.75f, 1.0f, 1.0f};
  for (int i = 0; i < 6; ++i) CHECK(h.at(i, 0) == expected[i]);
  p.clamp = false;
  apply_normalize(unclamped, p, make_ctx(unclamped));
  CHECK(unclamped.at(0, 0) == -1.0f);
  CHECK(unclamped.at(5, 0) == 1.75f);
}

TEST_CASE("normalize: a reversed output range inverts the map", "[stages][normalize]") {
  SECTION("range mode") {
    heightfield h = make_field(5, 1);
    const float in[5] = {-1.0f, -0.5f, 0.0f, 1.0f, 3.0f};
    for (int i = 0; i < 5; ++i) h.at(i, 0) = in[i];
    normalize_params p;
    p.output_min = 1.0;
    p.output_max = 0.0;
    SECTION("unclamped") {
      apply_normalize(h, p, make_ctx(h));
      const float expected[5] = {1.0f, 0.75f, 0.5f, 0.0f, -1.0f};
      for (int i = 0; i < 5; ++i) CHECK(h.at(i, 0) == expected[i]);
    }
    SECTION("clamped to [0, 1] although output_min > output_max") {
      p.clamp = true;
      apply_normalize(h, p, make_ctx(h));
      const float expected[5] = {1.0f, 0.75f, 0.5f, 0.0f, 0.0f};
      for (int i = 0; i < 5; ++i) CHECK(h.at(i, 0) == expected[i]);
    }
  }
  SECTION("min_max mode") {
    heightfield h = noise_field(32, 32, 9);
    const heightfield before = h;
    normalize_params p;
    p.mode = mode::min_max;
    p.output_min = 1.0;
    p.output_max = 0.0;
    apply_normalize(h, p, make_ctx(h));
    const auto imin = std::min_element(before.values().begin(), before.values().end()) - before.values().begin();
    const auto imax = std::max_element(before.values().begin(), before.values().end()) - before.values().begin();
    CHECK(h.values()[static_cast<std::size_t>(imin)] == 1.0f);
    CHECK(h.values()[static_cast<std::size_t>(imax)] == 0.0f);
    // Order reversed everywhere.
    for (std::size_t k = 1; k < h.size(); ++k) {
      if (before.values()[k] < before.values()[k - 1]) REQUIRE(h.values()[k] >= h.values()[k - 1]);
    }
  }
}

TEST_CASE("normalize: results do not depend on the thread count", "[stages][normalize]") {
  const mode m = GENERATE(mode::range, mode::min_max);
  const heightfield input = noise_field(130, 101, 2);
  heightfield h1 = input, h8 = input;
  normalize_params p;
  p.mode = m;
  apply_normalize(h1, p, make_ctx(input, 1));
  apply_normalize(h8, p, make_ctx(input, 8));
  CHECK(bit_equal(h1.values(), h8.values()));
}

TEST_CASE("normalize: input_min == input_max is rejected by pipeline::build", "[stages][normalize]") {
  const json preset = json::parse(R"({
    "size": 16,
    "stages": [{"type": "normalize", "input_min": 1, "input_max": 1}]
  })");
  try {
    (void)pipeline::build(preset);
    FAIL("pipeline::build accepted input_min == input_max");
  } catch (const preset_error& e) {
    REQUIRE(e.issues().size() == 1);
    CHECK(e.issues()[0].path == "stages[0] (normalize).input_max");
    CHECK(e.issues()[0].message.find("must differ from input_min") != std::string::npos);
  }
  // The same values are fine in min_max mode, where the input range is unused.
  const json min_max = json::parse(R"({
    "size": 16,
    "stages": [{"type": "normalize", "mode": "min_max", "input_min": 1, "input_max": 1}]
  })");
  CHECK_NOTHROW(pipeline::build(min_max));
}

TEST_CASE("normalize: scope is pointwise in range mode and stats in min_max mode", "[stages][normalize]") {
  normalize_params p;
  CHECK(p.scope() == stage_scope::pointwise);
  p.mode = mode::min_max;
  CHECK(p.scope() == stage_scope::stats);
  p.world_range = std::array<double, 2>{-1.0, 2.0};
  CHECK(p.scope() == stage_scope::pointwise);
  const stage_info info = normalize_stage_info();
  CHECK(info.scope_of(json::parse(R"({"mode": "range"})")) == stage_scope::pointwise);
  CHECK(info.scope_of(json::parse(R"({"mode": "min_max"})")) == stage_scope::stats);
  CHECK(info.scope_of(json::parse(R"({"mode": "min_max", "world_range": [0, 1]})")) == stage_scope::pointwise);
  CHECK(info.halo_of(json::parse(R"({"mode": "min_max"})")) == 0);
}

TEST_CASE("normalize: world_range gives the same result as measuring the world", "[stages][normalize]") {
  heightfield h(region{5, 1, 0, 0, 1.0});
  const std::vector<float> v = {0.25f, -1.5f, 3.0f, 0.5f, 2.0f};
  std::copy(v.begin(), v.end(), h.values().begin());
  heightfield measured = h, given = h;
  normalize_params p;
  p.mode = mode::min_max;
  apply_normalize(measured, p, stage_context{});
  p.world_range = std::array<double, 2>{-1.5, 3.0};
  apply_normalize(given, p, stage_context{});
  CHECK(given.values() == measured.values());
  CHECK(measured.at(1, 0) == 0.0f);
  CHECK(measured.at(2, 0) == 1.0f);
  // A wider world range: this cell is not the world's lowest.
  heightfield wider = h;
  p.world_range = std::array<double, 2>{-3.0, 3.0};
  apply_normalize(wider, p, stage_context{});
  CHECK(wider.at(1, 0) == 0.25f);  // (-1.5 + 3) / 6, exact
}
