#pragma once
/// @file
/// Simplifies a terrain_mesh's full grid to a vertical error bound in metres,
/// with meshoptimizer's edge-collapse simplifier (Garland and Heckbert 1997
/// quadrics; meshopt_simplify) and a measurement that holds it to the bound.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "landform/derive/terrain_mesh.hpp"

namespace landform {

/// What simplify_to_error did.
struct simplify_result {
  std::vector<std::uint32_t> indices;  ///< the kept triangles (over the grid's vertices)
  double error = 0.0;                  ///< measured max vertical error, metres
  int passes = 0;                      ///< meshopt_simplify calls (0: max_error 0, the full grid)
  std::size_t folded = 0;              ///< kept triangles folded over in plan (folded_triangles)
};

/// Triangles over the full grid mesh `mesh` (grid_mesh(grid), not yet
/// compacted) whose maximum vertical error against `y` (grid_heights) is at
/// most `max_error` metres at every grid point.
///
/// meshoptimizer takes an error relative to the mesh extent
/// (meshopt_simplifyScale: the largest side of the bounding box), so the
/// first pass asks for max_error / extent. Its error is a quadric (distance
/// to the planes of the original faces, not vertical), so the result is
/// measured with max_vertical_error (triangles folded over in plan are
/// measured too, and counted in `folded`); the target grows by the error ratio while the bound holds
/// and shrinks while it does not, then is bisected between the largest
/// passing and the smallest failing target, up to 10 passes; the passing result with the fewest triangles is kept (the
/// full grid if none passed). The border is locked
/// (meshopt_SimplifyLockBorder): every border vertex stays, so neighbouring
/// tiles share their seam exactly. Deterministic (single-threaded).
simplify_result simplify_to_error(const terrain_mesh& mesh, const std::vector<double>& y, const mesh_grid& grid,
                                  double max_error);

}  // namespace landform
