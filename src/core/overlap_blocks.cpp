#include "landform/core/overlap_blocks.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace landform {

namespace {

// The cells [begin, end) of one axis, from the world's origin.
struct span1d {
  std::int64_t begin = 0, end = 0;
};

// One axis of the block grid: cores of `block` cells from 0, the last cut at
// `world` cells, each grown by `overlap` (clipped).
struct axis {
  std::int64_t block = 1, overlap = 0, world = 1;

  [[nodiscard]] std::int64_t count() const { return (world + block - 1) / block; }
  [[nodiscard]] span1d core(std::int64_t b) const { return {b * block, std::min((b + 1) * block, world)}; }
  [[nodiscard]] span1d extent(std::int64_t b) const {
    const span1d c = core(b);
    return {std::max<std::int64_t>(0, c.begin - overlap), std::min(world, c.end + overlap)};
  }

  // Block b's weight at cell u: 1 inside its core away from other blocks,
  // 0 outside, and across each inner boundary a smoothstep over the
  // `overlap` cells centred on it (the neighbour's weight there is 1 minus
  // it). The outer half of the overlap is computed but never weighted: it
  // feeds droplets into the fade, so the block's own edge (droplets leaving
  // it, none coming in) stays out of the result. Sampled at cell centres:
  // both sides of a boundary get 1/2.
  [[nodiscard]] double weight(std::int64_t b, std::int64_t u) const {
    const span1d c = core(b);
    if (overlap == 0) return u >= c.begin && u < c.end ? 1.0 : 0.0;
    const double centre = static_cast<double>(u) + 0.5, width = static_cast<double>(overlap);
    auto rise = [&](std::int64_t boundary) {
      const double t = std::clamp((centre - static_cast<double>(boundary)) / width + 0.5, 0.0, 1.0);
      return t * t * (3.0 - 2.0 * t);
    };
    double w = 1.0;
    if (c.begin > 0) w = rise(c.begin);
    if (c.end < world) w *= 1.0 - rise(c.end);
    return w;
  }
};

void check_grid(const heightfield& h, const world_extent& world, const overlap_blocks& grid) {
  if (grid.block < 1 || grid.overlap < 0 || grid.block < 2 * grid.overlap) {
    throw std::invalid_argument("run_overlap_blocks: block " + std::to_string(grid.block) + " and overlap " +
                                std::to_string(grid.overlap) + " need block >= 1, overlap >= 0, block >= 2 overlap");
  }
  const region& r = h.placement();
  if (r.origin_x < world.origin_x || r.origin_y < world.origin_y ||
      r.origin_x + r.width > world.origin_x + world.width || r.origin_y + r.height > world.origin_y + world.height) {
    throw std::invalid_argument("run_overlap_blocks: the heightfield lies outside the world");
  }
}

// The blocks of one axis whose extent lies inside [begin, end).
span1d blocks_inside(const axis& a, std::int64_t begin, std::int64_t end) {
  span1d out{a.count(), 0};
  for (std::int64_t b = 0; b < a.count(); ++b) {
    const span1d e = a.extent(b);
    if (e.begin >= begin && e.end <= end) {
      out.begin = std::min(out.begin, b);
      out.end = b + 1;
    }
  }
  return out;
}

}  // namespace

void run_overlap_blocks(heightfield& h, const world_extent& world, const overlap_blocks& grid, std::size_t map_count,
                        const overlap_block_fn& run, std::vector<std::vector<float>>& maps) {
  check_grid(h, world, grid);
  const region& r = h.placement();
  const axis ax{grid.block, grid.overlap, world.width}, ay{grid.block, grid.overlap, world.height};
  const std::int64_t x0 = r.origin_x - world.origin_x, y0 = r.origin_y - world.origin_y;
  const span1d bxs = blocks_inside(ax, x0, x0 + r.width), bys = blocks_inside(ay, y0, y0 + r.height);
  const auto w = static_cast<std::size_t>(r.width);

  std::vector<float> sum(h.size(), 0.0f), weight(h.size(), 0.0f);
  maps.assign(map_count, {});
  const int count =
      static_cast<int>(std::max<std::int64_t>(0, bxs.end - bxs.begin) * std::max<std::int64_t>(0, bys.end - bys.begin));
  int index = 0;
  std::vector<std::vector<float>> block_maps;
  for (std::int64_t by = bys.begin; by < bys.end; ++by) {
    for (std::int64_t bx = bxs.begin; bx < bxs.end; ++bx) {
      const span1d ex = ax.extent(bx), ey = ay.extent(by);
      // crop() places the block at its window of the world.
      heightfield field = h.crop(static_cast<int>(ex.begin - x0), static_cast<int>(ey.begin - y0),
                                 static_cast<int>(ex.end - ex.begin), static_cast<int>(ey.end - ey.begin));
      const region& br = field.placement();
      block_maps.assign(map_count, {});
      run(field, overlap_block{bx, by, index++, count}, block_maps);

      std::vector<double> wx(static_cast<std::size_t>(br.width));
      for (int i = 0; i < br.width; ++i) wx[static_cast<std::size_t>(i)] = ax.weight(bx, ex.begin + i);
      for (std::size_t m = 0; m < map_count; ++m) {
        if (!block_maps[m].empty() && maps[m].empty()) maps[m].assign(h.size(), 0.0f);
      }
      for (int j = 0; j < br.height; ++j) {
        const double wy = ay.weight(by, ey.begin + j);
        if (wy == 0.0) continue;
        const std::size_t row =
            static_cast<std::size_t>(ey.begin - y0 + j) * w + static_cast<std::size_t>(ex.begin - x0);
        const std::size_t src = static_cast<std::size_t>(j) * static_cast<std::size_t>(br.width);
        for (std::size_t i = 0; i < wx.size(); ++i) {
          const auto k = static_cast<float>(wx[i] * wy);
          if (k == 0.0f) continue;
          sum[row + i] += k * field.values()[src + i];
          weight[row + i] += k;
          for (std::size_t m = 0; m < map_count; ++m) {
            if (!block_maps[m].empty()) maps[m][row + i] += k * block_maps[m][src + i];
          }
        }
      }
    }
  }
  std::vector<float>& v = h.values();
  for (std::size_t c = 0; c < v.size(); ++c) {
    if (weight[c] == 0.0f) continue;
    v[c] = sum[c] / weight[c];
    for (auto& m : maps) {
      if (!m.empty()) m[c] /= weight[c];
    }
  }
}

}  // namespace landform
