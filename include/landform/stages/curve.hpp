#pragma once
/// @file
/// `curve`: remaps heights through control points.

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "landform/core/control_curve.hpp"
#include "landform/stages/stage.hpp"

namespace landform {

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
