#pragma once
/// @file
/// The "splat" output: texture weight maps packed four layers per RGBA8 image.

#include "landform/outputs/output_kind.hpp"

namespace landform {

/// Layers are rules over height, slope (degrees), flow accumulation (cells)
/// and profile curvature (1/m), with smooth transitions and noise breakup;
/// weights are normalised to 1 and written as bytes summing to 255 in every
/// cell, four layers (R, G, B, A) per image: `splat_0.png`, `splat_1.png`, ...
/// The manifest says which layer is in which channel.
output_kind splat_output_kind();

}  // namespace landform
