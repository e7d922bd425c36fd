#pragma once
/// @file
/// A function through control points, linear or monotone cubic: the curve of
/// the `curve` stage, and the falloff and remap of blob_island.

#include <array>
#include <string>
#include <vector>

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

}  // namespace landform
