#pragma once
/// @file
/// Output kinds derived from the local surface (Horn's gradient and
/// Zevenbergen-Thorne curvature): normal, slope, aspect, curvature and the
/// shaded-relief preview. Each is computed on the region plus a one-cell halo,
/// so a region's maps equal the same window of the world's; at the world's
/// border the `edges` policy makes up the missing neighbours.

#include "landform/outputs/output_kind.hpp"

namespace landform {

/// "normal": tangent-space normal map (RGB), OpenGL or DirectX convention.
output_kind normal_output_kind();
/// "slope": degrees or percent.
output_kind slope_output_kind();
/// "aspect": downhill compass direction, degrees clockwise from north.
output_kind aspect_output_kind();
/// "curvature": profile, plan or mean curvature, 1/m.
output_kind curvature_output_kind();
/// "preview": hillshade blended with a hypsometric colour ramp (RGB8).
output_kind preview_output_kind();
/// The pixels the "preview" output encodes (RGB8, 3 bytes per cell of the
/// region's window, row-major) for its `options` (validated, as in an
/// output_spec; missing options take their defaults, so `{}` is the default
/// preview).
std::vector<std::uint8_t> preview_pixels(const json& options, const output_context& ctx);

}  // namespace landform
