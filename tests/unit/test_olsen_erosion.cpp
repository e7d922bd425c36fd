// Unit tests for the `olsen_erosion` filter (the tutorial's Erode()): mass
// conservation, hand-computed passes (tie rule, in-place order, threshold),
// cliffs, borders and degenerate sizes.

#include <catch2/catch.hpp>

#include "bit_equal.hpp"
#include "stage_checks.hpp"

#include <hwy/targets.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "landform/core/heightfield.hpp"
#include "landform/stages/normalize.hpp"
#include "landform/stages/olsen_erosion.hpp"
#include "landform/stages/opensimplex.hpp"
#include "stages/inplace_scan.hpp"

namespace {

using namespace landform;
using landform_test::bit_equal;
using landform_test::make_field;

// `world_width` sets the slope threshold smoothness / world width.
stage_context make_ctx(int world_width, int world_height = 0) {
  stage_context ctx;
  ctx.seed = 1;
  ctx.world = {0, 0, world_width, world_height > 0 ? world_height : world_width};
  ctx.nthreads = 1;
  return ctx;
}

olsen_erosion_params params(double smoothness, int iterations) {
  olsen_erosion_params p;
  p.smoothness = smoothness;
  p.iterations = iterations;
  return p;
}

// Rows listed top to bottom, as they would be printed.
heightfield from_rows(const std::vector<std::vector<float>>& rows) {
  heightfield h = make_field(static_cast<int>(rows.front().size()), static_cast<int>(rows.size()));
  for (int j = 0; j < h.height(); ++j)
    for (int i = 0; i < h.width(); ++i) h.at(i, j) = rows[static_cast<std::size_t>(j)][static_cast<std::size_t>(i)];
  return h;
}

double sum_of(const heightfield& h) {
  double s = 0.0;
  for (float v : h.values()) s += v;
  return s;
}

}  // namespace

TEST_CASE("olsen_erosion: conserves the sum of heights over 20 passes", "[stages][olsen_erosion]") {
  heightfield h = make_field(96, 80);
  opensimplex_params np;
  np.octaves = 5;
  np.feature_size = 24.0;
  stage_context ctx = make_ctx(96, 80);
  apply_opensimplex(h, np, ctx);
  apply_normalize(h, normalize_params{}, ctx);  // [-1, 1] -> [0, 1]: the sum is far from 0
  const heightfield before = h;
  const double s0 = sum_of(h);
  REQUIRE(s0 > 1000.0);
  apply_olsen_erosion(h, params(18.0, 20), ctx);
  std::size_t changed = 0;
  for (std::size_t k = 0; k < h.size(); ++k)
    if (h.values()[k] != before.values()[k]) ++changed;
  CHECK(changed > h.size() / 2);  // the erosion really moved material
  CHECK(std::abs(sum_of(h) - s0) <= 1e-6 * std::abs(s0));
}

TEST_CASE("olsen_erosion: identical bits for 1, 2 and 8 threads", "[stages][olsen_erosion][determinism]") {
  // Issue 9 asks it of every erosion stage. The passes run serially today
  // (wavefront after wavefront, SIMD within one); this keeps any threading
  // added later honest.
  heightfield input = make_field(300, 211);
  opensimplex_params np;
  np.octaves = 5;
  np.feature_size = 40.0;
  apply_opensimplex(input, np, make_ctx(300, 211));
  heightfield serial = input;
  apply_olsen_erosion(serial, params(18.0, 12), make_ctx(300, 211));
  REQUIRE_FALSE(bit_equal(serial.values(), input.values()));
  for (const int threads : {2, 8}) {
    CAPTURE(threads);
    heightfield h = input;
    stage_context ctx = make_ctx(300, 211);
    ctx.nthreads = threads;
    apply_olsen_erosion(h, params(18.0, 12), ctx);
    CHECK(bit_equal(h.values(), serial.values()));
  }
}

TEST_CASE("olsen_erosion: a flat map is unchanged", "[stages][olsen_erosion]") {
  const float c = GENERATE(0.0f, 0.37f, -2.0f);
  heightfield h = make_field(17, 13, c);
  apply_olsen_erosion(h, params(18.0, 10), make_ctx(17));
  for (float v : h.values()) REQUIRE(v == c);
}

TEST_CASE("olsen_erosion: one pass on a 3x3 bump moves half the drop to the first lowest neighbour",
          "[stages][olsen_erosion]") {
  // Centre 0.1 above a flat 0 plateau; threshold = 1 / 3 >= 0.1. Every
  // neighbour is a maximum drop; the first in scan order (x-offset outer,
  // y-offset inner) is (-1, -1), i.e. cell (0, 0).
  heightfield h = from_rows({{0, 0, 0}, {0, 0.1f, 0}, {0, 0, 0}});
  apply_olsen_erosion(h, params(1.0, 1), make_ctx(3));
  const float half = static_cast<float>(0.5 * static_cast<double>(0.1f));
  const heightfield expected = from_rows({{half, 0, 0}, {0, half, 0}, {0, 0, 0}});
  CHECK(h.values() == expected.values());
}

TEST_CASE("olsen_erosion: the tie rule scans x-offset outer, y-offset inner", "[stages][olsen_erosion]") {
  // Lowest neighbours of the centre: (2, 0) [u=+1, v=-1] and (0, 2) [u=-1, v=+1]
  // and (1, 2) [u=0, v=+1], all at 0; the others at 0.25. In scan order (u outer)
  // (0, 2) comes first; with y outer it would be (2, 0).
  heightfield h = from_rows({{0.25f, 0.25f, 0.0f}, {0.25f, 1.0f, 0.25f}, {0.0f, 0.0f, 0.25f}});
  apply_olsen_erosion(h, params(3.0, 1), make_ctx(3));  // threshold 1
  const heightfield expected = from_rows({{0.25f, 0.25f, 0.0f}, {0.25f, 0.5f, 0.25f}, {0.5f, 0.0f, 0.25f}});
  CHECK(h.values() == expected.values());
}

TEST_CASE("olsen_erosion: cells see changes made earlier in the same pass", "[stages][olsen_erosion]") {
  // 4x3: interior cells (1, 1) then (2, 1).
  // (1, 1) = 1 drops 1 to (1, 0) (unique maximum): (1, 1) -> 0.5, (1, 0) -> 0.5.
  // (2, 1) = 0.75 then sees (1, 0) = 0.5 and (1, 1) = 0.5 (no longer 0 and 1),
  // so its first largest drop (0.75) is (3, 0), not (1, 0) as it would be when
  // reading the map as it was before the pass.
  heightfield h = from_rows({{0.5f, 0.0f, 0.5f, 0.0f}, {0.5f, 1.0f, 0.75f, 0.0f}, {0.5f, 0.5f, 0.5f, 0.0f}});
  apply_olsen_erosion(h, params(100.0, 1), make_ctx(4));
  const heightfield expected =
      from_rows({{0.5f, 0.5f, 0.5f, 0.375f}, {0.5f, 0.5f, 0.375f, 0.0f}, {0.5f, 0.5f, 0.5f, 0.0f}});
  CHECK(h.values() == expected.values());
}

TEST_CASE("olsen_erosion: two passes of the 3x3 bump", "[stages][olsen_erosion]") {
  // Pass 1: centre 1 -> 0.5, (0, 0) -> 0.5. Pass 2: the centre's drops are
  // 0 to (0, 0) and 0.5 to every other neighbour; the first 0.5 in scan order
  // is (0, 1) [u=-1, v=0]: centre -> 0.25, (0, 1) -> 0.25.
  heightfield h = from_rows({{0, 0, 0}, {0, 1.0f, 0}, {0, 0, 0}});
  apply_olsen_erosion(h, params(30.0, 2), make_ctx(3));
  const heightfield expected = from_rows({{0.5f, 0, 0}, {0.25f, 0.25f, 0}, {0, 0, 0}});
  CHECK(h.values() == expected.values());
}

TEST_CASE("olsen_erosion: the threshold is smoothness / world width, inclusive", "[stages][olsen_erosion]") {
  // Drop 0.25; smoothness 1. World width 4: threshold 0.25, moves (<=).
  // World width 5: threshold 0.2, stays. The heightfield is 3x3 either way.
  const heightfield input = from_rows({{0, 0, 0}, {0, 0.25f, 0}, {0, 0, 0}});
  heightfield at_limit = input;
  apply_olsen_erosion(at_limit, params(1.0, 1), make_ctx(4));
  CHECK(at_limit.values() == from_rows({{0.125f, 0, 0}, {0, 0.125f, 0}, {0, 0, 0}}).values());
  heightfield beyond = input;
  apply_olsen_erosion(beyond, params(1.0, 1), make_ctx(5));
  CHECK(beyond.values() == input.values());
}

TEST_CASE("olsen_erosion: a drop larger than smoothness / W is a cliff that stays", "[stages][olsen_erosion]") {
  SECTION("a single steep spike") {
    const heightfield input = from_rows({{0, 0, 0}, {0, 1.0f, 0}, {0, 0, 0}});
    heightfield h = input;
    apply_olsen_erosion(h, params(1.0, 50), make_ctx(3));  // threshold 1/3 < 1
    CHECK(h.values() == input.values());
  }
  SECTION("only the largest drop counts, even when a gentle one exists") {
    // Largest drop 1 (to (0, 0)) is too steep; the gentle 0.1 drops to the
    // other neighbours are not used.
    const heightfield input = from_rows({{0, 0.9f, 0.9f}, {0.9f, 1.0f, 0.9f}, {0.9f, 0.9f, 0.9f}});
    heightfield h = input;
    apply_olsen_erosion(h, params(1.0, 5), make_ctx(3));
    CHECK(h.values() == input.values());
  }
  SECTION("a step between two plateaus") {
    // Left half 0, right half 5 (drop 5 per cell, threshold 18/32): unchanged.
    heightfield h = make_field(32, 16);
    for (int j = 0; j < 16; ++j)
      for (int i = 16; i < 32; ++i) h.at(i, j) = 5.0f;
    const heightfield input = h;
    apply_olsen_erosion(h, params(18.0, 20), make_ctx(32));
    CHECK(h.values() == input.values());
  }
}

TEST_CASE("olsen_erosion: border cells are never centres", "[stages][olsen_erosion]") {
  // Only a border cell (edge or corner) is high: no interior cell has a drop,
  // and the border cell itself is not visited.
  const auto cell = GENERATE(std::pair{0, 0}, std::pair{2, 0}, std::pair{4, 0}, std::pair{0, 3}, std::pair{4, 2},
                             std::pair{1, 4}, std::pair{4, 4});
  heightfield h = make_field(5, 5);
  h.at(cell.first, cell.second) = 0.05f;
  const heightfield input = h;
  apply_olsen_erosion(h, params(18.0, 10), make_ctx(5));
  INFO("high border cell (" << cell.first << ", " << cell.second << ")");
  CHECK(h.values() == input.values());
}

TEST_CASE("olsen_erosion: maps without interior cells are unchanged and do not crash", "[stages][olsen_erosion]") {
  const auto size = GENERATE(std::pair{1, 1}, std::pair{2, 2}, std::pair{1, 5}, std::pair{5, 1}, std::pair{2, 7},
                             std::pair{7, 2}, std::pair{3, 2});
  const int w = size.first, ht = size.second;
  heightfield h = make_field(w, ht);
  for (std::size_t k = 0; k < h.size(); ++k) h.values()[k] = static_cast<float>(k) * 0.01f;
  const heightfield input = h;
  apply_olsen_erosion(h, params(18.0, 3), make_ctx(w));
  CHECK(bit_equal(h.values(), input.values()));
}

TEST_CASE("olsen_erosion: schema defaults and ranges", "[stages][olsen_erosion]") {
  const auto& specs = olsen_erosion_params::schema().specs();
  REQUIRE(specs.size() == 2);
  CHECK(specs[0].name == "smoothness");
  CHECK(specs[0].default_value == 18.0);
  CHECK(specs[0].check(json(0)) == "0 must be greater than 0");
  CHECK(specs[1].name == "iterations");
  CHECK(specs[1].default_value == 50);
  CHECK(specs[1].check(json(0)) == "0 is below the minimum 1");
  CHECK(specs[1].check(json(10001)) == "10001 is above the maximum 10000");
}

namespace {

// The tutorial's Erode() as written: one in-place scan, x outer, y inner, in
// double on float heights. The oracle for the wavefront schedule.
void scan_pass(heightfield& h, double threshold) {
  for (int i = 1; i < h.width() - 1; ++i) {
    for (int j = 1; j < h.height() - 1; ++j) {
      const double c = h.at(i, j);
      double d_max = 0.0;
      int mu = 0, mv = 0;
      for (int u = -1; u <= 1; ++u) {
        for (int v = -1; v <= 1; ++v) {
          if (u == 0 && v == 0) continue;
          const double d = c - static_cast<double>(h.at(i + u, j + v));
          if (d > d_max) {
            d_max = d;
            mu = u;
            mv = v;
          }
        }
      }
      if (0.0 < d_max && d_max <= threshold) {
        const double d_h = 0.5 * d_max;
        h.at(i, j) = static_cast<float>(c - d_h);
        h.at(i + mu, j + mv) = static_cast<float>(static_cast<double>(h.at(i + mu, j + mv)) + d_h);
      }
    }
  }
}

// The tutorial's Smoothen() as written (the oracle for smooth's wavefronts).
void smoothen_scan(heightfield& h) {
  for (int i = 1; i < h.width() - 1; ++i) {
    for (int j = 1; j < h.height() - 1; ++j) {
      double total = 0.0;
      for (int u = -1; u <= 1; ++u)
        for (int v = -1; v <= 1; ++v) total += h.at(i + u, j + v);
      h.at(i, j) = static_cast<float>(total / 9.0);
    }
  }
}

// Gentle random slopes quantised to 1/64, so that ties between neighbours
// and drops exactly at the threshold are common; some cells tiny, to mix
// exponents.
heightfield tie_field(int w, int ht, std::uint64_t seed) {
  heightfield h = make_field(w, ht);
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> step(0, 5);
  for (int j = 0; j < ht; ++j)
    for (int i = 0; i < w; ++i) {
      const int q = (i + 2 * j) / 3 + step(rng);
      h.at(i, j) = (i * 7 + j) % 23 == 0 ? 1e-30f * static_cast<float>(q) : static_cast<float>(q) / 64.0f;
    }
  return h;
}

struct target_reset {
  ~target_reset() { hwy::SetSupportedTargetsForTest(0); }
};

}  // namespace

TEST_CASE("olsen_erosion and smooth tutorial: wavefronts equal the in-place scans bit for bit on every SIMD target",
          "[stages][olsen_erosion][simd]") {
  const target_reset reset;
  std::vector<std::string> tested;
  for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    const std::string name = inplace_scan::wavefront_target();
    REQUIRE(name == hwy::TargetName(target));
    tested.push_back(name);
    // Narrow, square, tall and wide maps: wavefronts shorter and longer than
    // a vector, and corner wavefronts without interior cells.
    for (const auto& [w, ht] :
         std::vector<std::pair<int, int>>{{3, 40}, {40, 3}, {9, 7}, {37, 23}, {61, 61}, {130, 17}}) {
      CAPTURE(name, w, ht);
      const double threshold = 5.0 / 64.0;  // 5 quantisation steps: some drops move, some are cliffs
      heightfield expected = tie_field(w, ht, static_cast<std::uint64_t>(w * 1000 + ht));
      inplace_scan::skewed_grid grid = inplace_scan::to_skewed(expected);
      for (int pass = 0; pass < 3; ++pass) {
        scan_pass(expected, threshold);
        inplace_scan::erode_wavefronts(grid, 0, grid.wavefronts(), threshold);
      }
      heightfield got = make_field(w, ht);
      inplace_scan::from_skewed(grid, got);
      CHECK(bit_equal(got.values(), expected.values()));
      smoothen_scan(expected);
      inplace_scan::smooth_wavefronts(grid, 0, grid.wavefronts());
      inplace_scan::from_skewed(grid, got);
      CHECK(bit_equal(got.values(), expected.values()));
    }
  }
  CHECK(tested.size() >= 2);
}
