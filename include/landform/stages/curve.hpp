#pragma once
/// @file
/// `curve`: remaps heights through control points; also the control-point
/// curve used by other stages (blob_island's falloff and remap).

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "landform/pipeline/stage.hpp"

namespace landform {

/// A function through control points (x, y) with strictly increasing x,
/// constant beyond the first and last point.
///
/// - `linear`: straight segments between the points.
/// - `smooth`: the monotone cubic Hermite spline of Fritsch and Carlson
///   ("Monotone piecewise cubic interpolation", SIAM J. Numer. Anal. 17, 1980):
///   C1, through every point, and monotone wherever the points are, so it
///   never overshoots them; its values stay within the points' y range.
class control_curve {
public:
  enum class kind { linear, smooth };

  /// `points` must have at least one point and strictly increasing x (see
  /// check_control_points); throws std::invalid_argument otherwise.
  control_curve(const std::vector<std::array<double, 2>>& points, kind k);

  [[nodiscard]] double operator()(double x) const;
  /// True for the identity on [0, 1] given as the points (0, 0) and (1, 1)
  /// only, which callers may skip.
  [[nodiscard]] bool is_identity() const;

private:
  std::vector<double> m_x, m_y, m_slope;  // m_slope: Hermite tangents (smooth only)
  kind m_kind;
};

/// The problem with a control point list, or empty: at least `min_points`
/// points, x strictly increasing. Messages name the offending point.
std::string check_control_points(const std::vector<std::array<double, 2>>& points, std::size_t min_points = 2);

/// Parameters of the `curve` filter.
struct curve_params {
  /// Control points (input height, output height), x strictly increasing.
  std::vector<std::array<double, 2>> points = {{0.0, 0.0}, {1.0, 1.0}};
  control_curve::kind interpolation = control_curve::kind::linear;

  static const param_schema<curve_params>& schema();
  void check(std::vector<std::pair<std::string, std::string>>& problems) const;
};

/// Replaces each height h by curve(h).
///
/// Method: the control points define a piecewise-linear or a monotone cubic
/// (Fritsch–Carlson) function of the height; heights below the first point's
/// x map to its y, above the last point's x to the last y. The classic artist
/// "curves" tool, e.g. `[[0,0],[0.4,0.1],[1,1]]` flattens lowlands into
/// plains and keeps peaks; `[[0,1],[1,0]]` inverts.
/// Parameters: `points` (2 to 64 points, any range; their y range is the
/// output range); `interpolation` linear (kinks at the points) or smooth
/// (no kinks, no overshoot).
/// @pre points have strictly increasing x (checked when the preset is built).
/// @post every height lies within [min y, max y] of the points.
/// Pointwise; rows run in parallel and the result does not depend on the
/// thread count.
void apply_curve(heightfield& h, const curve_params& p, const stage_context& ctx);

stage_info curve_stage_info();

}  // namespace landform
