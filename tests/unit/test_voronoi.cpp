// Unit tests for the `voronoi` generator: the nearest and second-nearest
// sites against a brute-force search for every metric, the documented F
// bounds, seed 002's island shaping and per-cell elevation and moisture, the
// `moisture` layer, ranges over millions of points (negative and ~1e6
// coordinates), determinism, seed sensitivity, region consistency and
// parameter errors.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <vector>

#include "landform/core/layer_set.hpp"
#include "landform/stages/voronoi.hpp"
#include "unit/stage_checks.hpp"

namespace {

using namespace landform;
using namespace landform_test;
using P = voronoi_params;

double metric(P::metric_kind m, double dx, double dy) {
  if (m == P::metric_kind::manhattan) return std::abs(dx) + std::abs(dy);
  if (m == P::metric_kind::chebyshev) return std::max(std::abs(dx), std::abs(dy));
  return std::sqrt(dx * dx + dy * dy);  // as the stage computes it
}

}  // namespace

TEST_CASE("voronoi: F1 and F2 match a brute-force search over a wide window", "[stages][voronoi]") {
  const auto m = GENERATE(P::metric_kind::euclidean, P::metric_kind::manhattan, P::metric_kind::chebyshev);
  const auto dist = GENERATE(P::distribution_kind::triangular, P::distribution_kind::uniform);
  P p;
  p.metric = m;
  p.distribution = dist;
  p.grid_size = 8.0;  // 8 cells per grid spacing in a 64-cell world
  const world_extent world{0, 0, 64, 64};
  std::map<std::pair<std::int64_t, std::int64_t>, std::pair<double, double>> sites;
  for (std::int64_t j = -8; j <= 16; ++j)
    for (std::int64_t i = -8; i <= 16; ++i) sites[{i, j}] = voronoi_site(p, 3, world, i, j);
  for (int k = 0; k < 3000; ++k) {
    const double x = -20.0 + 0.037 * k * 29 - 60.0 * std::floor((0.037 * k * 29) / 60.0);
    const double y = -20.0 + 0.053 * k * 17 - 60.0 * std::floor((0.053 * k * 17) / 60.0);
    const voronoi_sample s = voronoi_at(p, 3, world, x, y);
    double f1 = std::numeric_limits<double>::infinity(), f2 = f1;
    for (const auto& [cell, site] : sites) {
      const double d = metric(m, x / 8.0 - site.first, y / 8.0 - site.second);
      if (d < f1) {
        f2 = f1;
        f1 = d;
      } else if (d < f2) {
        f2 = d;
      }
    }
    INFO("point " << x << ", " << y);
    REQUIRE(s.f1 == f1);
    REQUIRE(s.f2 == f2);
  }
}

TEST_CASE("voronoi: Worley values respect the documented bounds over millions of points", "[stages][voronoi]") {
  const auto m = GENERATE(P::metric_kind::euclidean, P::metric_kind::manhattan, P::metric_kind::chebyshev);
  const double f1_bound = m == P::metric_kind::euclidean ? std::sqrt(2.0) : m == P::metric_kind::manhattan ? 2.0 : 1.0;
  const double f2_bound = m == P::metric_kind::euclidean ? std::sqrt(5.0) : m == P::metric_kind::manhattan ? 3.0 : 2.0;
  for (const auto& [ox, oy] : range_origins()) {
    INFO("origin " << ox << ", " << oy);
    heightfield h = field_at(160, 160, ox, oy);
    P p;
    p.metric = m;
    p.grid_size = 16;
    p.distribution = P::distribution_kind::uniform;
    for (auto mode : {P::mode_kind::f1, P::mode_kind::f2, P::mode_kind::f2_minus_f1, P::mode_kind::cell_value}) {
      p.mode = mode;
      apply_voronoi(h, p, context_for(h, 5));
      const auto [lo, hi] = finite_range(h);
      CHECK(lo >= 0.0f);
      if (mode == P::mode_kind::f1) CHECK(hi < f1_bound);
      if (mode != P::mode_kind::f1 && mode != P::mode_kind::cell_value) CHECK(hi < f2_bound);
      if (mode == P::mode_kind::cell_value) CHECK(hi < 1.0f);
      CHECK(hi - lo > 0.3f);
    }
  }
}

TEST_CASE("voronoi: elevation and moisture are flat per cell and island-shaped", "[stages][voronoi]") {
  const auto island = GENERATE(P::island_kind::square, P::island_kind::euclidean, P::island_kind::none);
  heightfield h = field_at(200, 200, 0, 0);
  stage_context ctx = context_for(h, 8);
  ctx.wanted = {"moisture"};
  P p;
  p.island = island;
  const layer_set layers = apply_voronoi(h, p, ctx);
  const std::vector<float>* moisture = layers.find("moisture");
  REQUIRE(moisture != nullptr);
  REQUIRE(moisture->size() == h.size());
  std::map<std::pair<std::int64_t, std::int64_t>, std::pair<float, float>> per_cell;
  int land = 0;
  for (int j = 0; j < 200; ++j)
    for (int i = 0; i < 200; ++i) {
      const voronoi_sample s = voronoi_at(p, 8, ctx.world, i + 0.5, j + 0.5);
      const float e = h.at(i, j), m = (*moisture)[static_cast<std::size_t>(j) * 200 + i];
      REQUIRE(e == static_cast<float>(s.elevation));
      REQUIRE(m >= 0.0f);
      REQUIRE(m <= 1.0f);
      auto [it, fresh] = per_cell.try_emplace({s.cell_x, s.cell_y}, e, m);
      if (!fresh) {
        REQUIRE(it->second.first == e);   // one elevation per Voronoi cell
        REQUIRE(it->second.second == m);  // one moisture per Voronoi cell
      }
      // Seed 002's shaping (1 + e - d) / 2 with e <= 1: no land at d >= 1.
      const double cx = s.site_x / 25.0 - 0.5, cy = s.site_y / 25.0 - 0.5;
      const double d =
          island == P::island_kind::square ? 2.0 * std::max(std::abs(cx), std::abs(cy)) : 2.0 * std::hypot(cx, cy);
      if (island != P::island_kind::none && d >= 1.0) REQUIRE(e <= 0.5f);
      REQUIRE(e <= 1.0f);
      REQUIRE(e >= (island == P::island_kind::none ? 0.0f : island == P::island_kind::square ? -0.06f : -0.29f));
      land += e >= 0.5f;
    }
  CHECK(per_cell.size() > 500);  // about 25 x 25 cells
  CHECK(per_cell.size() < 800);
  CHECK(land > 0);
}

TEST_CASE("voronoi: elevation stays finite and bounded far from the origin", "[stages][voronoi]") {
  for (const auto& [ox, oy] : range_origins()) {
    heightfield h = field_at(300, 300, ox, oy, 3.0);
    apply_voronoi(h, P{}, context_for(h, 6));
    const auto [lo, hi] = finite_range(h);
    CHECK(lo >= -0.06f);  // square shaping at grid_size 25
    CHECK(hi <= 1.0f);
  }
}

TEST_CASE("voronoi: sites denser than cells agree with the direct search", "[stages][voronoi]") {
  // 4000 sites per 100-cell world width: the per-row site table is skipped.
  heightfield h = field_at(100, 7, 0, 40);
  stage_context ctx = context_for(h, 12);
  ctx.world = {0, 0, 100, 100};
  P p;
  p.grid_size = 4000;
  p.mode = P::mode_kind::f2;
  apply_voronoi(h, p, ctx);
  for (int j = 0; j < 7; ++j)
    for (int i = 0; i < 100; ++i)
      REQUIRE(h.at(i, j) == static_cast<float>(voronoi_at(p, 12, ctx.world, i + 0.5, j + 40.5).f2));
}

TEST_CASE("voronoi: jitter 0 gives the square grid", "[stages][voronoi]") {
  P p;
  p.jitter = 0.0;
  p.grid_size = 4;
  const voronoi_sample s = voronoi_at(p, 1, {0, 0, 64, 64}, 17.0, 38.0);  // grid spacing 16
  CHECK(s.cell_x == 1);
  CHECK(s.cell_y == 2);
  CHECK(s.site_x == 1.0);
  CHECK(s.site_y == 2.0);
  CHECK(s.f1 == Approx(std::hypot(1.0 / 16, 6.0 / 16)));
  CHECK(s.f2 == Approx(std::hypot(1.0 / 16, 10.0 / 16)));
}

TEST_CASE("voronoi: declares and writes the moisture layer in a pipeline", "[stages][voronoi]") {
  const json preset = {{"landform", 1},
                       {"size", 48},
                       {"stages", json::array({{{"type", "voronoi"}, {"mode", "f1"}}})},
                       {"outputs", json::array({{{"map", "moisture"}, {"format", "r32"}}})}};
  const build_result r = pipeline::build(preset).run_full();
  const std::vector<float>* m = r.layers.find("moisture");
  REQUIRE(m != nullptr);
  CHECK(*std::max_element(m->begin(), m->end()) <= 1.0f);
  CHECK(*std::min_element(m->begin(), m->end()) >= 0.0f);
}

TEST_CASE("voronoi: deterministic, seed-sensitive and region-consistent", "[stages][voronoi][determinism]") {
  const json stage =
      GENERATE(json{{"type", "voronoi"}},
               json{{"type", "voronoi"}, {"mode", "f2_minus_f1"}, {"metric", "manhattan"}, {"grid_size", 12}},
               json{{"type", "voronoi"}, {"mode", "f2"}, {"metric", "chebyshev"}, {"distribution", "uniform"}});
  INFO(stage.dump());
  const json stages = json::array({stage});
  require_thread_independent(stages);
  require_seed_sensitive(stages);
  require_region_consistent(stages);
}

TEST_CASE("voronoi: out-of-range parameters name their JSON path", "[stages][voronoi][errors]") {
  require_rejected({{"type", "voronoi"}, {"jitter", 0.6}}, "stages[0] (voronoi).jitter: 0.6 is above the maximum 0.5");
  require_rejected({{"type", "voronoi"}, {"grid_size", 0}},
                   "stages[0] (voronoi).grid_size: 0 is below the minimum 0.25");
  require_rejected({{"type", "voronoi"}, {"wavelength", -1}},
                   "stages[0] (voronoi).wavelength: -1 must be greater than 0");
  require_rejected({{"type", "voronoi"}, {"metric", "taxicab"}},
                   "stages[0] (voronoi).metric: \"taxicab\" is not one of euclidean | manhattan | chebyshev");
}
