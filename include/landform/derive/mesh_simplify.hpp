#pragma once
/// @file
/// Simplifies a heightfield's vertex grid to a vertical error bound in
/// metres, or to a triangle budget, with a right-triangulated irregular
/// network (RTIN: Evans, Kirkpatrick and Townsend 2001, "Right-Triangulated
/// Irregular Networks", Algorithmica 30; the longest-edge bisection
/// hierarchy of Lindstrom et al. 1996 and of Mapbox's Martini), whose error
/// is the exact vertical distance to the heights at every grid point.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "landform/derive/terrain_mesh.hpp"

namespace landform {

/// What simplify_to_error did.
struct simplify_result {
  std::vector<std::uint32_t> indices;  ///< the kept triangles (over the grid's vertices), counter-clockwise from +Y
  double error = 0.0;                  ///< measured max vertical error (max_vertical_error), metres
  double threshold = 0.0;              ///< the RTIN error threshold used, metres (>= error)
  bool capped = false;                 ///< max_triangles won: the error bound was not met
  std::size_t folded = 0;              ///< kept triangles folded over in plan (folded_triangles): 0 by construction
};

/// Triangles over the vertex grid `grid` (vertex k is grid point (k %
/// columns, k / columns), as grid_mesh numbers them) whose maximum vertical
/// error against `y` (grid_heights: metres, columns * rows, row major) is at
/// most `max_error` metres at every grid point, and which number at most
/// `max_triangles` (0: no cap). When the bound needs more than
/// `max_triangles` triangles the cap wins: the result is the most accurate
/// RTIN mesh within the cap (`capped` set, `error` the achieved maximum).
///
/// Method: the grid is embedded in a square of 2^k cells, split by longest-
/// edge bisection into right isosceles triangles whose vertices are grid
/// points. Every triangle's error is measured exactly (the largest |plane -
/// height| over the grid points it covers, edges included) and, finest
/// level first, stored at the midpoint of its hypotenuse as the maximum of
/// its own error, its partner's across that hypotenuse and its children's
/// (Martini's propagation), so the mesh of any threshold, the triangles
/// whose midpoint error is within it, is conforming (no T-junctions) and
/// within the threshold everywhere. Triangles reaching past the grid are
/// split until they fit or lie outside; triangles with a hypotenuse on the
/// grid border are always split, so every border vertex stays and
/// neighbouring tiles share their seam exactly. Triangle counts fall
/// monotonically as the threshold rises; the cap is met by bisection over
/// the measured errors. `max_error` 0 with no cap returns grid_mesh's own
/// full-grid triangles. Cost: O(cells x log cells) time, one double per grid
/// point of memory. Deterministic (single-threaded).
///
/// Throws std::invalid_argument when `max_triangles` is below the coarsest
/// mesh (the locked border alone; it depends on the grid's size only):
/// "value N, must be at least M for a C x R vertex grid (...)".
simplify_result simplify_to_error(const mesh_grid& grid, const std::vector<double>& y, double max_error,
                                  std::size_t max_triangles = 0);

}  // namespace landform
