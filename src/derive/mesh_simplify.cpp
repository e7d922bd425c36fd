#include "landform/derive/mesh_simplify.hpp"

#include <meshoptimizer.h>

#include <algorithm>
#include <cmath>

namespace landform {

namespace {

constexpr int k_max_passes = 10;

// One meshopt_simplify call at `relative` error (of the mesh extent), as
// far down as the error allows (target index count 0), border locked.
std::vector<std::uint32_t> simplify_once(const terrain_mesh& mesh, float relative) {
  std::vector<std::uint32_t> out(mesh.indices.size());
  const std::size_t kept =
      meshopt_simplify(out.data(), mesh.indices.data(), mesh.indices.size(), mesh.positions.data(), mesh.vertex_count(),
                       3 * sizeof(float), 0, relative, meshopt_SimplifyLockBorder, nullptr);
  out.resize(kept);
  return out;
}

}  // namespace

simplify_result simplify_to_error(const terrain_mesh& mesh, const std::vector<double>& y, const mesh_grid& grid,
                                  double max_error) {
  simplify_result best;
  best.indices = mesh.indices;
  if (max_error <= 0.0) return best;
  const double extent = meshopt_simplifyScale(mesh.positions.data(), mesh.vertex_count(), 3 * sizeof(float));
  if (!(extent > 0.0)) return best;
  // Largest relative target whose measured error is within the bound: from
  // max_error / extent, grow (while passing) or shrink (while failing) by
  // the error ratio, then bisect geometrically between the largest passing
  // and the smallest failing target.
  double fail = 0.0, pass = 0.0, target = max_error / extent;
  for (int k = 1; k <= k_max_passes; ++k) {
    std::vector<std::uint32_t> indices = simplify_once(mesh, static_cast<float>(target));
    const double error = max_vertical_error(indices, y, grid.columns, grid.rows);
    best.passes = k;
    if (error <= max_error) {
      const bool same = pass > 0.0 && indices.size() == best.indices.size();
      if (indices.size() <= best.indices.size()) {
        best.indices = std::move(indices);
        best.error = error;
      }
      pass = std::max(pass, target);
      if (same) break;  // growing the target removes nothing more
    } else {
      fail = fail == 0.0 ? target : std::min(fail, target);
    }
    if (pass > 0.0 && fail > 0.0 && fail / pass < 1.15) break;
    const double ratio = error > 0.0 ? max_error / error : 4.0;
    target = pass > 0.0 && fail > 0.0 ? std::sqrt(pass * fail)
             : fail == 0.0            ? target * std::clamp(ratio, 1.25, 4.0)
                                      : target * std::clamp(ratio, 0.05, 0.9);
  }
  best.folded = folded_triangles(best.indices, grid.columns);
  return best;
}

}  // namespace landform
