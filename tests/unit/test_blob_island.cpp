// Unit tests for the `blob_island` generator: the seed's dot formulas, the
// 4- and 8-connected cellular automaton on hand-computed 5 x 5 examples, the
// remap between passes, cells equal to lattice nodes when the sizes match,
// the same island at 256 and 1024 cells, ranges, determinism, seed
// sensitivity, region consistency and parameter errors.

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "landform/stages/blob_island.hpp"
#include "landform/stages/curve.hpp"
#include "unit/stage_checks.hpp"

namespace {

using namespace landform;
using namespace landform_test;
using P = blob_island_params;

// Ones on the border ring (corner (0, 0) and edge (4, 2)) show that the
// 8-connected rule, like the seed's, ignores border nodes.
const std::vector<float> k_grid = {
    1, 0, 0, 0, 0,  //
    0, 1, 1, 0, 0,  //
    0, 1, 1, 1, 1,  //
    0, 0, 1, 0, 0,  //
    0, 0, 0, 0, 0,  //
};

std::vector<float> scaled(const std::vector<int>& counts, double divisor) {
  std::vector<float> out;
  for (int c : counts) out.push_back(static_cast<float>(c / divisor));
  return out;
}

}  // namespace

TEST_CASE("blob_island: the seed's cluster count and radius formulas", "[stages][blob_island]") {
  P p;  // resolution 512, land_area 1, land_type 0.5
  CHECK(blob_island_clusters(p) == 128);
  CHECK(blob_island_radius(p) == 44);  // (int)(256 * 0.35 * 0.5) = (int)44.8
  p.land_type = 1.0;
  CHECK(blob_island_radius(p) == 89);
  p.land_area = 0.12;
  CHECK(blob_island_clusters(p) == 15);
  p.resolution = 64;
  CHECK(blob_island_clusters(p) == 1);
}

TEST_CASE("blob_island: 8-connected pass matches the hand-computed 5x5 example", "[stages][blob_island][ca]") {
  // Sum over the 3x3 block including the node, counting only nodes 1..3 on
  // each axis, divided by 9 (worked out by hand).
  const std::vector<int> ninths = {
      1, 2, 2, 1, 0,  //
      2, 4, 5, 3, 1,  //
      2, 5, 6, 4, 1,  //
      1, 3, 4, 3, 1,  //
      0, 1, 1, 1, 0,  //
  };
  for (int threads : {1, 2, 8}) {
    CHECK(blob_island_average(k_grid, 5, P::neighbourhood_kind::eight, threads) == scaled(ninths, 9.0));
  }
}

TEST_CASE("blob_island: 4-connected pass matches the hand-computed 5x5 example", "[stages][blob_island][ca]") {
  // Sum of the existing left, right, up and down neighbours (not the node
  // itself), divided by 4 (worked out by hand).
  const std::vector<int> quarters = {
      0, 2, 1, 0, 0,  //
      2, 2, 2, 2, 1,  //
      1, 2, 4, 2, 1,  //
      0, 2, 1, 2, 1,  //
      0, 0, 1, 0, 0,  //
  };
  for (int threads : {1, 2, 8}) {
    CHECK(blob_island_average(k_grid, 5, P::neighbourhood_kind::four, threads) == scaled(quarters, 4.0));
  }
}

TEST_CASE("blob_island: passes remap between them; cells are nodes when sizes match", "[stages][blob_island][ca]") {
  const auto nb = GENERATE(P::neighbourhood_kind::eight, P::neighbourhood_kind::four);
  P p;
  p.resolution = 48;
  p.land_area = 1.0;
  p.land_type = 1.0;
  p.erosion = 3;
  p.neighbourhood = nb;
  p.remap = {{0.0, 0.0}, {0.3, 0.0}, {0.6, 1.0}, {1.0, 1.0}};
  const control_curve remap(p.remap, control_curve::kind::linear);
  std::vector<float> expected = blob_island_dots(p, 21);
  for (int pass = 0; pass < 3; ++pass) {
    if (pass > 0)
      for (float& v : expected) v = static_cast<float>(remap(v));
    expected = blob_island_average(expected, 48, nb, 1);
  }
  REQUIRE(blob_island_lattice(p, 21, 2) == expected);

  heightfield h = field_at(48, 48, 0, 0);
  apply_blob_island(h, p, context_for(h, 21));
  for (std::size_t k = 0; k < h.size(); ++k) REQUIRE(h.values()[k] == static_cast<float>(remap(expected[k])));
}

TEST_CASE("blob_island: dots lie in the seed's circle and thin out with the falloff", "[stages][blob_island]") {
  P p;
  p.resolution = 256;
  const std::vector<float> dots = blob_island_dots(p, 5);
  const double reach = 256.0 / 3.0 + blob_island_radius(p) * std::sqrt(2.0) + 1.0;
  std::size_t land = 0;
  for (int y = 0; y < 256; ++y)
    for (int x = 0; x < 256; ++x) {
      const float v = dots[static_cast<std::size_t>(y) * 256 + x];
      REQUIRE((v == 0.0f || v == 1.0f));
      if (v == 1.0f) {
        REQUIRE(std::hypot(x - 128.0, y - 128.0) <= reach);
        ++land;
      }
    }
  CHECK(land > 256 * 256 / 10);
  p.falloff = {{0.0, 0.0}, {1.0, 0.0}};  // no dot survives
  for (float v : blob_island_dots(p, 5)) REQUIRE(v == 0.0f);
}

TEST_CASE("blob_island: the same island at 256 and 1024 cells", "[stages][blob_island]") {
  P p;
  p.resolution = 256;
  p.land_area = 0.25;
  p.erosion = 3;
  p.remap = {{0.0, 0.0}, {0.35, 0.0}, {0.65, 1.0}, {1.0, 1.0}};
  heightfield small = field_at(256, 256, 0, 0);
  apply_blob_island(small, p, context_for(small, 42));
  heightfield large = field_at(1024, 1024, 0, 0);
  apply_blob_island(large, p, context_for(large, 42));
  double diff = 0.0;
  std::size_t agree = 0, land = 0;
  for (int y = 0; y < 256; ++y)
    for (int x = 0; x < 256; ++x) {
      double mean = 0.0;
      for (int dy = 0; dy < 4; ++dy)
        for (int dx = 0; dx < 4; ++dx) mean += large.at(4 * x + dx, 4 * y + dy);
      mean /= 16.0;
      const double s = small.at(x, y);
      diff += std::abs(mean - s);
      agree += (mean > 0.5) == (s > 0.5);
      land += s > 0.5;
    }
  INFO("land " << land << ", agreement " << agree << ", mean difference " << diff / (256.0 * 256.0));
  CHECK(land > 2000);
  CHECK(diff / (256.0 * 256.0) < 0.03);
  CHECK(static_cast<double>(agree) / (256.0 * 256.0) > 0.98);
}

TEST_CASE("blob_island: values stay in [0, 1] for every option", "[stages][blob_island]") {
  const auto nb = GENERATE(P::neighbourhood_kind::eight, P::neighbourhood_kind::four);
  const int erosion = GENERATE(0, 2);
  for (const auto& [ox, oy] : range_origins()) {
    heightfield h = field_at(300, 200, ox, oy, 5.0);
    P p;
    p.resolution = 128;
    p.octaves = 2;
    p.erosion = erosion;
    p.neighbourhood = nb;
    apply_blob_island(h, p, context_for(h, 9));
    const auto [lo, hi] = finite_range(h);
    CHECK(lo >= 0.0f);
    CHECK(hi <= 1.0f);
    CHECK(hi > 0.5f);
  }
}

TEST_CASE("blob_island: deterministic, seed-sensitive and region-consistent", "[stages][blob_island][determinism]") {
  const json stage = GENERATE(json{{"type", "blob_island"}, {"resolution", 96}, {"land_type", 1.0}},
                              json{{"type", "blob_island"},
                                   {"resolution", 80},
                                   {"land_type", 1.0},
                                   {"erosion", 3},
                                   {"neighbourhood", "four"},
                                   {"remap", {{0, 0}, {0.4, 0}, {0.6, 1}, {1, 1}}}});
  INFO(stage.dump());
  const json stages = json::array({stage});
  require_thread_independent(stages);
  require_seed_sensitive(stages);
  require_region_consistent(stages);
}

TEST_CASE("blob_island: out-of-range parameters name their JSON path", "[stages][blob_island][errors]") {
  require_rejected({{"type", "blob_island"}, {"resolution", 4}},
                   "stages[0] (blob_island).resolution: 4 is below the minimum 5");
  require_rejected({{"type", "blob_island"}, {"erosion", 65}},
                   "stages[0] (blob_island).erosion: 65 is above the maximum 64");
  require_rejected({{"type", "blob_island"}, {"land_type", 0}},
                   "stages[0] (blob_island).land_type: 0 must be greater than 0");
  require_rejected(
      {{"type", "blob_island"}, {"falloff", {{0, 1}, {0, 0.5}}}},
      "stages[0] (blob_island).falloff: x must increase strictly from point to point: point 1 has x 0 after 0");
  require_rejected({{"type", "blob_island"}, {"remap", {{0, 0}, {1, 2}}}},
                   "stages[0] (blob_island).remap: element 1: 2 is above the maximum 1");
}
