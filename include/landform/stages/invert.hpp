#pragma once
/// @file
/// `invert`: flips heights within a range.

#include "landform/stages/stage.hpp"

namespace landform {

/// Parameters of the `invert` filter.
struct invert_params {
  double min = 0.0;  ///< height units: becomes max
  double max = 1.0;  ///< height units: becomes min

  static const param_schema<invert_params>& schema();
};

/// h' = min + max - h: valleys become ridges and ridges valleys.
///
/// Method: a reflection about (min + max) / 2, so [min, max] maps onto itself
/// reversed. With the defaults, 1 - h: inverted Worley F1 gives rounded hills,
/// inverted ridged noise gives canyons.
/// Parameters: `min`, `max`, the range that maps onto itself.
/// @pre none.
/// @post applying it twice gives the input back (up to float rounding).
/// Pointwise; rows run in parallel and the result does not depend on the
/// thread count.
void apply_invert(heightfield& h, const invert_params& p, const stage_context& ctx);

stage_info invert_stage_info();

}  // namespace landform
