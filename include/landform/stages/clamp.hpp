#pragma once
/// @file
/// `clamp`: limits heights to a range.

#include "landform/stages/stage.hpp"

namespace landform {

/// Parameters of the `clamp` filter.
struct clamp_params {
  double min = 0.0;  ///< height units: lowest height kept
  double max = 1.0;  ///< height units: highest height kept; >= min

  static const param_schema<clamp_params>& schema();
  void check(std::vector<std::pair<std::string, std::string>>& problems) const;
};

/// h' = min(max(h, min), max).
///
/// Method: a hard limit; flattens everything below `min` into a sea floor or
/// plain and cuts peaks above `max` into plateaus (mesas). Follow it with
/// `smooth` to round the new edges.
/// Parameters: `min`, `max` in height units.
/// @pre min <= max.
/// @post every height lies in [min, max]; heights inside are unchanged.
/// Pointwise; rows run in parallel and the result does not depend on the
/// thread count.
void apply_clamp(heightfield& h, const clamp_params& p, const stage_context& ctx);

stage_info clamp_stage_info();

}  // namespace landform
