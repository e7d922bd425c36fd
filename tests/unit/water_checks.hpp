#pragma once
// Checks of a water network shared by the water and river_carve tests: the
// GeoJSON lines rasterised at their widths, their IoU with the river mask,
// and a plain Priority-Flood fill depth (closed depressions).

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <queue>
#include <tuple>
#include <vector>

namespace landform_test {

inline std::size_t cell_at(int w, int x, int y) {
  return static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x);
}

/// Cells within half a river's width of a parsed GeoJSON network (the mask's
/// 0.5 contour), in grid cells.
inline std::vector<std::uint8_t> rasterise(const nlohmann::json& fc, int w, int h, double cs) {
  std::vector<std::uint8_t> out(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), 0);
  for (const auto& feature : fc["features"]) {
    const auto& coords = feature["geometry"]["coordinates"];
    const auto& widths = feature["properties"]["widths_m"];
    for (std::size_t k = 0; k + 1 < coords.size(); ++k) {
      const double ax = coords[k][0].get<double>() / cs, ay = -coords[k][1].get<double>() / cs;
      const double bx = coords[k + 1][0].get<double>() / cs, by = -coords[k + 1][1].get<double>() / cs;
      const double half = widths[k].get<double>() / 2.0 / cs;
      for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
          const double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
          const double t = std::clamp(len2 > 0 ? ((x - ax) * dx + (y - ay) * dy) / len2 : 0.0, 0.0, 1.0);
          const double ex = x - (ax + t * dx), ey = y - (ay + t * dy);
          if (std::sqrt(ex * ex + ey * ey) <= half + 1e-3) out[cell_at(w, x, y)] = 1;
        }
      }
    }
  }
  return out;
}

/// `world` as the tile of `width` x `height` cells at `origin` of its
/// `world_width` x `world_height` world.
inline nlohmann::json tile_preset(nlohmann::json world, int world_width, int world_height, int width, int height,
                                  int x0, int y0) {
  world["world"] = {world_width, world_height};
  world["size"] = {width, height};
  world["origin"] = {x0, y0};
  return world;
}

/// Cells of a tile's values (tile_width wide, at x0, y0) that differ from the
/// same window of the world's (world_width wide).
inline std::size_t window_mismatches(const std::vector<float>& world, int world_width, const std::vector<float>& tile,
                                     int tile_width, int x0, int y0) {
  std::size_t mismatches = 0;
  const int tile_height = static_cast<int>(tile.size() / static_cast<std::size_t>(tile_width));
  for (int y = 0; y < tile_height; ++y)
    for (int x = 0; x < tile_width; ++x)
      mismatches += tile[cell_at(tile_width, x, y)] != world[cell_at(world_width, x0 + x, y0 + y)];
  return mismatches;
}

/// Intersection over union of `lines` and the cells where `mask` >= 0.5.
inline double mask_iou(const std::vector<std::uint8_t>& lines, const std::vector<float>& mask) {
  std::size_t both = 0, either = 0;
  for (std::size_t c = 0; c < lines.size(); ++c) {
    const bool m = mask[c] >= 0.5f;
    both += m && lines[c];
    either += m || lines[c];
  }
  return static_cast<double>(both) / static_cast<double>(std::max<std::size_t>(either, 1));
}

/// How deep each cell lies in a closed depression (plain Priority-Flood from
/// the border, 8 neighbours, no epsilon: flats are not depressions), in the
/// heights' units.
inline std::vector<double> fill_depth(const std::vector<float>& z, int w, int h) {
  std::vector<double> level(z.begin(), z.end());
  std::vector<std::uint8_t> done(z.size(), 0);
  using entry = std::tuple<double, std::size_t>;
  std::priority_queue<entry, std::vector<entry>, std::greater<>> open;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
        done[cell_at(w, x, y)] = 1;
        open.emplace(level[cell_at(w, x, y)], cell_at(w, x, y));
      }
    }
  }
  while (!open.empty()) {
    const auto [l, c] = open.top();
    open.pop();
    const int cx = static_cast<int>(c % static_cast<std::size_t>(w)),
              cy = static_cast<int>(c / static_cast<std::size_t>(w));
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        const int x = cx + dx, y = cy + dy;
        if (x < 0 || y < 0 || x >= w || y >= h) continue;
        const std::size_t m = cell_at(w, x, y);
        if (done[m]) continue;
        done[m] = 1;
        level[m] = std::max(level[m], l);
        open.emplace(level[m], m);
      }
    }
  }
  for (std::size_t c = 0; c < z.size(); ++c) level[c] -= static_cast<double>(z[c]);
  return level;
}

}  // namespace landform_test
