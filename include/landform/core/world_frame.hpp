#pragma once
/// @file
/// World-normalised coordinates shared by the stages that lay shapes out on
/// the world (gradient, island_mask, fault_line, voronoi, blob_island, image).
///
/// The world covers cells [origin_x, origin_x + width) x [origin_y, origin_y +
/// height); cell u is the unit square [u, u + 1) of that frame with its sample
/// at the centre. So the normalised coordinate of cell u is
/// `(u - origin_x + 0.5) / width`, in (0, 1), and 0 and 1 are the world's
/// outer edges. The cell difference `u - origin_x` is an exact integer, so a
/// region computes bit-identical coordinates for the cells it shares with the
/// world.

#include <algorithm>
#include <cstdint>

#include "landform/core/heightfield.hpp"

namespace landform {

/// The region grown by `by` cells on every side, clipped to the world (the
/// area a region build computes for a halo of `by` cells).
inline region grown_within(const region& r, const world_extent& w, int by) {
  region out = r;
  const std::int64_t x0 = std::max(r.origin_x - by, w.origin_x);
  const std::int64_t y0 = std::max(r.origin_y - by, w.origin_y);
  const std::int64_t x1 = std::min(r.origin_x + r.width + by, w.origin_x + w.width);
  const std::int64_t y1 = std::min(r.origin_y + r.height + by, w.origin_y + w.height);
  out.origin_x = x0;
  out.origin_y = y0;
  out.width = static_cast<int>(x1 - x0);
  out.height = static_cast<int>(y1 - y0);
  return out;
}

/// Maps a region's cells into the world's normalised frame.
struct world_frame {
  world_extent world;
  region placement;

  world_frame(const world_extent& w, const region& r) : world(w), placement(r) {}

  /// Cells from the world's left edge to the centre of region column i.
  [[nodiscard]] double cells_x(int i) const {
    return static_cast<double>(placement.origin_x + i - world.origin_x) + 0.5;
  }
  /// Cells from the world's top edge to the centre of region row j.
  [[nodiscard]] double cells_y(int j) const {
    return static_cast<double>(placement.origin_y + j - world.origin_y) + 0.5;
  }
  /// Column i in [0, 1] across the world's width (0 and 1 are its edges).
  [[nodiscard]] double nx(int i) const { return cells_x(i) / world.width; }
  /// Row j in [0, 1] down the world's height.
  [[nodiscard]] double ny(int j) const { return cells_y(j) / world.height; }
  /// The world's smaller side, in cells: the unit of aspect-preserving shapes.
  [[nodiscard]] double short_side() const { return std::min(world.width, world.height); }
  /// Column i relative to the world's centre, in units of the smaller side
  /// (a square world gives nx - 0.5).
  [[nodiscard]] double ux(int i) const { return (cells_x(i) - 0.5 * world.width) / short_side(); }
  /// Row j relative to the world's centre, in units of the smaller side.
  [[nodiscard]] double uy(int j) const { return (cells_y(j) - 0.5 * world.height) / short_side(); }
};

}  // namespace landform
