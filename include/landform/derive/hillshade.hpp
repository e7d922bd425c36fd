#pragma once
/// @file
/// Hillshade: Lambertian light on a surface's gradient, and the shaded relief
/// picture (hillshade multiplied onto a colour ramp) of the preview output.

#include <array>
#include <cstddef>
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

/// A hillshade_light's unit vectors towards the sun or suns (x east, y north,
/// z up), worked out once per image rather than by trigonometry per cell.
struct hillshade_vectors {
  std::array<std::array<double, 3>, 4> to_sun{};  ///< the first `count` are used
  int count = 1;                                  ///< 1, or 4 (multidirectional)
  double flat = 1.0;                              ///< the shade of flat ground, sin(altitude)
  double strength = 0.65;                         ///< as hillshade_light::strength
};

/// The vectors of `light`: the ones lambert_shade() computes, bit for bit.
hillshade_vectors light_vectors(const hillshade_light& light);

/// Lambertian shade N·L, >= 0, for surface slopes (east, north) (rise over
/// run) lit from `azimuth_deg` at `altitude_deg`.
double lambert_shade(double east, double north, double azimuth_deg, double altitude_deg);

/// RGB8 of `n` cells (3 n bytes into `rgb`): the ramp colour of `heights[k]`
/// times (1 - strength) + strength * shade / sin(altitude), rounded (halves
/// away from zero) and clamped to 0..255, so flat ground keeps its ramp colour
/// exactly and slopes toward the sun brighten; the shade is lambert_shade(), or
/// the mean of the four lights' for a multidirectional light. `east` and
/// `north` are the gradient at each cell (rise over run).
void shaded_relief_row(const float* heights, const float* east, const float* north, std::size_t n,
                       const std::vector<color_stop>& ramp, const hillshade_vectors& light, std::uint8_t* rgb);

/// shaded_relief_row() over whole images: RGB8 per cell (3 bytes,
/// row-major), `heights`, `east` and `north` of one size.
std::vector<std::uint8_t> shaded_relief_rgb(const std::vector<float>& heights, const std::vector<float>& east,
                                            const std::vector<float>& north, const std::vector<color_stop>& ramp,
                                            const hillshade_light& light);

}  // namespace landform
