#pragma once
/// @file
/// Hypsometric colour ramps: colours by height, linearly interpolated
/// between stops (the preview's built-in ramps and custom stops).

#include <array>
#include <vector>

namespace landform {

/// One stop: height (0..1), then r, g, b (0..255).
using color_stop = std::array<double, 4>;

/// The built-in ramps over heights 0..1 (earth has sea below 0.3).
enum class ramp_name { terrain, earth, desert, arctic, grey };

/// The stops of a built-in ramp, heights increasing.
const std::vector<color_stop>& builtin_ramp(ramp_name name);

/// The colour at height `h`: the first stop's below it, the last's above,
/// linear between the two stops around it. `ramp` is non-empty with heights
/// not decreasing.
std::array<double, 3> ramp_colour(const std::vector<color_stop>& ramp, double h);

}  // namespace landform
