#pragma once
/// @file
/// `terrace`: flattens heights into steps with smooth risers.

#include "landform/stages/stage.hpp"

namespace landform {

/// Parameters of the `terrace` filter.
struct terrace_params {
  int steps = 8;            ///< terraces between min and max, 1 to 1024
  double min = 0.0;         ///< height units: bottom of the terraced range (a tread level)
  double max = 1.0;         ///< height units: top of the terraced range (a tread level); > min
  double smoothness = 0.2;  ///< 0 to 1: fraction of each step taken by its riser

  static const param_schema<terrace_params>& schema();
  void check(std::vector<std::pair<std::string, std::string>>& problems) const;
};

/// Turns slopes into flat treads and steep risers (rice terraces, mesas,
/// contour-line looks).
///
/// Method: with t = (h - min) / (max - min) x steps, k = floor(t) and
/// f = t - k, the riser occupies the last `smoothness` of each step:
/// u = clamp((f - (1 - smoothness)) / smoothness, 0, 1), g = 3u^2 - 2u^3,
/// h' = min + (k + g) / steps x (max - min). Treads sit at min + k (max - min)
/// / steps. The formula continues above max and below min with the same step
/// height.
/// Parameters: `steps` 3 to 20 reads as terraces, more as contour banding;
/// `smoothness` 0 gives vertical cliffs (staircase), 0.1 to 0.4 steep
/// natural risers, 1 an S-curve with no flat tread at all.
/// @pre min < max.
/// @post h' is a non-decreasing, continuous (for smoothness > 0) function of
/// h; heights that are tread levels are unchanged.
/// Pointwise; rows run in parallel and the result does not depend on the
/// thread count.
void apply_terrace(heightfield& h, const terrace_params& p, const stage_context& ctx);

stage_info terrace_stage_info();

}  // namespace landform
