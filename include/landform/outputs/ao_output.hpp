#pragma once
/// @file
/// The "ao" output: ambient occlusion (sky-view factor) of the final heightfield.

#include "landform/derive/ambient_occlusion.hpp"
#include "landform/outputs/output_kind.hpp"

namespace landform {

/// The "ao" map: ambient_occlusion() over the region, options = ao_params
/// (directions, radius in metres, border, exponent, strength).
///
/// Values in [0, 1], 1 = open sky. png16 stores round(ao * 65535), png8
/// round(ao * 255); r32 the float32 values. Halo: ceil(radius / cell_size)
/// cells, so a region's map equals the same window of the world's.
output_kind ao_output_kind();

}  // namespace landform
