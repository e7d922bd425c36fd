// Unit tests for the `perturb` filter (domain warp): identities, the exact
// tutorial formula for nearest sampling, bilinear sampling on a ramp, thread
// determinism and seed sensitivity.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

#include "landform/core/heightfield.hpp"
#include "landform/noise/open_simplex_legacy.hpp"
#include "landform/stages/opensimplex.hpp"
#include "landform/stages/perturb.hpp"

#include "bit_equal.hpp"

namespace {

using namespace landform;
using landform_test::bit_equal;
using sampling = perturb_params::sampling_mode;

heightfield make_field(int w, int h, std::int64_t ox = 0, std::int64_t oy = 0) {
  region r;
  r.width = w;
  r.height = h;
  r.origin_x = ox;
  r.origin_y = oy;
  return heightfield(r);
}

stage_context make_ctx(std::uint64_t seed, world_extent world, int nthreads = 1) {
  stage_context ctx;
  ctx.seed = seed;
  ctx.world = world;
  ctx.nthreads = nthreads;
  return ctx;
}

world_extent world_of(const heightfield& h) {
  return {h.placement().origin_x, h.placement().origin_y, h.width(), h.height()};
}

heightfield noise_field(int w, int h, std::uint64_t seed) {
  heightfield f = make_field(w, h);
  opensimplex_params p;
  p.octaves = 4;
  p.feature_size = 16.0;
  apply_opensimplex(f, p, make_ctx(seed, world_of(f)));
  return f;
}

perturb_params params(double frequency, double magnitude, sampling s) {
  perturb_params p;
  p.frequency = frequency;
  p.magnitude = magnitude;
  p.sampling = s;
  return p;
}

}  // namespace

TEST_CASE("perturb: magnitude 0 is the identity", "[stages][perturb]") {
  const sampling s = GENERATE(sampling::nearest, sampling::bilinear);
  heightfield h = noise_field(64, 48, 11);
  const heightfield before = h;
  apply_perturb(h, params(16.0, 0.0, s), make_ctx(5, world_of(h)));
  // Value equality: bilinear may turn a -0.0 input into +0.0 (-0.0 + 0.0).
  CHECK(h.values() == before.values());
}

TEST_CASE("perturb: a constant map stays constant", "[stages][perturb]") {
  const sampling s = GENERATE(sampling::nearest, sampling::bilinear);
  const float c = GENERATE(0.0f, 0.3f, -7.125f);
  heightfield h(make_field(50, 40).placement(), c);
  apply_perturb(h, params(8.0, 20.0, s), make_ctx(99, world_of(h)));
  for (float v : h.values()) REQUIRE(v == c);
}

TEST_CASE("perturb: nearest only moves existing values", "[stages][perturb]") {
  heightfield h = noise_field(64, 64, 21);
  const std::set<float> input(h.values().begin(), h.values().end());
  const heightfield before = h;
  apply_perturb(h, params(16.0, 16.0, sampling::nearest), make_ctx(1234, world_of(h)));
  for (float v : h.values()) REQUIRE(input.count(v) == 1);
  CHECK_FALSE(bit_equal(h.values(), before.values()));  // it did move something
}

TEST_CASE("perturb: nearest is the tutorial's truncated offset, clamped", "[stages][perturb]") {
  // A map whose every value names its cell, so the source cell can be read back.
  const int w = 48, ht = 40;
  heightfield h = make_field(w, ht);
  for (int j = 0; j < ht; ++j)
    for (int i = 0; i < w; ++i) h.at(i, j) = static_cast<float>(i + 1000 * j);
  const double f = 16.0, d = 16.0;
  const std::uint64_t seed = 1234;
  apply_perturb(h, params(f, d, sampling::nearest), make_ctx(seed, world_of(h)));
  const open_simplex_legacy noise(static_cast<std::int64_t>(seed));
  int clamped = 0, moved = 0;
  for (int j = 0; j < ht; ++j)
    for (int i = 0; i < w; ++i) {
      // Exactly as in the Java tutorial: f * i / (double)Size.
      const double a = f * i / static_cast<double>(w), b = f * j / static_cast<double>(w);
      int u = i + static_cast<int>(noise.eval(a, b, 0) * d);
      int v = j + static_cast<int>(noise.eval(a, b, 1) * d);
      if (u < 0 || u >= w || v < 0 || v >= ht) ++clamped;
      u = std::clamp(u, 0, w - 1);
      v = std::clamp(v, 0, ht - 1);
      if (u != i || v != j) ++moved;
      INFO("cell (" << i << ", " << j << ")");
      REQUIRE(h.at(i, j) == static_cast<float>(u + 1000 * v));
    }
  CHECK(clamped > 0);  // the clamp branch was exercised
  CHECK(moved > w * ht / 2);
}

TEST_CASE("perturb: bilinear on a ramp h = x gives x + du, clamped", "[stages][perturb]") {
  // The world is 64x64 at the origin; the heightfield is either the whole world
  // or (as a region build would never do, but the formula allows) the world
  // shifted, to check that offsets are taken from the world's origin.
  const std::int64_t wox = GENERATE(std::int64_t{0}, std::int64_t{-30});
  const std::int64_t woy = GENERATE(std::int64_t{0}, std::int64_t{17});
  const int w = 64, ht = 64;
  heightfield h = make_field(w, ht, wox, woy);
  for (int j = 0; j < ht; ++j)
    for (int i = 0; i < w; ++i) h.at(i, j) = static_cast<float>(i);
  const double f = 4.0, d = 9.5;
  const std::uint64_t seed = 77;
  apply_perturb(h, params(f, d, sampling::bilinear), make_ctx(seed, world_of(h)));
  const open_simplex_legacy noise(static_cast<std::int64_t>(seed));
  double largest_shift = 0.0;
  for (int j = 0; j < ht; j += 3)
    for (int i = 0; i < w; i += 5) {
      const double a = f * i / static_cast<double>(w), b = f * j / static_cast<double>(w);
      const double du = noise.eval(a, b, 0.0) * d;
      const double expected = std::clamp(i + du, 0.0, static_cast<double>(w - 1));
      largest_shift = std::max(largest_shift, std::abs(expected - i));
      INFO("cell (" << i << ", " << j << ") du " << du);
      REQUIRE(h.at(i, j) == Approx(expected).margin(1e-4));
    }
  CHECK(largest_shift > 2.0);  // non-integer, sizeable displacements were tested
}

TEST_CASE("perturb: bilinear on a ramp h = y uses the z = 1 noise", "[stages][perturb]") {
  const int w = 40, ht = 56;
  heightfield h = make_field(w, ht);
  for (int j = 0; j < ht; ++j)
    for (int i = 0; i < w; ++i) h.at(i, j) = static_cast<float>(j);
  const double f = 3.0, d = 6.0;
  apply_perturb(h, params(f, d, sampling::bilinear), make_ctx(8, world_of(h)));
  const open_simplex_legacy noise(8);
  for (int j = 0; j < ht; j += 4)
    for (int i = 0; i < w; i += 3) {
      const double a = f * i / static_cast<double>(w), b = f * j / static_cast<double>(w);
      const double dv = noise.eval(a, b, 1.0) * d;
      REQUIRE(h.at(i, j) == Approx(std::clamp(j + dv, 0.0, static_cast<double>(ht - 1))).margin(1e-4));
    }
}

TEST_CASE("perturb: results are bit-identical for 1, 2 and 8 threads", "[stages][perturb]") {
  const sampling s = GENERATE(sampling::nearest, sampling::bilinear);
  const heightfield input = noise_field(160, 130, 4);
  heightfield h1 = input, h2 = input, h8 = input;
  const auto p = params(12.0, 10.0, s);
  apply_perturb(h1, p, make_ctx(3, world_of(input), 1));
  apply_perturb(h2, p, make_ctx(3, world_of(input), 2));
  apply_perturb(h8, p, make_ctx(3, world_of(input), 8));
  CHECK_FALSE(bit_equal(h1.values(), input.values()));
  CHECK(bit_equal(h1.values(), h2.values()));
  CHECK(bit_equal(h1.values(), h8.values()));
}

TEST_CASE("perturb: the seed changes the displacement field", "[stages][perturb]") {
  const sampling s = GENERATE(sampling::nearest, sampling::bilinear);
  const heightfield input = noise_field(64, 64, 4);
  heightfield a = input, b = input, a2 = input;
  const auto p = params(16.0, 16.0, s);
  apply_perturb(a, p, make_ctx(1, world_of(input)));
  apply_perturb(a2, p, make_ctx(1, world_of(input)));
  apply_perturb(b, p, make_ctx(2, world_of(input)));
  CHECK(bit_equal(a.values(), a2.values()));
  std::size_t differing = 0;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (a.values()[k] != b.values()[k]) ++differing;
  CHECK(differing > a.size() / 2);
}

TEST_CASE("perturb: schema ranges", "[stages][perturb]") {
  const auto& specs = perturb_params::schema().specs();
  REQUIRE(specs.size() == 3);
  CHECK(specs[0].name == "frequency");
  CHECK(specs[0].check(json(0)) == "0 must be greater than 0");
  CHECK(specs[1].name == "magnitude");
  CHECK(specs[1].check(json(-3)) == "-3 is below the minimum 0");
  CHECK(specs[1].check(json(0)).empty());
  CHECK(specs[2].name == "sampling");
  CHECK(specs[2].default_value == "bilinear");
  CHECK(specs[2].check(json("nearst")) == "\"nearst\" is not one of bilinear | nearest; did you mean \"nearest\"?");
}
