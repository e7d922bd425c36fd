#pragma once
/// @file
/// A world-aligned coarse grid: the frame of a stage's `tiling: "coarse"`
/// mode, which runs a whole-world computation at a lower resolution and
/// brings its result back to every cell of any region.
///
/// Coarse cell (I, J) covers the world cells [I f, (I + 1) f) x [J f, (J + 1) f)
/// counted from the world's origin (the last column and row clipped by the
/// world's edge), f = `factor`. Its value is the mean of those cells. A world
/// cell's value is the uniform cubic B-spline of the coarse values at its
/// centre, `(u + 0.5) / f - 0.5` coarse cells from the first centre (clamped
/// to the grid; the outer values repeat). The B-spline is C2 (no creases in a
/// hillshade, no lines in curvature) and its weights are positive (no
/// overshoot: a positive field stays positive); it keeps constants and linear
/// ramps and smooths a coarse value by 1/6 of each neighbour. The result
/// depends only on the cell's world position: a region gets the same bits as
/// the same window of the world.

#include <cstdint>
#include <vector>

#include "landform/core/heightfield.hpp"

namespace landform {

struct coarse_grid {
  world_extent world;
  int factor = 1;  ///< world cells per coarse cell along each axis, >= 1

  /// Coarse cells across: ceil(world.width / factor).
  [[nodiscard]] int width() const { return static_cast<int>((world.width + factor - 1) / factor); }
  /// Coarse cells down: ceil(world.height / factor).
  [[nodiscard]] int height() const { return static_cast<int>((world.height + factor - 1) / factor); }
  /// The coarse grid as a region: cell_size = factor x `cell_size`.
  [[nodiscard]] region coarse_region(double cell_size) const;
  /// The world rows [first, last) (from the world's top) that coarse rows
  /// [j0, j1) average.
  [[nodiscard]] std::int64_t first_row(int j0) const { return std::int64_t{j0} * factor; }
  [[nodiscard]] std::int64_t last_row(int j1) const;
};

/// Box means of the coarse rows [j0, j1) into `coarse` (width() x height(),
/// row-major, float32), from `values`: a field over `area` (area.width x
/// area.height, row-major) that spans the world's full width and holds every
/// world row those coarse rows average. Each mean sums its cells in double,
/// row by row, left to right, so any split of the world into strips of whole
/// coarse rows gives the same bits as the world at once.
/// @throws std::invalid_argument when `area` does not hold those rows or the
/// world's width, or `coarse` has the wrong size.
void box_mean_rows(const coarse_grid& g, const region& area, const std::vector<float>& values, int j0, int j1,
                   std::vector<float>& coarse, int nthreads);

/// Adds the B-spline interpolation of `coarse` (width() x height()) at
/// every cell of `area` (a region of the world) to `values` (area.width x
/// area.height, row-major). Rows in parallel; bit-identical for any thread
/// count and for any region containing the cell.
void add_interpolated(const coarse_grid& g, const std::vector<float>& coarse, const region& area,
                      std::vector<float>& values, int nthreads);

}  // namespace landform
