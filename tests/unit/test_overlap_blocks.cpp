// overlap_blocks (issue 12): world-aligned blocks grown by an overlap and
// cross-faded, the tiling of droplet erosion. The weights are a partition of
// unity, a core away from its boundaries is its block's result exactly, and
// a window computes the same cells as the whole world.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "bit_equal.hpp"
#include "landform/core/overlap_blocks.hpp"

using landform::heightfield;
using landform::overlap_block;
using landform::overlap_blocks;
using landform::run_overlap_blocks;
using landform::world_extent;

namespace {

heightfield ramp(const landform::region& r) {
  heightfield h(r);
  for (int y = 0; y < h.height(); ++y)
    for (int x = 0; x < h.width(); ++x)
      h.at(x, y) = 0.01f * static_cast<float>(r.origin_x + x) - 0.02f * static_cast<float>(r.origin_y + y);
  return h;
}

landform::region area(int w, int h, std::int64_t x = 0, std::int64_t y = 0) {
  return {w, h, x, y, 1.0};
}

// A filter whose result tells the blocks apart: adds 10 bx + by + 1, and a
// side map of 1s.
void mark(heightfield& f, const overlap_block& b, std::vector<std::vector<float>>& maps) {
  for (float& v : f.values()) v += 10.0f * static_cast<float>(b.bx) + static_cast<float>(b.by) + 1.0f;
  maps[0].assign(f.size(), 1.0f);
}

}  // namespace

TEST_CASE("overlap_blocks: the weights sum to one and cores keep their block's result", "[core][overlap_blocks]") {
  const world_extent world{0, 0, 70, 50};  // the last blocks are cut by the world's edge
  const overlap_blocks grid{16, 4};
  heightfield h = ramp(area(70, 50));
  const heightfield input = h;
  std::vector<std::vector<float>> maps;
  int calls = 0;
  run_overlap_blocks(
      h, world, grid, 1,
      [&](heightfield& f, const overlap_block& b, std::vector<std::vector<float>>& m) {
        CHECK(b.index == calls++);
        CHECK(b.count == 5 * 4);
        // The block's grown extent, clipped to the world.
        CHECK(f.placement().origin_x == std::max<std::int64_t>(0, 16 * b.bx - 4));
        CHECK(f.placement().width == std::min<std::int64_t>(70, 16 * b.bx + 20) - f.placement().origin_x);
        mark(f, b, m);
      },
      maps);
  CHECK(calls == 20);
  REQUIRE(maps.size() == 1);
  REQUIRE(maps[0].size() == h.size());
  for (int y = 0; y < 50; ++y) {
    for (int x = 0; x < 70; ++x) {
      INFO(x << ", " << y);
      // Blending 1s gives 1: the weights are a partition of unity.
      CHECK(std::abs(maps[0][static_cast<std::size_t>(y) * 70 + static_cast<std::size_t>(x)] - 1.0f) < 1e-6f);
      const float added = h.at(x, y) - input.at(x, y);
      const int bx = x / 16, by = y / 16;
      // The fade spans the 4 cells centred on each boundary.
      const bool inner_x = (x % 16 >= 2 || bx == 0) && (x % 16 < 14 || bx == 4);
      const bool inner_y = (y % 16 >= 2 || by == 0) && (y % 16 < 14 || by == 3);
      if (inner_x && inner_y) {
        // Away from every boundary: the block's own result.
        CHECK(h.at(x, y) == input.at(x, y) + (10.0f * static_cast<float>(bx) + static_cast<float>(by) + 1.0f));
      } else {
        // In a band: between the smallest and largest neighbouring mark.
        CHECK(added >=
              10.0f * static_cast<float>(std::max(0, bx - 1)) + static_cast<float>(std::max(0, by - 1)) + 1.0f - 1e-4f);
        CHECK(added <= 10.0f * static_cast<float>(bx + 1) + static_cast<float>(by + 1) + 1.0f + 1e-4f);
      }
    }
  }
  SECTION("the cross-fade is a smooth ramp: half and half on a boundary") {
    // Cells 15 and 16 straddle the boundary of blocks 0 and 1 (marks 1 and 11).
    const float left = h.at(15, 8) - input.at(15, 8), right = h.at(16, 8) - input.at(16, 8);
    CHECK(std::abs(left + right - 12.0f * 2.0f / 2.0f) < 1e-4f);  // symmetric about 6
    CHECK(left < 6.0f);
    CHECK(right > 6.0f);
  }
}

TEST_CASE("overlap_blocks: a window grown by the halo computes its cells as the world does", "[core][overlap_blocks]") {
  const world_extent world{-8, 4, 96, 80};
  const overlap_blocks grid{24, 6};
  heightfield whole = ramp(area(96, 80, -8, 4));
  std::vector<std::vector<float>> maps;
  const auto filter = [](heightfield& f, const overlap_block& b, std::vector<std::vector<float>>& m) {
    // Depends on every cell of the block: adds the block's mean.
    double sum = 0.0;
    for (float v : f.values()) sum += v;
    mark(f, b, m);
    for (float& v : f.values()) v += static_cast<float>(sum / static_cast<double>(f.size()));
  };
  run_overlap_blocks(whole, world, grid, 1, filter, maps);
  // The window [40, 59) x [30, 47) of the world, grown by the halo and
  // clipped to the world.
  const int halo = grid.halo();
  const int x0 = std::max(0, 40 - halo), y0 = std::max(0, 30 - halo);
  const int x1 = std::min(96, 59 + halo), y1 = std::min(80, 47 + halo);
  heightfield part = ramp(area(x1 - x0, y1 - y0, -8 + x0, 4 + y0));
  run_overlap_blocks(part, world, grid, 1, filter, maps);
  CHECK(landform_test::bit_equal(part.crop(40 - x0, 30 - y0, 19, 17), whole.crop(40, 30, 19, 17)));
}

TEST_CASE("overlap_blocks: no overlap is plain blocks; bad grids are refused", "[core][overlap_blocks]") {
  heightfield h = ramp(area(40, 40));
  const heightfield input = h;
  std::vector<std::vector<float>> maps;
  run_overlap_blocks(h, {0, 0, 40, 40}, {16, 0}, 1, mark, maps);
  CHECK(h.at(15, 0) == input.at(15, 0) + 1.0f);
  CHECK(h.at(16, 0) == input.at(16, 0) + 11.0f);
  CHECK(h.at(39, 39) == input.at(39, 39) + 23.0f);
  const auto noop = [](heightfield&, const overlap_block&, std::vector<std::vector<float>>&) {};
  CHECK_THROWS_AS(run_overlap_blocks(h, {0, 0, 40, 40}, {16, 9}, 0, noop, maps), std::invalid_argument);
  CHECK_THROWS_AS(run_overlap_blocks(h, {0, 0, 40, 40}, {0, 0}, 0, noop, maps), std::invalid_argument);
  CHECK_THROWS_AS(run_overlap_blocks(h, {1, 0, 40, 40}, {16, 4}, 0, noop, maps), std::invalid_argument);
}
