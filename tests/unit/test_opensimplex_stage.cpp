// Unit tests for the `opensimplex` generator stage: exact agreement with the
// legacy noise, region/world consistency, cell-size scaling, thread-count
// determinism, seed sensitivity and the fBm amplitude bound.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "landform/core/heightfield.hpp"
#include "landform/noise/open_simplex_legacy.hpp"
#include "landform/stages/opensimplex.hpp"

#include "bit_equal.hpp"

namespace {

using namespace landform;
using landform_test::bit_equal;
using landform_test::bit_equal_window;

heightfield make_field(int w, int h, std::int64_t ox = 0, std::int64_t oy = 0, double cell = 1.0) {
  region r;
  r.width = w;
  r.height = h;
  r.origin_x = ox;
  r.origin_y = oy;
  r.cell_size = cell;
  return heightfield(r);
}

stage_context make_ctx(std::uint64_t seed, int nthreads = 1, world_extent world = {0, 0, 256, 256}) {
  stage_context ctx;
  ctx.seed = seed;
  ctx.world = world;
  ctx.nthreads = nthreads;
  return ctx;
}

}  // namespace

TEST_CASE("opensimplex stage: one octave at z = 0 is eval(x / fs, y / fs, 0) as float", "[stages][opensimplex]") {
  const std::uint64_t seed = GENERATE(std::uint64_t{0}, std::uint64_t{1234}, std::uint64_t{987654321});
  const double fs = GENERATE(100.0, 37.5);
  const std::int64_t ox = GENERATE(std::int64_t{0}, std::int64_t{-50}, std::int64_t{1000});
  const std::int64_t oy = GENERATE(std::int64_t{0}, std::int64_t{-7}, std::int64_t{-300});
  opensimplex_params p;  // defaults: 1 octave, amplitude 1, z 0, 3d
  REQUIRE(p.octaves == 1);
  REQUIRE(p.amplitude == 1.0);
  REQUIRE(p.z == 0.0);
  REQUIRE(p.dimensions == opensimplex_params::dims::three);
  p.feature_size = fs;
  heightfield h = make_field(24, 20, ox, oy);
  apply_opensimplex(h, p, make_ctx(seed));
  const open_simplex_legacy noise(static_cast<std::int64_t>(seed));
  int nonzero = 0;
  for (int j = 0; j < h.height(); ++j)
    for (int i = 0; i < h.width(); ++i) {
      const double x = static_cast<double>(ox + i), y = static_cast<double>(oy + j);
      const float expected = static_cast<float>(noise.eval(x / fs, y / fs, 0.0));
      INFO("seed " << seed << " fs " << fs << " cell (" << ox + i << ", " << oy + j << ")");
      REQUIRE(h.at(i, j) == expected);
      if (expected != 0.0f) ++nonzero;
    }
  CHECK(nonzero > 400);  // the comparison is not trivially 0 == 0
}

TEST_CASE("opensimplex stage: dimensions 2d samples eval(x, y)", "[stages][opensimplex]") {
  const std::int64_t ox = GENERATE(std::int64_t{0}, std::int64_t{-129});
  opensimplex_params p;
  p.dimensions = opensimplex_params::dims::two;
  p.feature_size = 50.0;
  p.z = 3.25;  // ignored in 2D
  heightfield h = make_field(32, 16, ox, -5);
  apply_opensimplex(h, p, make_ctx(42));
  const open_simplex_legacy noise(42);
  bool differs_from_3d = false;
  for (int j = 0; j < h.height(); ++j)
    for (int i = 0; i < h.width(); ++i) {
      const double x = static_cast<double>(ox + i) / 50.0, y = static_cast<double>(-5 + j) / 50.0;
      REQUIRE(h.at(i, j) == static_cast<float>(noise.eval(x, y)));
      if (h.at(i, j) != static_cast<float>(noise.eval(x, y, 0.0))) differs_from_3d = true;
    }
  CHECK(differs_from_3d);
}

TEST_CASE("opensimplex stage: z and amplitude follow the documented formula", "[stages][opensimplex]") {
  opensimplex_params p;
  p.octaves = 2;
  p.lacunarity = 3.0;
  p.gain = 0.25;
  p.amplitude = 2.5;
  p.z = 0.75;
  p.feature_size = 40.0;
  heightfield h = make_field(16, 16, -8, 3);
  apply_opensimplex(h, p, make_ctx(77));
  const open_simplex_legacy n0(77), n1(78);  // octave k is seeded with seed + k
  for (int j = 0; j < 16; ++j)
    for (int i = 0; i < 16; ++i) {
      const double x = static_cast<double>(-8 + i), y = static_cast<double>(3 + j);
      const double expected = 2.5 * n0.eval(x / 40.0, y / 40.0, 0.75) +
                              2.5 * 0.25 * n1.eval((x * 3.0) / 40.0, (y * 3.0) / 40.0, 0.75 * 3.0);
      REQUIRE(h.at(i, j) == static_cast<float>(expected));
    }
}

TEST_CASE("opensimplex stage: a region equals the same window of the whole map bit for bit", "[stages][opensimplex]") {
  const int octaves = GENERATE(1, 6);
  opensimplex_params p;
  p.octaves = octaves;
  p.feature_size = 64.0;
  heightfield full = make_field(256, 256);
  apply_opensimplex(full, p, make_ctx(2024));
  heightfield part = make_field(64, 64, 100, 37);
  apply_opensimplex(part, p, make_ctx(2024));
  INFO("octaves " << octaves);
  CHECK(bit_equal_window(full, 100, 37, part));
  // And the window is not trivially equal to some other window.
  CHECK_FALSE(bit_equal_window(full, 101, 37, part));
}

TEST_CASE("opensimplex stage: cell size 2 with feature size 200 equals cell size 1 with 100", "[stages][opensimplex]") {
  const int octaves = GENERATE(1, 6);
  opensimplex_params a, b;
  a.octaves = b.octaves = octaves;
  a.feature_size = 100.0;
  b.feature_size = 200.0;
  heightfield h1 = make_field(48, 40, -20, 11, 1.0);
  heightfield h2 = make_field(48, 40, -20, 11, 2.0);
  apply_opensimplex(h1, a, make_ctx(5));
  apply_opensimplex(h2, b, make_ctx(5));
  INFO("octaves " << octaves);
  CHECK(bit_equal(h1.values(), h2.values()));
}

TEST_CASE("opensimplex stage: results are bit-identical for 1, 2 and 8 threads", "[stages][opensimplex]") {
  opensimplex_params p;
  p.octaves = 5;
  p.feature_size = 30.0;
  heightfield h1 = make_field(200, 123, -17, 9);
  heightfield h2 = h1, h8 = h1;
  apply_opensimplex(h1, p, make_ctx(9, 1));
  apply_opensimplex(h2, p, make_ctx(9, 2));
  apply_opensimplex(h8, p, make_ctx(9, 8));
  CHECK(bit_equal(h1.values(), h2.values()));
  CHECK(bit_equal(h1.values(), h8.values()));
}

TEST_CASE("opensimplex stage: previous contents are overwritten", "[stages][opensimplex]") {
  opensimplex_params p;
  heightfield a = make_field(32, 32);
  heightfield b(a.placement(), 123.0f);
  apply_opensimplex(a, p, make_ctx(3));
  apply_opensimplex(b, p, make_ctx(3));
  CHECK(bit_equal(a.values(), b.values()));
}

TEST_CASE("opensimplex stage: different seeds give different maps", "[stages][opensimplex]") {
  opensimplex_params p;
  p.octaves = 3;
  p.feature_size = 20.0;
  heightfield a = make_field(64, 64), b = make_field(64, 64);
  apply_opensimplex(a, p, make_ctx(1));
  apply_opensimplex(b, p, make_ctx(2));
  std::size_t differing = 0;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (a.values()[k] != b.values()[k]) ++differing;
  CHECK(differing > a.size() * 9 / 10);
}

TEST_CASE("opensimplex stage: 6 octaves stay within the fBm bound, finite, even near +-1e6", "[stages][opensimplex]") {
  opensimplex_params p;
  p.octaves = 6;
  p.gain = 0.5;
  p.amplitude = GENERATE(1.0, 3.0);
  p.feature_size = 100.0;
  const double bound = p.amplitude * (1.0 - std::pow(0.5, 6)) / (1.0 - 0.5);

  struct window {
    std::int64_t ox, oy;
    double cell;
  };
  // A coarse 256x256 grid spanning about +-1e6 world units, and dense windows at
  // the corners near +-1e6.
  const std::vector<window> windows = {
      {-128, -128, 1e6 / 128.0}, {-1000000, -1000000, 1.0}, {999872, -1000000, 1.0},
      {-1000000, 999872, 1.0},   {999872, 999872, 1.0},     {-64, -64, 1.0},
  };
  double lo = 0.0, hi = 0.0;
  for (const auto& win : windows) {
    heightfield h = make_field(win.cell == 1.0 ? 128 : 256, win.cell == 1.0 ? 128 : 256, win.ox, win.oy, win.cell);
    apply_opensimplex(h, p, make_ctx(31337, 2));
    for (float v : h.values()) {
      REQUIRE(std::isfinite(v));
      REQUIRE(std::abs(static_cast<double>(v)) <= bound);
      lo = std::min(lo, static_cast<double>(v));
      hi = std::max(hi, static_cast<double>(v));
    }
  }
  // The map actually uses a good part of its range (the bound is not vacuous).
  CHECK(lo < -0.4 * p.amplitude);
  CHECK(hi > 0.4 * p.amplitude);
}

TEST_CASE("opensimplex stage: coordinates beyond the legacy noise domain are refused", "[stages][opensimplex]") {
  // The legacy noise truncates lattice coordinates to 32-bit ints; the stage
  // refuses noise coordinates beyond 1e9 instead of evaluating garbage.
  opensimplex_params p;
  p.octaves = 3;  // top octave at 4x the base frequency
  heightfield far = make_field(8, 8, std::int64_t{1} << 40, 0);
  CHECK_THROWS(apply_opensimplex(far, p, make_ctx(1)));
  heightfield high_z = make_field(8, 8);
  p.z = 1e9;
  CHECK_THROWS(apply_opensimplex(high_z, p, make_ctx(1)));
  // 2e10 world units / 100 * 4 = 8e8 noise units: inside the domain.
  p.z = 0.0;
  heightfield near_limit = make_field(8, 8, 20000000000, -20000000000);
  CHECK_NOTHROW(apply_opensimplex(near_limit, p, make_ctx(1)));
  for (float v : near_limit.values()) CHECK(std::abs(v) <= 1.75f);
}

TEST_CASE("opensimplex stage: schema defaults and ranges", "[stages][opensimplex]") {
  const auto& specs = opensimplex_params::schema().specs();
  REQUIRE(specs.size() == 7);
  CHECK(specs[0].name == "feature_size");
  CHECK(specs[0].check(json(0)) == "0 must be greater than 0");
  CHECK(specs[1].name == "octaves");
  CHECK(specs[1].check(json(17)) == "17 is above the maximum 16");
  CHECK(specs[1].check(json(2.5)) == "2.5 must be an integer");
  CHECK(specs[6].name == "dimensions");
  CHECK(specs[6].default_value == "3d");
  const json canonical = opensimplex_params::schema().to_json(opensimplex_params{});
  CHECK(canonical == json::parse(R"({"feature_size":100.0,"octaves":1,"lacunarity":2.0,"gain":0.5,
                                     "amplitude":1.0,"z":0.0,"dimensions":"3d"})"));
}
