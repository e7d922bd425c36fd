// Unit tests for the `thermal_erosion` filter: schema, hand-computed passes,
// the talus threshold and its units, mass conservation, edges that do not
// drain, convergence to the talus angle on a cone and a step, and
// bit-identical results across thread counts.

#include <catch2/catch.hpp>

#include "bit_equal.hpp"
#include "stage_checks.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>
#include <vector>

#include "landform/core/heightfield.hpp"
#include "landform/stages/opensimplex.hpp"
#include "landform/stages/thermal_erosion.hpp"

namespace {

using namespace landform;
using landform_test::bit_equal;
using landform_test::make_field;

stage_context make_ctx(int w, int h, int threads = 1, double height_scale = 1.0) {
  stage_context ctx;
  ctx.seed = 1;
  ctx.world = {0, 0, w, h};
  ctx.nthreads = threads;
  ctx.height_scale = height_scale;
  return ctx;
}

thermal_erosion_params params(double angle, double strength, int iterations,
                              thermal_erosion_params::kind n = thermal_erosion_params::kind::moore) {
  thermal_erosion_params p;
  p.talus_angle = angle;
  p.strength = strength;
  p.iterations = iterations;
  p.neighbourhood = n;
  return p;
}

double sum_of(const heightfield& h) {
  double s = 0.0;
  for (float v : h.values()) s += v;
  return s;
}

heightfield fbm(int w, int h, std::uint64_t seed) {
  heightfield f = make_field(w, h);
  opensimplex_params np;
  np.octaves = 6;
  np.feature_size = 40.0;
  stage_context ctx = make_ctx(w, h);
  ctx.seed = seed;
  apply_opensimplex(f, np, ctx);
  return f;
}

// The largest amount by which any neighbour drop exceeds its threshold
// (t for axis neighbours, t * sqrt(2) for diagonals when `diagonals`).
double max_excess(const heightfield& h, double t, bool diagonals) {
  double worst = -1e30;
  for (int y = 0; y < h.height(); ++y) {
    for (int x = 0; x < h.width(); ++x) {
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          if ((dx == 0 && dy == 0) || (!diagonals && dx != 0 && dy != 0)) continue;
          const int nx = x + dx, ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= h.width() || ny >= h.height()) continue;
          const double limit = (dx != 0 && dy != 0) ? t * std::numbers::sqrt2 : t;
          worst = std::max(worst, static_cast<double>(h.at(x, y)) - h.at(nx, ny) - limit);
        }
      }
    }
  }
  return worst;
}

// A cone of slope `slope` height units per cell, peak `peak` at the centre.
heightfield cone(int n, double peak, double slope) {
  heightfield h = make_field(n, n);
  const double c = (n - 1) / 2.0;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) h.at(x, y) = static_cast<float>(std::max(0.0, peak - slope * std::hypot(x - c, y - c)));
  return h;
}

}  // namespace

TEST_CASE("thermal_erosion: schema defaults, units and ranges", "[stages][thermal_erosion]") {
  const auto& specs = thermal_erosion_params::schema().specs();
  REQUIRE(specs.size() == 4);
  CHECK(specs[0].name == "talus_angle");
  CHECK(specs[0].default_value == 35.0);
  CHECK(specs[0].unit == "degrees");
  CHECK(specs[0].check(json(-1)) == "-1 is below the minimum 0");
  CHECK(specs[0].check(json(90)) == "90 is above the maximum 89");
  CHECK(specs[1].name == "strength");
  CHECK(specs[1].default_value == 0.5);
  CHECK(specs[1].check(json(0)) == "0 must be greater than 0");
  CHECK(specs[1].check(json(1.5)) == "1.5 is above the maximum 1");
  CHECK(specs[2].name == "iterations");
  CHECK(specs[2].default_value == 50);
  CHECK(specs[2].check(json(0)) == "0 is below the minimum 1");
  CHECK(specs[3].name == "neighbourhood");
  CHECK(specs[3].default_value == "moore");
  CHECK(specs[3].choices == std::vector<std::string>{"moore", "von_neumann"});
  const thermal_erosion_params parsed = thermal_erosion_params::schema().parse(json{{"neighbourhood", "von_neumann"}});
  CHECK(parsed.neighbourhood == thermal_erosion_params::kind::von_neumann);
}

TEST_CASE("thermal_erosion: a flat map is unchanged", "[stages][thermal_erosion]") {
  const float c = GENERATE(0.0f, 0.37f, -2.0f);
  heightfield h = make_field(19, 13, c);
  apply_thermal_erosion(h, params(0.0, 1.0, 20), make_ctx(19, 13));
  for (float v : h.values()) REQUIRE(v == c);
}

TEST_CASE("thermal_erosion: one moore pass with talus 0 on a spike", "[stages][thermal_erosion]") {
  // Threshold 0, strength 1, k = 1/7; pair weights 1 (axis) and 1/2
  // (diagonal). The centre (7) sends 7/7 to each axis neighbour and 7/14 to
  // each diagonal one, keeping 7 - 4 - 2 = 1.
  heightfield h = make_field(3, 3);
  h.at(1, 1) = 7.0f;
  apply_thermal_erosion(h, params(0.0, 1.0, 1), make_ctx(3, 3));
  CHECK(h.at(1, 1) == Approx(1.0f).margin(1e-6));
  for (auto [x, y] : {std::pair{1, 0}, std::pair{0, 1}, std::pair{2, 1}, std::pair{1, 2}})
    CHECK(h.at(x, y) == Approx(1.0f).margin(1e-6));
  for (auto [x, y] : {std::pair{0, 0}, std::pair{2, 0}, std::pair{0, 2}, std::pair{2, 2}})
    CHECK(h.at(x, y) == Approx(0.5f).margin(1e-6));
}

TEST_CASE("thermal_erosion: von_neumann moves material only along the axes", "[stages][thermal_erosion]") {
  // k = 1/5: the centre keeps 5 - 4 * 5 / 5 = 1; each axis neighbour gets 1;
  // the corners, which are not neighbours, stay 0.
  heightfield h = make_field(3, 3);
  h.at(1, 1) = 5.0f;
  apply_thermal_erosion(h, params(0.0, 1.0, 1, thermal_erosion_params::kind::von_neumann), make_ctx(3, 3));
  CHECK(h.at(1, 1) == Approx(1.0f).margin(1e-6));
  for (auto [x, y] : {std::pair{1, 0}, std::pair{0, 1}, std::pair{2, 1}, std::pair{1, 2}})
    CHECK(h.at(x, y) == Approx(1.0f).margin(1e-6));
  for (auto [x, y] : {std::pair{0, 0}, std::pair{2, 0}, std::pair{0, 2}, std::pair{2, 2}}) CHECK(h.at(x, y) == 0.0f);
}

TEST_CASE("thermal_erosion: only the excess over the threshold moves", "[stages][thermal_erosion]") {
  // talus 45 degrees, cell 2 m, height scale 4 m: T = 0.5 height units.
  // Two cells 0.8 apart: excess 0.3, strength 1, von_neumann k = 1/5: the
  // high cell gives 0.06.
  heightfield h = make_field(2, 1, 0.0f, 2.0);
  h.at(0, 0) = 0.8f;
  apply_thermal_erosion(h, params(45.0, 1.0, 1, thermal_erosion_params::kind::von_neumann), make_ctx(2, 1, 1, 4.0));
  CHECK(h.at(0, 0) == Approx(0.74).margin(1e-6));
  CHECK(h.at(1, 0) == Approx(0.06).margin(1e-6));

  SECTION("a drop below the threshold stays") {
    heightfield g = make_field(2, 1, 0.0f, 2.0);
    g.at(0, 0) = 0.49f;
    const heightfield input = g;
    apply_thermal_erosion(g, params(45.0, 1.0, 10), make_ctx(2, 1, 1, 4.0));
    CHECK(bit_equal(g, input));
  }
}

TEST_CASE("thermal_erosion: the threshold follows cell_size / height_scale", "[stages][thermal_erosion]") {
  // Same ratio cell_size / height_scale, same threshold: identical bits.
  const heightfield input = fbm(48, 40, 3);
  heightfield a = input;
  apply_thermal_erosion(a, params(1.0, 0.5, 10), make_ctx(48, 40, 1, 1.0));
  heightfield b(region{48, 40, 0, 0, 4.0});
  b.values() = input.values();
  apply_thermal_erosion(b, params(1.0, 0.5, 10), make_ctx(48, 40, 1, 4.0));
  CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
  // Twice the height scale halves the threshold: more material moves.
  heightfield c(region{48, 40, 0, 0, 1.0});
  c.values() = input.values();
  apply_thermal_erosion(c, params(1.0, 0.5, 10), make_ctx(48, 40, 1, 2.0));
  double moved_a = 0.0, moved_c = 0.0;
  for (std::size_t k = 0; k < input.size(); ++k) {
    moved_a += std::abs(a.values()[k] - input.values()[k]);
    moved_c += std::abs(c.values()[k] - input.values()[k]);
  }
  CHECK(moved_a > 0.0);
  CHECK(moved_c > 1.1 * moved_a);
}

TEST_CASE("thermal_erosion: conserves the sum of heights", "[stages][thermal_erosion]") {
  const auto n = GENERATE(thermal_erosion_params::kind::moore, thermal_erosion_params::kind::von_neumann);
  heightfield h = fbm(97, 83, 5);
  for (float& v : h.values()) v += 1.5f;  // sum far from 0
  const heightfield before = h;
  const double s0 = sum_of(h);
  apply_thermal_erosion(h, params(0.5, 1.0, 200, n), make_ctx(97, 83));
  std::size_t changed = 0;
  for (std::size_t k = 0; k < h.size(); ++k) changed += h.values()[k] != before.values()[k];
  CHECK(changed > h.size() / 2);
  CHECK(std::abs(sum_of(h) - s0) <= 1e-6 * std::abs(s0));
}

TEST_CASE("thermal_erosion: map edges neither drain nor act as cliffs", "[stages][thermal_erosion]") {
  // A pile in a corner: material spreads inwards only, and none is lost.
  heightfield h = make_field(8, 8);
  h.at(0, 0) = 4.0f;
  apply_thermal_erosion(h, params(10.0, 1.0, 100), make_ctx(8, 8));
  CHECK(sum_of(h) == Approx(4.0).epsilon(1e-6));
  CHECK(h.at(0, 0) < 4.0f);
  CHECK(h.at(1, 1) > 0.0f);
  // Cells at the edge that start level with their in-map neighbours stay:
  // the edge itself is no drop.
  heightfield flat_edge = make_field(6, 6, 1.0f);
  apply_thermal_erosion(flat_edge, params(0.0, 1.0, 10), make_ctx(6, 6));
  for (float v : flat_edge.values()) CHECK(v == 1.0f);
}

TEST_CASE("thermal_erosion: a cone relaxes to the talus angle", "[stages][thermal_erosion]") {
  // A 49-cell cone with slopes of 2.5 x the threshold (30 degrees, cell 1,
  // height scale 1: T = 0.577). Stated tolerance: after convergence no drop
  // exceeds its threshold by more than 1 % of T.
  const auto n = GENERATE(thermal_erosion_params::kind::moore, thermal_erosion_params::kind::von_neumann);
  const double t = std::tan(30.0 * std::numbers::pi / 180.0);
  heightfield h = cone(49, 40.0, 2.5 * t);
  const double s0 = sum_of(h);
  const bool moore = n == thermal_erosion_params::kind::moore;
  REQUIRE(max_excess(h, t, moore) > 0.5 * t);
  apply_thermal_erosion(h, params(30.0, 1.0, 4000, n), make_ctx(49, 49, 2));
  INFO("neighbourhood " << (moore ? "moore" : "von_neumann"));
  CHECK(max_excess(h, t, moore) <= 0.01 * t);
  // float32 rounding of 4000 passes over heights up to 40 (see the 200-pass
  // test for the 1e-6 bound).
  CHECK(sum_of(h) == Approx(s0).epsilon(2e-5));
  // It is still a peak: the slopes end at the angle, not flat.
  CHECK(h.at(24, 24) > h.at(24, 10) + 10 * t);
}

TEST_CASE("thermal_erosion: a step relaxes to the talus angle", "[stages][thermal_erosion]") {
  // A cliff of 20 x T between two plateaus; both plateaus meet the slope.
  const double t = std::tan(40.0 * std::numbers::pi / 180.0) * 2.0 / 3.0;  // cell 2, height scale 3
  heightfield h = make_field(64, 8, 0.0f, 2.0);
  for (int y = 0; y < 8; ++y)
    for (int x = 32; x < 64; ++x) h.at(x, y) = static_cast<float>(20 * t);
  apply_thermal_erosion(h, params(40.0, 0.8, 3000), make_ctx(64, 8, 1, 3.0));
  CHECK(max_excess(h, t, true) <= 0.01 * t);
  CHECK(h.at(0, 4) == 0.0f);  // far plateau untouched
  CHECK(h.at(63, 4) == static_cast<float>(20 * t));
  CHECK(h.at(31, 4) > 0.0f);                        // the slope grew at the foot
  CHECK(h.at(32, 4) < static_cast<float>(20 * t));  // and ate into the top
}

TEST_CASE("thermal_erosion: identical bits for 1, 2 and 8 threads and repeated runs",
          "[stages][thermal_erosion][determinism]") {
  const auto n = GENERATE(thermal_erosion_params::kind::moore, thermal_erosion_params::kind::von_neumann);
  const heightfield input = fbm(203, 301, 9);  // several row chunks, odd sizes
  heightfield ref = input;
  apply_thermal_erosion(ref, params(0.5, 0.7, 13, n), make_ctx(203, 301, 1));
  REQUIRE(!bit_equal(ref, input));
  for (int threads : {1, 2, 8}) {
    heightfield h = input;
    apply_thermal_erosion(h, params(0.5, 0.7, 13, n), make_ctx(203, 301, threads));
    INFO(threads << " threads");
    CHECK(bit_equal(h, ref));
  }
}

TEST_CASE("thermal_erosion: fused iterations equal single ones", "[stages][thermal_erosion]") {
  // 7 iterations at once (fused internally) equal 7 runs of one iteration.
  const heightfield input = fbm(70, 150, 4);
  heightfield a = input;
  apply_thermal_erosion(a, params(0.5, 1.0, 7), make_ctx(70, 150, 2));
  heightfield b = input;
  for (int k = 0; k < 7; ++k) apply_thermal_erosion(b, params(0.5, 1.0, 1), make_ctx(70, 150, 1));
  CHECK(bit_equal(a, b));
}

TEST_CASE("thermal_erosion: tiny maps do not crash", "[stages][thermal_erosion]") {
  const auto size = GENERATE(std::pair{1, 1}, std::pair{2, 1}, std::pair{1, 5}, std::pair{2, 2}, std::pair{3, 2});
  heightfield h = make_field(size.first, size.second);
  for (std::size_t k = 0; k < h.size(); ++k) h.values()[k] = static_cast<float>(k);
  const double s0 = sum_of(h);
  apply_thermal_erosion(h, params(10.0, 1.0, 5), make_ctx(size.first, size.second));
  for (float v : h.values()) CHECK(std::isfinite(v));
  CHECK(sum_of(h) == Approx(s0).margin(1e-5));
}

TEST_CASE("thermal_erosion: progress reaches 1 and is monotonic", "[stages][thermal_erosion]") {
  heightfield h = fbm(32, 32, 2);
  stage_context ctx = make_ctx(32, 32);
  std::vector<double> seen;
  ctx.progress = [&](double f) { seen.push_back(f); };
  apply_thermal_erosion(h, params(1.0, 0.5, 10), ctx);
  REQUIRE(!seen.empty());
  CHECK(seen.back() == 1.0);
  CHECK(std::is_sorted(seen.begin(), seen.end()));
}
