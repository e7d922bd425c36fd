#pragma once
/// @file
/// Local surface geometry from 3x3 neighbourhoods: Horn's gradient, slope,
/// aspect and Zevenbergen-Thorne curvature, in physical units.

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "landform/core/heightfield.hpp"

namespace landform {

/// How the border cells' missing neighbours are made up.
enum class edge_policy {
  /// Linear extrapolation from the cell and its inner neighbour (2·e − inner):
  /// a plane stays exactly a plane up to the border. The default.
  extrapolate,
  /// The border value repeated (flat outside).
  clamp,
};

/// The `edges` option every derived map offers: names in preset order.
const std::vector<std::pair<std::string, edge_policy>>& edge_policy_choices();
/// Its one-line doc.
inline constexpr const char* k_edge_policy_doc =
    "world border: extrapolate the surface linearly, or repeat the border height";

/// Per-cell partial derivatives in metres per metre: `east` = dz/dx with x to
/// the east (image right), `north` = dz/dy with y to the north (image up).
/// Each vector is width x height, row-major, float32.
struct surface_gradient {
  std::vector<float> east;
  std::vector<float> north;
};

/// Horn's method (B. K. P. Horn, "Hill shading and the reflectance map",
/// Proc. IEEE 69(1), 1981), as GDAL's gdaldem uses: the 3x3 window
/// a b c / d e f / g h i (top row north) gives
/// dz/dx = ((c + 2f + i) − (a + 2d + g)) / (8 · cell_size) and
/// dz/dy(north) = ((a + 2b + c) − (g + 2h + i)) / (8 · cell_size), heights in
/// metres (height · height_scale). Rows run in parallel; the result does not
/// depend on the thread count.
surface_gradient horn_gradient(const heightfield& h, double height_scale, edge_policy edges, int nthreads);

/// The columns [first, second) of [x0, x0 + n) in row `j` of `h` whose 3x3
/// windows lie inside the field (Horn's interior cells, no edge policy
/// needed); the cells of [x0, x0 + n) left and right of it are border cells.
/// An empty span (first == second) when row `j` is the first or last row, or
/// the field is at most 2 cells wide. Requires 0 <= j < height and
/// 0 <= x0 <= x0 + n <= width.
std::pair<int, int> horn_interior_span(const heightfield& h, int j, int x0, int n);

/// Horn's gradient of the `n` cells [x0, x0 + n) of row `j` of `h` into
/// `east` and `north` (n floats each, metres per metre): the values
/// horn_gradient gives at those cells, bit for bit. For computing a few rows
/// or cells without the two full-size arrays. Requires 0 <= j < height and
/// 0 <= x0 <= x0 + n <= width.
void horn_gradient_row(const heightfield& h, double height_scale, edge_policy edges, int j, int x0, int n, float* east,
                       float* north);

/// Cells of `h` whose Horn gradient (horn_gradient with `edges`) overflows
/// float32: a slope beyond 3.4e38 m/m, from heights x height_scale far too
/// large for the cell size. Derived maps cannot show such a cell (its
/// downhill direction is lost: an aspect would snap to a diagonal, a normal
/// lie flat towards one). Cheap when the height range rules it out (a bound
/// on Horn's sums, edge extrapolation included); otherwise the gradient is
/// computed once.
std::size_t horn_gradient_overflows(const heightfield& h, double height_scale, edge_policy edges, int nthreads);

/// Slope in degrees, atan(|gradient|), from 0 (flat) to < 90.
float slope_degrees(float east, float north);

/// Aspect: the compass direction the slope faces (downhill), degrees clockwise
/// from north in [0, 360); -1 for a flat cell. Matches gdaldem aspect.
float aspect_degrees(float east, float north);

/// Which curvature `surface_curvature` returns.
enum class curvature_kind { profile, plan, mean };

/// Curvature in 1/m after Zevenbergen and Thorne, "Quantitative analysis of
/// land surface topography", Earth Surface Processes and Landforms 12, 1987,
/// from the coefficients D = ((d + f)/2 − e)/L², E = ((b + h)/2 − e)/L²,
/// F = (c + g − a − i)/(4L²), G = (f − d)/(2L), H = (b − h)/(2L):
/// profile (along the slope) = −2(DG² + EH² + FGH)/(G² + H²),
/// plan (across it) = 2(DH² + EG² − FGH)/(G² + H²), mean = −(D + E).
/// Positive profile curvature is convex (water accelerates), negative concave.
/// Flat cells (G = H = 0) give 0 for profile and plan. Width x height values.
std::vector<float> surface_curvature(const heightfield& h, double height_scale, curvature_kind kind, edge_policy edges,
                                     int nthreads);

}  // namespace landform
