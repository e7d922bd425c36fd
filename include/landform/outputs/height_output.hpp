#pragma once
/// @file
/// The "height" output: the heightfield itself.

#include "landform/outputs/output_kind.hpp"

namespace landform {

/// Options of the "height" output (none yet: heights in [0, 1] map to full scale).
struct height_output_options {
  static const param_schema<height_output_options>& schema();
};

/// png16 / raw16: round(h * 65535); png8: round(h * 255); heights outside
/// [0, 1] are clamped and counted. r32: the float32 heights unchanged.
output_kind height_output_kind();

}  // namespace landform
