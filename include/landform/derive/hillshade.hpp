#pragma once
/// @file
/// Hillshade: Lambertian light on a surface's gradient, and the shaded relief
/// picture (hillshade multiplied onto a colour ramp) of the preview output.

#include <cstdint>
#include <vector>

#include "landform/derive/color_ramp.hpp"

namespace landform {

/// The light of a shaded relief.
struct hillshade_light {
  double sun_azimuth = 315.0;     ///< degrees clockwise from north
  double sun_altitude = 45.0;     ///< degrees above the horizon, > 0
  bool multidirectional = false;  ///< mean of lights from 225, 270, 315 and 360 degrees
  double strength = 0.65;         ///< 0 = colours only, 1 = full shading
};

/// Lambertian shade N·L, >= 0, for surface slopes (east, north) (rise over
/// run) lit from `azimuth_deg` at `altitude_deg`.
double lambert_shade(double east, double north, double azimuth_deg, double altitude_deg);

/// RGB8 per cell (3 bytes, row-major): the ramp colour of `heights[k]` times
/// (1 - strength) + strength * shade / sin(altitude), rounded and clamped, so
/// flat ground keeps its ramp colour exactly and slopes toward the sun
/// brighten. `east` and `north` are the gradient at each cell.
std::vector<std::uint8_t> shaded_relief_rgb(const std::vector<float>& heights, const std::vector<float>& east,
                                            const std::vector<float>& north, const std::vector<color_stop>& ramp,
                                            const hillshade_light& light);

}  // namespace landform
