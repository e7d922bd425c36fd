// Unit tests for Priority-Flood+epsilon, D8 and D-infinity flow routing, flow
// accumulation, the topographic wetness index and the "flow" / "wetness"
// outputs: exact accumulations on tilted planes, conservation (the outlets
// carry every cell), a closed basin drained through its one notch, Tarboton's
// split on a plane between two neighbours, D8 accumulation (flow_routing, border
// cells outlets) against a brute-force walk on random grids, thread
// independence, tiles equal to the world's window, and png16 files decoded by
// stb_image.

#include <stb_image.h>
#include <catch2/catch.hpp>

#include "stage_checks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numbers>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "landform/core/error.hpp"
#include "landform/core/heightfield.hpp"
#include "landform/derive/flow.hpp"
#include "landform/derive/flow_routing.hpp"
#include "landform/pipeline/manifest.hpp"
#include "landform/pipeline/pipeline.hpp"
#include "landform/stages/opensimplex.hpp"

namespace {

using namespace landform;

heightfield noise_field(int w, int h, double feature_size = 16.0) {
  heightfield f(region{w, h, 0, 0, 1.0});
  stage_context ctx;
  ctx.world = {0, 0, w, h};
  ctx.seed = 5;
  opensimplex_params p;
  p.octaves = 4;
  p.feature_size = feature_size;
  apply_opensimplex(f, p, ctx);
  return f;
}

// z = f(x, y) on a w x h grid.
template <class F>
heightfield surface(int w, int h, F f, double cell_size = 1.0) {
  heightfield out(region{w, h, 0, 0, cell_size});
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) out.at(x, y) = static_cast<float>(f(x, y));
  return out;
}

std::size_t index(int w, int x, int y) {
  return static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x);
}

bool on_border(int w, int h, std::size_t c) {
  const auto x = static_cast<int>(c % static_cast<std::size_t>(w)),
             y = static_cast<int>(c / static_cast<std::size_t>(w));
  return x == 0 || y == 0 || x == w - 1 || y == h - 1;
}

// Sum of the accumulation over the outlets (cells whose water leaves the map).
double outflow(const std::vector<flow_receivers>& r, const std::vector<float>& a) {
  double sum = 0.0;
  for (std::size_t c = 0; c < r.size(); ++c)
    if (r[c].is_outlet()) sum += a[c];
  return sum;
}

std::vector<float> r32_values(const std::vector<std::uint8_t>& bytes) {
  std::vector<float> out(bytes.size() / 4);
  std::memcpy(out.data(), bytes.data(), out.size() * 4);  // little-endian host, as the tests of io assume
  return out;
}

std::vector<encoded_output> build_outputs(const json& preset, int nthreads = 1) {
  const pipeline p = pipeline::build(preset);
  run_options options;
  options.nthreads = nthreads;
  return encode_outputs(p, p.run_full(options), nthreads);
}

}  // namespace

TEST_CASE("flow: on a plane tilted south, D8 accumulation is the cells above in the column plus one",
          "[derive][flow]") {
  // Row 0 (north) highest, falling 1/64 per row: every cell drains straight
  // south (drop 1/64 against 1/64 / sqrt 2 diagonally), so the accumulation
  // of (x, y) is y + 1: the y cells above it in its column and itself.
  const int w = 23, h = 31;
  const heightfield plane = surface(w, h, [&](int, int y) { return (h - 1 - y) / 64.0; });
  const std::vector<double> filled = priority_flood_epsilon(plane);
  for (std::size_t c = 0; c < filled.size(); ++c) REQUIRE(filled[c] == static_cast<double>(plane.data()[c]));
  for (const auto method : {flow_method::d8, flow_method::dinf}) {
    const auto receivers = flow_directions(filled, w, h, method);
    const auto acc = accumulate_flow(receivers, w, h);
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        INFO("cell (" << x << ", " << y << ")");
        REQUIRE(acc[index(w, x, y)] == static_cast<float>(y + 1));
        REQUIRE(receivers[index(w, x, y)].is_outlet() == (y == h - 1));
      }
    }
    CHECK(outflow(receivers, acc) == w * h);
  }
  // flow_accumulation's D8 makes every border cell an outlet: the top row and
  // the side columns keep their own water, and an interior column gathers
  // rows 1..y.
  const auto d8 = flow_accumulation(plane, flow_method::d8);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      INFO("cell (" << x << ", " << y << ")");
      REQUIRE(d8[index(w, x, y)] == static_cast<float>(x == 0 || x == w - 1 || y == 0 ? 1 : y));
    }
  }
}

TEST_CASE("flow: the outlets carry every cell, and only border cells are outlets", "[derive][flow]") {
  const heightfield h = noise_field(120, 90);
  const auto filled = priority_flood_epsilon(h);
  for (const auto method : {flow_method::d8, flow_method::dinf}) {
    const auto receivers = flow_directions(filled, 120, 90, method);
    const auto acc = accumulate_flow(receivers, 120, 90);
    CHECK(outflow(receivers, acc) == Approx(120.0 * 90.0).epsilon(1e-6));  // float32 outputs
    for (std::size_t c = 0; c < receivers.size(); ++c) {
      if (receivers[c].is_outlet() && !on_border(120, 90, c)) FAIL("interior outlet at cell " << c);
      if (!(acc[c] >= 1.0f)) FAIL("accumulation " << acc[c] << " at cell " << c);
    }
  }
}

TEST_CASE("flow: Priority-Flood+epsilon drains a closed basin through its one notch", "[derive][flow]") {
  // A bowl (0 at the centre, up to 2) ringed by a wall of 10 on the border,
  // with one notch at 3 in the north edge: the bowl fills to the notch and
  // everything, the wall included, leaves the map there.
  const int w = 33, h = 29, notch_x = 16;
  heightfield basin = surface(w, h, [&](int x, int y) {
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) return (y == 0 && x == notch_x) ? 3.0 : 10.0;
    return 2.0 * (std::pow(x - 16.0, 2) + std::pow(y - 14.0, 2)) / (16.0 * 16.0 + 14.0 * 14.0);
  });
  const auto filled = priority_flood_epsilon(basin);
  for (std::size_t c = 0; c < filled.size(); ++c) {
    REQUIRE(filled[c] >= static_cast<double>(basin.data()[c]));
    if (on_border(w, h, c)) {
      REQUIRE(filled[c] == static_cast<double>(basin.data()[c]));
    } else {
      REQUIRE(filled[c] > 3.0);          // raised above the spill level
      REQUIRE(filled[c] < 3.0 + 1e-12);  // by epsilons only
    }
  }
  for (const auto method : {flow_method::d8, flow_method::dinf}) {
    const auto receivers = flow_directions(filled, w, h, method);
    const auto acc = accumulate_flow(receivers, w, h);
    std::vector<std::size_t> outlets;
    for (std::size_t c = 0; c < receivers.size(); ++c)
      if (receivers[c].is_outlet()) outlets.push_back(c);
    REQUIRE(outlets == std::vector<std::size_t>{index(w, notch_x, 0)});
    CHECK(acc[index(w, notch_x, 0)] == Approx(static_cast<double>(w * h)).epsilon(1e-9));
  }
  // flow_accumulation's D8 (lakes only, border cells outlets): the whole
  // bowl leaves through the notch; each wall cell keeps its own water.
  const auto d8 = flow_accumulation(basin, flow_method::d8);
  for (std::size_t c = 0; c < d8.size(); ++c) {
    if (on_border(w, h, c))
      REQUIRE(d8[c] == (c == index(w, notch_x, 0) ? static_cast<float>((w - 2) * (h - 2) + 1) : 1.0f));
  }
  // Without filling, the bowl's bottom has nowhere to go.
  const auto unfilled =
      flow_directions(std::vector<double>(basin.values().begin(), basin.values().end()), w, h, flow_method::d8);
  CHECK(unfilled[index(w, 16, 14)].is_outlet());
}

namespace {

// The exact depression fill by its definition, independently of any queue:
// the level of a cell is the lowest, over paths to the border, of the highest
// height on the path. Relaxed to a fixed point (slow; small maps only).
std::vector<double> exact_fill(const std::vector<double>& z, int w, int h) {
  std::vector<double> level(z.size(), std::numeric_limits<double>::infinity());
  for (std::size_t c = 0; c < z.size(); ++c)
    if (on_border(w, h, c)) level[c] = z[c];
  for (bool changed = true; changed;) {
    changed = false;
    for (int y = 1; y < h - 1; ++y) {
      for (int x = 1; x < w - 1; ++x) {
        double lowest = std::numeric_limits<double>::infinity();
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) lowest = std::min(lowest, level[index(w, x + dx, y + dy)]);
        const double v = std::max(z[index(w, x, y)], lowest);
        if (v < level[index(w, x, y)]) {
          level[index(w, x, y)] = v;
          changed = true;
        }
      }
    }
  }
  return level;
}

// `filled` is a Priority-Flood+epsilon of `z`: the exact fill plus epsilons
// (never below it, at most 1e-9 above), border cells unchanged, and every
// interior cell with a strictly lower neighbour (so D8 drains everything).
void check_epsilon_fill(const std::vector<double>& z, const std::vector<double>& filled, int w, int h) {
  const auto exact = exact_fill(z, w, h);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const std::size_t c = index(w, x, y);
      INFO("cell (" << x << ", " << y << ")");
      REQUIRE(filled[c] >= exact[c]);
      REQUIRE(filled[c] <= exact[c] + 1e-9);
      if (on_border(w, h, c)) {
        REQUIRE(filled[c] == z[c]);
        continue;
      }
      bool lower = false;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) lower = lower || filled[index(w, x + dx, y + dy)] < filled[c];
      REQUIRE(lower);
    }
  }
}

}  // namespace

TEST_CASE("flow: both Priority-Floods equal the exact fill, on slopes, pits and exact ties", "[derive][flow]") {
  // Noise has slopes traced without the queue and pits; terracing it to 12
  // levels makes wide flats of exactly equal heights, whose order in the
  // queue decides the epsilons.
  const int w = 70, h = 54;
  const heightfield noise = noise_field(w, h, 9.0);
  for (const bool terraced : {false, true}) {
    INFO((terraced ? "terraced" : "noise"));
    std::vector<double> z(noise.values().begin(), noise.values().end());
    if (terraced)
      for (double& v : z) v = static_cast<float>(std::floor(v * 12.0) / 12.0);  // float heights, as maps hold
    heightfield field(region{w, h, 0, 0, 1.0});
    for (std::size_t c = 0; c < z.size(); ++c) field.data()[c] = static_cast<float>(z[c]);
    check_epsilon_fill(z, priority_flood_epsilon(field), w, h);  // ties by cell index
    std::vector<double> fill = z;
    CHECK(priority_flood_fill(fill, w, h) > 0);  // ties last-in first-out
    check_epsilon_fill(z, fill, w, h);
  }
}

TEST_CASE("flow: a flat map drains to its border", "[derive][flow]") {
  const heightfield flat(region{17, 12, 0, 0, 1.0}, 0.5f);
  for (const auto method : {flow_method::d8, flow_method::dinf}) {
    const auto receivers = flow_directions(priority_flood_epsilon(flat), 17, 12, method);
    const auto acc = accumulate_flow(receivers, 17, 12);
    CHECK(outflow(receivers, acc) == Approx(17.0 * 12.0).epsilon(1e-9));
    for (std::size_t c = 0; c < receivers.size(); ++c) {
      if (!on_border(17, 12, c)) REQUIRE_FALSE(receivers[c].is_outlet());
    }
  }
}

namespace {

// Small grids of random heights (std::mt19937's raw output is the same on
// every platform): `levels` > 0 rounds them to that many values, for wide
// flats of exactly equal heights and many pits; 0 keeps 24-bit values.
heightfield random_field(int w, int h, std::uint32_t seed, int levels) {
  std::mt19937 rng(seed);
  heightfield f(region{w, h, 0, 0, 1.0});
  for (float& v : f.values()) {
    const auto r = static_cast<double>(rng() >> 8) / 16777216.0;  // [0, 1), 24 bits
    v = static_cast<float>(levels > 0 ? std::floor(r * levels) / levels : r);
  }
  return f;
}

}  // namespace

TEST_CASE("flow: D8 accumulation equals a brute-force walk down the steepest descent of a valid fill",
          "[derive][flow]") {
  // The reference: fill by route_depression_free_d8 (flow_routing's public
  // API, which flow_accumulation uses), checked against the exact fill by its
  // definition (check_epsilon_fill: within 1e-9 above it, border unchanged,
  // every interior cell with a strictly lower neighbour); receivers by brute
  // force on that fill (steepest drop per distance, first in neighbour order
  // on a tie, border cells outlets); each cell's area by walking every cell's
  // path to the border. Then: every path ends on the border, the outlets'
  // areas sum to the cell count, areas grow strictly along receivers, and
  // flow_accumulation gives the same floats on 1, 2 and 8 threads.
  struct grid_case {
    int w, h, levels;
    std::uint32_t seed;
  };
  const std::vector<grid_case> cases = {{1, 1, 0, 1}, {4, 1, 0, 2},   {2, 5, 3, 3},   {3, 3, 0, 4},   {9, 7, 4, 5},
                                        {9, 7, 0, 6}, {23, 17, 6, 7}, {23, 17, 0, 8}, {40, 31, 3, 9}, {40, 31, 0, 10}};
  for (const auto& gc : cases) {
    const int w = gc.w, h = gc.h;
    INFO(w << " x " << h << ", levels " << gc.levels << ", seed " << gc.seed);
    const heightfield field = random_field(w, h, gc.seed, gc.levels);
    const std::vector<double> z(field.values().begin(), field.values().end());
    std::vector<double> filled = z;
    flow_graph graph;
    route_depression_free_d8(filled, w, h, 1.0, graph);
    check_epsilon_fill(z, filled, w, h);

    const std::size_t n = z.size();
    std::vector<std::size_t> receiver(n);
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        const std::size_t c = index(w, x, y);
        receiver[c] = c;
        if (on_border(w, h, c)) continue;
        double best = 0.0;
        for (std::size_t k = 0; k < 8; ++k) {
          const std::size_t m = index(w, x + k_flow_dx[k], y + k_flow_dy[k]);
          const double drop = filled[c] - filled[m];
          const double s = k % 2 == 0 ? drop : drop * (1.0 / std::numbers::sqrt2);  // as the kernel computes it
          if (s > best) {
            best = s;
            receiver[c] = m;
          }
        }
        REQUIRE(receiver[c] != c);  // a valid fill leaves no interior pit
      }
    }
    std::vector<double> area(n, 0.0);
    for (std::size_t c = 0; c < n; ++c) {
      std::size_t at = c, steps = 0;
      for (;;) {
        area[at] += 1.0;
        if (receiver[at] == at) break;
        at = receiver[at];
        REQUIRE(++steps < n);  // no cycle
      }
      REQUIRE(on_border(w, h, at));  // every path ends on the border
    }
    double outlets = 0.0;
    for (std::size_t c = 0; c < n; ++c) {
      if (receiver[c] == c) {
        outlets += area[c];
      } else {
        REQUIRE(area[receiver[c]] >= area[c] + 1.0);
      }
    }
    CHECK(outlets == static_cast<double>(n));
    const std::vector<float> expected(area.begin(), area.end());
    for (const int threads : {1, 2, 8}) {
      INFO(threads << " threads");
      REQUIRE(flow_accumulation(field, flow_method::d8, threads) == expected);
    }
  }
}

TEST_CASE("flow: on a plane falling to the south-east, D8 and D-infinity both follow the diagonal", "[derive][flow]") {
  // Steepest descent is exactly diagonal (45 degrees between the axes), so
  // Tarboton's angle is pi/4 and all water goes to the diagonal neighbour:
  // accumulation min(x, y) + 1.
  const int w = 15, h = 12;
  const heightfield plane = surface(w, h, [](int x, int y) { return -0.125 * (x + y); });  // exact in float
  for (const auto method : {flow_method::d8, flow_method::dinf}) {
    const auto receivers = flow_directions(priority_flood_epsilon(plane), w, h, method);
    const auto acc = accumulate_flow(receivers, w, h);
    for (int y = 0; y < h - 1; ++y) {
      for (int x = 0; x < w - 1; ++x) {
        const auto& r = receivers[index(w, x, y)];
        REQUIRE(r.to[0] == 7);  // south-east
        REQUIRE(r.to[1] == -1);
        REQUIRE(acc[index(w, x, y)] == static_cast<float>(std::min(x, y) + 1));
      }
    }
  }
}

TEST_CASE("flow: D-infinity splits evenly on a plane falling half-way between east and south-east", "[derive][flow]") {
  // Aspect 22.5 degrees below east: Tarboton's r = atan(sin 22.5 / cos 22.5) =
  // pi/8, so half goes east and half south-east; the facet slope is the
  // plane's gradient, 0.1.
  const double a = std::numbers::pi / 8.0;
  const int w = 12, h = 10;
  const heightfield plane = surface(w, h, [&](int x, int y) { return -0.1 * (std::cos(a) * x + std::sin(a) * y); });
  const auto filled = priority_flood_epsilon(plane);
  const auto receivers = flow_directions(filled, w, h, flow_method::dinf);
  for (int y = 0; y < h - 1; ++y) {
    for (int x = 0; x < w - 1; ++x) {
      const auto& r = receivers[index(w, x, y)];
      REQUIRE(r.to[0] == 0);  // east
      REQUIRE(r.to[1] == 7);  // south-east
      REQUIRE(r.fraction == Approx(0.5).epsilon(1e-5));
      REQUIRE(r.gradient == Approx(0.1).epsilon(1e-5));
    }
  }
  const auto acc = accumulate_flow(receivers, w, h);
  CHECK(outflow(receivers, acc) == Approx(static_cast<double>(w * h)).epsilon(1e-9));
}

TEST_CASE("flow: the wetness index is finite everywhere and ln(a / tan beta) on a plane", "[derive][flow]") {
  // Plane falling 1/128 per row, cell 2 m, height_scale 64: tan beta =
  // (1/128) * 64 / 2 = 0.25; D8 accumulation y + 1 cells, a = (y + 1) * 2 m.
  const int w = 9, h = 14;
  const heightfield plane = surface(
      w, h, [&](int, int y) { return (h - 1 - y) / 128.0; }, 2.0);
  // D-infinity (border cells pass water on): accumulation y + 1 cells, a = (y + 1) * 2 m.
  const auto dinf = topographic_wetness(plane, flow_method::dinf, 64.0, 0.1);
  for (int y = 0; y < h - 1; ++y) {
    for (int x = 0; x < w; ++x) {
      REQUIRE(dinf[index(w, x, y)] == Approx(std::log((y + 1) * 2.0 / 0.25)).epsilon(1e-6));
    }
  }
  // The outlets (bottom row) have no downslope: tan beta is floored at tan(0.1 degrees).
  const double floor_tan = std::tan(0.1 * std::numbers::pi / 180.0);
  CHECK(dinf[index(w, 4, h - 1)] == Approx(std::log(h * 2.0 / floor_tan)).epsilon(1e-6));
  // D8: border cells are outlets holding their own cell (the bottom row's
  // interior cells also their column's rows 1..h-2); their slope is their
  // steepest descent inside the map, 0.25 but on the bottom row (floored).
  const auto d8 = topographic_wetness(plane, flow_method::d8, 64.0, 0.1);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      INFO("cell (" << x << ", " << y << ")");
      const bool side = x == 0 || x == w - 1 || y == 0;
      const double cells = side ? 1.0 : y;
      const double tan_beta = y == h - 1 ? floor_tan : 0.25;
      REQUIRE(d8[index(w, x, y)] == Approx(std::log(cells * 2.0 / tan_beta)).epsilon(1e-6));
    }
  }

  for (const auto method : {flow_method::d8, flow_method::dinf}) {
    for (const auto& field : {noise_field(70, 50), heightfield(region{20, 20, 0, 0, 1.0}, 0.0f)}) {
      const auto values = topographic_wetness(field, method, 100.0, 0.1);
      CHECK(std::all_of(values.begin(), values.end(), [](float v) { return std::isfinite(v); }));
    }
  }
}

TEST_CASE("flow: contributing area is accumulation times the cell area", "[derive][flow]") {
  const std::vector<float> cells = {1.0f, 2.0f, 7.0f};
  CHECK(contributing_area(cells, 2.5) == std::vector<float>{6.25f, 12.5f, 43.75f});
}

TEST_CASE("flow: results do not depend on the thread count", "[derive][flow][determinism]") {
  const heightfield h = noise_field(101, 77);
  for (const auto method : {flow_method::d8, flow_method::dinf}) {
    const auto one = flow_accumulation(h, method, 1);
    CHECK(one == flow_accumulation(h, method, 2));
    CHECK(one == flow_accumulation(h, method, 8));
    const auto twi = topographic_wetness(h, method, 30.0, 0.1, 1);
    CHECK(twi == topographic_wetness(h, method, 30.0, 0.1, 8));
  }
}

TEST_CASE("flow: non-finite heights and mismatched sizes are rejected with the cell and the rule", "[derive][flow]") {
  heightfield h(region{5, 4, 0, 0, 1.0});
  h.at(3, 2) = std::nanf("");
  h.at(1, 3) = std::numeric_limits<float>::infinity();  // later in index order than (3, 2)
  CHECK_THROWS_WITH(priority_flood_epsilon(h), "priority_flood_epsilon: height nan at cell (3, 2) is not finite");
  CHECK_THROWS_WITH(flow_accumulation(h, flow_method::d8, 2),
                    "flow_accumulation: height nan at cell (3, 2) is not finite");
  CHECK_THROWS_WITH(topographic_wetness(h, flow_method::d8, 1.0, 0.1),
                    "topographic_wetness: height nan at cell (3, 2) is not finite");
  h.at(3, 2) = 0.0f;
  CHECK_THROWS_WITH(flow_accumulation(h, flow_method::d8),
                    "flow_accumulation: height inf at cell (1, 3) is not finite");
  CHECK_THROWS_AS(flow_accumulation(h, flow_method::dinf), std::invalid_argument);
  CHECK_THROWS_WITH(flow_directions(std::vector<double>(7), 2, 3, flow_method::d8),
                    "flow_directions: 7 values for a 2 x 3 grid");
  std::vector<flow_receivers> off_grid(6);
  off_grid[2].to = {0, -1};  // cell (2, 0) of a 3 x 2 grid sends water east, off the grid
  off_grid[2].fraction = 1.0f;
  CHECK_THROWS_WITH(accumulate_flow(off_grid, 3, 2),
                    "accumulate_flow: cell (2, 0) sends water to neighbour 0 with fraction 1; receivers must be "
                    "neighbour codes 0..7 inside the grid, fractions in [0, 1]");
  std::vector<flow_receivers> cycle(2);
  cycle[0].to = {0, -1};
  cycle[1].to = {4, -1};
  cycle[0].fraction = cycle[1].fraction = 1.0f;
  CHECK_THROWS_WITH(accumulate_flow(cycle, 2, 1), "accumulate_flow: the flow directions contain a cycle");
  const heightfield ok(region{5, 4, 0, 0, 1.0});
  CHECK_THROWS_WITH(topographic_wetness(ok, flow_method::d8, 1.0, 0.0),
                    "topographic_wetness: min_slope 0 degrees, must be > 0 and < 90");
}

TEST_CASE("flow outputs: a tile's files equal the same window of the world's", "[derive][flow][pipeline]") {
  const json world = json::parse(R"({
    "size": [72, 60], "cell_size": 4.0, "height_scale": 200,
    "stages": [{"type": "opensimplex", "feature_size": 90, "octaves": 4}],
    "outputs": [{"map": "flow", "format": "r32", "file": "flow.r32"},
                {"map": "flow", "format": "png16", "method": "dinf", "file": "flow.png"},
                {"map": "wetness", "format": "r32", "file": "wet.r32"}]
  })");
  json tile = world;
  tile["world"] = {72, 60};
  tile["size"] = {20, 16};
  tile["origin"] = {40, 13};
  const auto world_files = build_outputs(world, 2);
  const auto tile_files = build_outputs(tile, 1);
  REQUIRE(world_files.size() == 3);
  REQUIRE(tile_files.size() == 3);
  for (const std::size_t k : {std::size_t{0}, std::size_t{2}}) {
    const auto wv = r32_values(world_files[k].bytes);
    const auto tv = r32_values(tile_files[k].bytes);
    REQUIRE(tv.size() == 20u * 16u);
    for (int y = 0; y < 16; ++y) {
      for (int x = 0; x < 20; ++x) {
        if (tv[index(20, x, y)] != wv[index(72, 40 + x, 13 + y)])
          FAIL("file " << k << ", cell (" << x << ", " << y << ")");
      }
    }
  }
  int w = 0, h = 0, channels = 0;
  stbi_us* whole = stbi_load_16_from_memory(world_files[1].bytes.data(), static_cast<int>(world_files[1].bytes.size()),
                                            &w, &h, &channels, 1);
  stbi_us* part = stbi_load_16_from_memory(tile_files[1].bytes.data(), static_cast<int>(tile_files[1].bytes.size()), &w,
                                           &h, &channels, 1);
  REQUIRE(whole != nullptr);
  REQUIRE(part != nullptr);
  CHECK(w == 20);
  CHECK(h == 16);
  std::size_t mismatches = 0;
  for (int y = 0; y < 16; ++y)
    for (int x = 0; x < 20; ++x) mismatches += part[index(20, x, y)] != whole[index(72, 40 + x, 13 + y)];
  stbi_image_free(whole);
  stbi_image_free(part);
  CHECK(mismatches == 0);
  // Byte-identical across thread counts.
  const auto eight = build_outputs(world, 8);
  for (std::size_t k = 0; k < 3; ++k) CHECK(eight[k].bytes == world_files[k].bytes);
}

TEST_CASE("flow outputs: png16 decodes to the log-scaled accumulation, r32 holds cells", "[derive][flow][pipeline]") {
  const json preset = json::parse(R"({
    "size": [64, 48], "height_scale": 50,
    "stages": [{"type": "opensimplex", "feature_size": 30, "octaves": 4}],
    "outputs": [{"map": "flow", "format": "png16"},
                {"map": "flow", "format": "r32"},
                {"map": "flow", "format": "png8", "scale": "linear", "file": "flow_linear.png"},
                {"map": "wetness", "format": "png16"},
                {"map": "wetness", "format": "r32"}]
  })");
  const pipeline p = pipeline::build(preset);
  const build_result result = p.run_full();
  const auto files = encode_outputs(p, result, 1);
  REQUIRE(files.size() == 5);
  CHECK(files[0].spec.file == "flow.png");
  CHECK(files[4].spec.file == "wetness.r32");

  const auto expected = flow_accumulation(result.field, flow_method::d8);
  const auto cells = r32_values(files[1].bytes);
  REQUIRE(cells == expected);
  const double max = *std::max_element(cells.begin(), cells.end());
  CHECK(files[0].description["max_accumulation"] == max);

  int w = 0, h = 0, channels = 0;
  REQUIRE(stbi_is_16_bit_from_memory(files[0].bytes.data(), static_cast<int>(files[0].bytes.size())) == 1);
  stbi_us* png =
      stbi_load_16_from_memory(files[0].bytes.data(), static_cast<int>(files[0].bytes.size()), &w, &h, &channels, 0);
  REQUIRE(png != nullptr);
  CHECK(w == 64);
  CHECK(h == 48);
  CHECK(channels == 1);
  std::size_t off = 0;
  for (std::size_t k = 0; k < cells.size(); ++k) {
    const double unit = std::log1p(static_cast<double>(cells[k])) / std::log1p(max);
    if (std::abs(png[k] - unit * 65535.0) > 0.51) ++off;
  }
  stbi_image_free(png);
  CHECK(off == 0);

  stbi_uc* linear =
      stbi_load_from_memory(files[2].bytes.data(), static_cast<int>(files[2].bytes.size()), &w, &h, &channels, 0);
  REQUIRE(linear != nullptr);
  off = 0;
  for (std::size_t k = 0; k < cells.size(); ++k) {
    if (std::abs(linear[k] - cells[k] / max * 255.0) > 0.51) ++off;
  }
  stbi_image_free(linear);
  CHECK(off == 0);

  const auto twi = r32_values(files[4].bytes);
  REQUIRE(twi == topographic_wetness(result.field, flow_method::dinf, 50.0, 0.1));
  const auto [lo, hi] = std::minmax_element(twi.begin(), twi.end());
  stbi_us* wet =
      stbi_load_16_from_memory(files[3].bytes.data(), static_cast<int>(files[3].bytes.size()), &w, &h, &channels, 0);
  REQUIRE(wet != nullptr);
  off = 0;
  for (std::size_t k = 0; k < twi.size(); ++k) {
    const double unit = (static_cast<double>(twi[k]) - *lo) / (static_cast<double>(*hi) - *lo);
    if (std::abs(wet[k] - unit * 65535.0) > 0.51) ++off;
  }
  stbi_image_free(wet);
  CHECK(off == 0);
}

TEST_CASE("flow outputs: options are validated with their path and rule", "[derive][flow][pipeline]") {
  const json preset = json::parse(R"({
    "size": 16, "stages": [{"type": "opensimplex"}],
    "outputs": [{"map": "flow", "method": "mfd", "scale": "sqrt"}, {"map": "wetness", "min_slope": 0}]
  })");
  const std::vector<std::string> texts = landform_test::build_issue_texts(preset);
  CHECK(texts == std::vector<std::string>{
                     "outputs[0] (flow).method: \"mfd\" is not one of d8 | dinf",
                     "outputs[0] (flow).scale: \"sqrt\" is not one of log | linear",
                     "outputs[1] (wetness).min_slope: 0 must be greater than 0",
                 });
}
