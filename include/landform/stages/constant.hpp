#pragma once
/// @file
/// `constant`: a flat layer.

#include "landform/stages/stage.hpp"

namespace landform {

/// Parameters of the `constant` generator.
struct constant_params {
  double value = 0.0;  ///< height units, any finite value

  static const param_schema<constant_params>& schema();
};

/// Sets every cell to `value`.
///
/// Method: none; a flat layer to start a stack from, to raise or lower a map
/// with `blend: add`, or to fill a mask layer (`target`).
/// Parameters: `value`, the height written (any finite number).
/// @pre none.
/// @post every cell equals (float)value.
/// Pointwise; rows run in parallel and the result does not depend on the
/// thread count.
void apply_constant(heightfield& h, const constant_params& p, const stage_context& ctx);

stage_info constant_stage_info();

}  // namespace landform
