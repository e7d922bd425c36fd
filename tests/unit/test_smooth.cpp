// Unit tests for the `smooth` filter: the Gaussian kernel, constant and linear
// maps, a box-filtered impulse, the tutorial's in-place Smoothen(), thread
// determinism and variance reduction.

#include <catch2/catch.hpp>

#include "bit_equal.hpp"
#include "stage_checks.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <vector>

#include "landform/core/heightfield.hpp"
#include "landform/stages/opensimplex.hpp"
#include "landform/stages/smooth.hpp"

namespace {

using namespace landform;
using landform_test::bit_equal;
using landform_test::make_ctx;
using landform_test::make_field;
using method = smooth_params::kind;

smooth_params params(method m, double sigma = 1.0, int radius = 1, int iterations = 1) {
  smooth_params p;
  p.method = m;
  p.sigma = sigma;
  p.radius = radius;
  p.iterations = iterations;
  return p;
}

heightfield noise_field(int w, int h, std::uint64_t seed) {
  heightfield f = make_field(w, h);
  opensimplex_params p;
  p.octaves = 6;
  p.feature_size = 12.0;
  stage_context ctx = make_ctx(f);
  ctx.seed = seed;
  apply_opensimplex(f, p, ctx);
  return f;
}

double variance(const heightfield& h) {
  double s = 0.0, s2 = 0.0;
  for (float v : h.values()) {
    s += v;
    s2 += static_cast<double>(v) * v;
  }
  const double n = static_cast<double>(h.size());
  return s2 / n - (s / n) * (s / n);
}

}  // namespace

TEST_CASE("smooth: a constant map is unchanged", "[stages][smooth]") {
  const float c = GENERATE(0.0f, 1.0f, 0.3f, -12.75f, 0.123456f);
  SECTION("gaussian") {
    const double sigma = GENERATE(0.5, 0.8, 1.0, 2.3);
    heightfield h = make_field(23, 19, c);
    apply_smooth(h, params(method::gaussian, sigma, 1, 2), make_ctx(h));
    INFO("c " << std::setprecision(9) << c << " sigma " << sigma << " got " << h.at(5, 5));
    for (float v : h.values()) REQUIRE(v == c);
  }
  SECTION("box") {
    const int radius = GENERATE(1, 2, 3, 5);
    heightfield h = make_field(23, 19, c);
    apply_smooth(h, params(method::box, 1.0, radius, 2), make_ctx(h));
    INFO("c " << std::setprecision(9) << c << " radius " << radius << " got " << h.at(5, 5));
    for (float v : h.values()) REQUIRE(v == c);
  }
  SECTION("tutorial") {
    heightfield h = make_field(23, 19, c);
    apply_smooth(h, params(method::tutorial, 1.0, 1, 3), make_ctx(h));
    for (float v : h.values()) REQUIRE(v == c);
  }
}

TEST_CASE("smooth: gaussian_kernel is normalised, symmetric, Gaussian and 3 sigma wide", "[stages][smooth]") {
  struct sample {
    double sigma;
    int radius;  // ceil(3 sigma), at least 1
  };
  const sample s = GENERATE(sample{0.1, 1}, sample{0.5, 2}, sample{0.8, 3}, sample{1.0, 3}, sample{1.5, 5},
                            sample{2.5, 8}, sample{4.0, 12}, sample{10.0, 30});
  INFO("sigma " << s.sigma);
  const std::vector<double> k = gaussian_kernel(s.sigma);
  REQUIRE(k.size() == static_cast<std::size_t>(2 * s.radius + 1));
  double total = 0.0;
  for (double w : k) total += w;
  CHECK(std::abs(total - 1.0) <= 1e-12);
  for (int d = 1; d <= s.radius; ++d) {
    CHECK(k[static_cast<std::size_t>(s.radius - d)] == k[static_cast<std::size_t>(s.radius + d)]);
    // Strictly decreasing away from the centre, with the Gaussian ratio.
    CHECK(k[static_cast<std::size_t>(s.radius + d)] < k[static_cast<std::size_t>(s.radius + d - 1)]);
    const double ratio = static_cast<double>(k[static_cast<std::size_t>(s.radius + d)]) /
                         static_cast<double>(k[static_cast<std::size_t>(s.radius)]);
    CHECK(ratio == Approx(std::exp(-0.5 * d * d / (s.sigma * s.sigma))).epsilon(1e-5).margin(1e-30));
  }
}

TEST_CASE("smooth: box radius 1 spreads an interior impulse of 9 into a 3x3 block of 1", "[stages][smooth]") {
  heightfield h = make_field(9, 8);
  h.at(4, 3) = 9.0f;
  apply_smooth(h, params(method::box, 1.0, 1, 1), make_ctx(h));
  double total = 0.0;
  for (int j = 0; j < h.height(); ++j)
    for (int i = 0; i < h.width(); ++i) {
      const bool in_block = std::abs(i - 4) <= 1 && std::abs(j - 3) <= 1;
      INFO("cell (" << i << ", " << j << ")");
      REQUIRE(h.at(i, j) == (in_block ? 1.0f : 0.0f));
      total += h.at(i, j);
    }
  CHECK(total == 9.0);
}

TEST_CASE("smooth: box radius 2 averages a 5x5 window, edges clamped", "[stages][smooth]") {
  // Impulse in the corner: with clamped edges the corner cell is repeated, so the
  // corner's 5x5 window sees it 3 x 3 = 9 times.
  heightfield h = make_field(8, 8);
  h.at(0, 0) = 25.0f;
  apply_smooth(h, params(method::box, 1.0, 2, 1), make_ctx(h));
  CHECK(h.at(0, 0) == Approx(9.0).epsilon(1e-6));
  CHECK(h.at(2, 2) == Approx(1.0).epsilon(1e-6));
  CHECK(h.at(3, 0) == 0.0f);
  CHECK(h.at(2, 0) == Approx(3.0).epsilon(1e-6));
}

TEST_CASE("smooth: gaussian preserves a linear ramp away from the edges", "[stages][smooth]") {
  const double sigma = GENERATE(0.7, 1.0, 2.0);
  const int r = static_cast<int>(std::ceil(3.0 * sigma));
  const int w = 48, ht = 40;
  heightfield h = make_field(w, ht);
  auto ramp = [](int i, int j) { return 0.01 * i - 0.02 * j + 0.5; };
  for (int j = 0; j < ht; ++j)
    for (int i = 0; i < w; ++i) h.at(i, j) = static_cast<float>(ramp(i, j));
  apply_smooth(h, params(method::gaussian, sigma, 1, 1), make_ctx(h));
  INFO("sigma " << sigma);
  for (int j = r; j < ht - r; ++j)
    for (int i = r; i < w - r; ++i) REQUIRE(h.at(i, j) == Approx(ramp(i, j)).margin(1e-5));
  // At the edge the clamp bends the ramp: the corner moves toward the interior.
  CHECK(std::abs(h.at(0, 0) - ramp(0, 0)) > 1e-3);
}

TEST_CASE("smooth: tutorial leaves the border unchanged and smooths the interior", "[stages][smooth]") {
  heightfield h = noise_field(20, 15, 3);
  const heightfield before = h;
  apply_smooth(h, params(method::tutorial, 1.0, 1, 2), make_ctx(h));
  for (int i = 0; i < 20; ++i) {
    REQUIRE(h.at(i, 0) == before.at(i, 0));
    REQUIRE(h.at(i, 14) == before.at(i, 14));
  }
  for (int j = 0; j < 15; ++j) {
    REQUIRE(h.at(0, j) == before.at(0, j));
    REQUIRE(h.at(19, j) == before.at(19, j));
  }
  int changed = 0;
  for (int j = 1; j < 14; ++j)
    for (int i = 1; i < 19; ++i)
      if (h.at(i, j) != before.at(i, j)) ++changed;
  CHECK(changed > 13 * 18 * 9 / 10);
}

TEST_CASE("smooth: tutorial works in place, x outer and y inner (hand-checked 4x4)", "[stages][smooth]") {
  // All 0 except (1, 1) = 81 and a border value that enters the sums.
  // Visiting order: (1, 1), (1, 2), (2, 1), (2, 2).
  //  (1, 1) = (81 + 0) / 9                      = 9
  //  (1, 2) sees the new (1, 1) = 9: 9 / 9      = 1      (81 / 9 = 9 if not in place)
  //  (2, 1) sees (1, 1) = 9, (1, 2) = 1, (3, 0) = 18: 28 / 9
  //  (2, 2) sees (1, 1) = 9, (1, 2) = 1, (2, 1) = float(28 / 9): (10 + that) / 9
  heightfield h = make_field(4, 4);
  h.at(1, 1) = 81.0f;
  h.at(3, 0) = 18.0f;
  apply_smooth(h, params(method::tutorial, 1.0, 1, 1), make_ctx(h));
  const float c21 = static_cast<float>(28.0 / 9.0);
  const float c22 = static_cast<float>((10.0 + static_cast<double>(c21)) / 9.0);
  CHECK(h.at(1, 1) == 9.0f);
  CHECK(h.at(1, 2) == 1.0f);
  CHECK(h.at(2, 1) == c21);
  CHECK(h.at(2, 2) == c22);
  CHECK(h.at(3, 0) == 18.0f);  // border untouched
  for (int i = 0; i < 4; ++i) {
    if (i != 3) CHECK(h.at(i, 0) == 0.0f);
    CHECK(h.at(i, 3) == 0.0f);
    CHECK(h.at(0, i) == 0.0f);
  }
  CHECK(h.at(3, 1) == 0.0f);
  CHECK(h.at(3, 2) == 0.0f);
}

TEST_CASE("smooth: tutorial on maps without interior cells is the identity", "[stages][smooth]") {
  heightfield h = make_field(2, 6);
  for (std::size_t k = 0; k < h.size(); ++k) h.values()[k] = static_cast<float>(k);
  const heightfield before = h;
  apply_smooth(h, params(method::tutorial), make_ctx(h));
  CHECK(h.values() == before.values());
}

TEST_CASE("smooth: gaussian and box are bit-identical for 1, 2 and 8 threads", "[stages][smooth]") {
  const method m = GENERATE(method::gaussian, method::box);
  const heightfield input = noise_field(150, 117, 8);
  heightfield h1 = input, h2 = input, h8 = input;
  const auto p = params(m, 1.7, 3, 2);
  apply_smooth(h1, p, make_ctx(input, 1));
  apply_smooth(h2, p, make_ctx(input, 2));
  apply_smooth(h8, p, make_ctx(input, 8));
  CHECK_FALSE(bit_equal(h1.values(), input.values()));
  CHECK(bit_equal(h1.values(), h2.values()));
  CHECK(bit_equal(h1.values(), h8.values()));
}

TEST_CASE("smooth: every method reduces the variance of a noise map", "[stages][smooth]") {
  const method m = GENERATE(method::gaussian, method::box, method::tutorial);
  heightfield h = noise_field(96, 96, 5);
  const double v0 = variance(h);
  REQUIRE(v0 > 1e-3);
  apply_smooth(h, params(m, 1.5, 2, 1), make_ctx(h));
  const double v1 = variance(h);
  CHECK(v1 < 0.9 * v0);
  // More iterations smooth more.
  apply_smooth(h, params(m, 1.5, 2, 3), make_ctx(h));
  CHECK(variance(h) < v1);
}

TEST_CASE("smooth: schema defaults and ranges", "[stages][smooth]") {
  const auto& specs = smooth_params::schema().specs();
  REQUIRE(specs.size() == 4);
  CHECK(specs[0].name == "method");
  CHECK(specs[0].default_value == "gaussian");
  CHECK(specs[0].range_text() == "gaussian | box | tutorial");
  CHECK(specs[1].name == "sigma");
  CHECK(specs[1].check(json(0.05)) == "0.05 is below the minimum 0.1");
  CHECK(specs[2].name == "radius");
  CHECK(specs[2].check(json(257)) == "257 is above the maximum 256");
}
