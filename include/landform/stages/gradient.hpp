#pragma once
/// @file
/// `gradient`: linear and radial ramps laid out on the world.

#include "landform/stages/stage.hpp"

namespace landform {

/// Parameters of the `gradient` generator.
struct gradient_params {
  enum class shape_kind { linear, radial };
  shape_kind shape = shape_kind::linear;
  double start = 0.0;     ///< height units: value where the ramp starts
  double end = 1.0;       ///< height units: value where it ends
  double angle = 0.0;     ///< degrees, linear: direction of the ramp; 0 = +x (left to right), 90 = +y (top to bottom)
  double center_x = 0.5;  ///< world fraction, radial: centre column (0 = left edge, 1 = right edge)
  double center_y = 0.5;  ///< world fraction, radial: centre row (0 = top edge, 1 = bottom edge)
  double radius = 0.5;    ///< smaller world sides, radial: distance at which `end` is reached; > 0

  static const param_schema<gradient_params>& schema();
};

/// Fills `h` with a ramp laid out on the world (not on the region).
///
/// Method: `linear` projects each cell centre on the direction `angle` and
/// maps the world's extent along it to t in [0, 1] (the first corner the
/// direction meets is 0, the last is 1); `radial` takes t = distance from the
/// centre / (radius x the world's smaller side), capped at 1 (a circle, round
/// in any world aspect). The value is start + (end - start) t.
/// Parameters: `start`/`end` set the range; `angle` turns the linear ramp
/// (45 runs corner to corner); `center_x`/`center_y`/`radius` place the
/// radial one (radius 0.5 reaches the middle of the nearest edges, 0.71 the
/// corners of a square world).
/// @pre radius > 0.
/// @post every cell lies between start and end.
/// Pointwise: a region equals the same window of the world; rows run in
/// parallel and the result does not depend on the thread count.
void apply_gradient(heightfield& h, const gradient_params& p, const stage_context& ctx);

stage_info gradient_stage_info();

}  // namespace landform
