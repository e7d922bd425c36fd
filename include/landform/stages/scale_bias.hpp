#pragma once
/// @file
/// `scale_bias`: h' = h * scale + bias.

#include "landform/stages/stage.hpp"

namespace landform {

/// Parameters of the `scale_bias` filter.
struct scale_bias_params {
  double scale = 1.0;  ///< multiplier, any finite value (negative flips)
  double bias = 0.0;   ///< height units added after scaling

  static const param_schema<scale_bias_params>& schema();
};

/// h' = h * scale + bias (in double, rounded once to float).
///
/// Method: the linear remap of libnoise's ScaleBias module. Scale a layer
/// before adding it (or use the generator's `weight`), lift a map above sea
/// level, or turn [-1, 1] noise into [0, 1] with scale 0.5, bias 0.5.
/// Parameters: `scale` (0.1 to 2 typical), `bias`.
/// @pre none.
/// @post exact for scale 1 and bias 0 (the identity).
/// Pointwise; rows run in parallel and the result does not depend on the
/// thread count.
void apply_scale_bias(heightfield& h, const scale_bias_params& p, const stage_context& ctx);

stage_info scale_bias_stage_info();

}  // namespace landform
