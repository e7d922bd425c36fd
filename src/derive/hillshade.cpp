#include "landform/derive/hillshade.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "landform/io/quantize.hpp"

namespace landform {

namespace {

std::array<double, 3> to_sun(double azimuth_deg, double altitude_deg) {
  const double az = azimuth_deg * std::numbers::pi / 180.0, alt = altitude_deg * std::numbers::pi / 180.0;
  return {std::cos(alt) * std::sin(az), std::cos(alt) * std::cos(az), std::sin(alt)};
}

// N·L of the slopes (east, north), whose normal has length 1 / inv.
double lambert(double east, double north, double inv, const std::array<double, 3>& l) {
  return std::max(0.0, (-east * l[0] - north * l[1] + l[2]) * inv);
}

// A colour channel times the light, as std::clamp(std::lround(v), 0, 255)
// gives it, without the libm call (lround_nonnegative is exact for v >= 0).
std::uint8_t channel_byte(double v) {
  if (!(v > 0.0)) return 0;  // lround of v <= 0 is at most 0 (NaN: clamped likewise)
  if (v >= 255.0) return 255;
  return static_cast<std::uint8_t>(lround_nonnegative(v));
}

}  // namespace

hillshade_vectors light_vectors(const hillshade_light& light) {
  hillshade_vectors v;
  if (light.multidirectional) {
    v.count = 4;
    const double azimuths[4] = {225.0, 270.0, 315.0, 360.0};
    for (int k = 0; k < 4; ++k) v.to_sun[static_cast<std::size_t>(k)] = to_sun(azimuths[k], light.sun_altitude);
  } else {
    v.to_sun[0] = to_sun(light.sun_azimuth, light.sun_altitude);
  }
  v.flat = std::sin(light.sun_altitude * std::numbers::pi / 180.0);
  v.strength = light.strength;
  return v;
}

double lambert_shade(double east, double north, double azimuth_deg, double altitude_deg) {
  return lambert(east, north, 1.0 / std::sqrt(east * east + north * north + 1.0), to_sun(azimuth_deg, altitude_deg));
}

void shaded_relief_row(const float* heights, const float* east, const float* north, std::size_t n,
                       const std::vector<color_stop>& ramp, const hillshade_vectors& light, std::uint8_t* rgb) {
  for (std::size_t k = 0; k < n; ++k) {
    const double e = east[k], no = north[k];
    const double inv = 1.0 / std::sqrt(e * e + no * no + 1.0);
    double s = 0.0;
    if (light.count == 1) {
      s = lambert(e, no, inv, light.to_sun[0]);
    } else {
      for (int l = 0; l < light.count; ++l) s += 0.25 * lambert(e, no, inv, light.to_sun[static_cast<std::size_t>(l)]);
    }
    // Flat ground keeps its ramp colour exactly; slopes toward the sun brighten.
    const double shade = (1.0 - light.strength) + light.strength * s / light.flat;
    const auto c = ramp_colour(ramp, heights[k]);
    for (std::size_t ch = 0; ch < 3; ++ch) rgb[3 * k + ch] = channel_byte(c[ch] * shade);
  }
}

std::vector<std::uint8_t> shaded_relief_rgb(const std::vector<float>& heights, const std::vector<float>& east,
                                            const std::vector<float>& north, const std::vector<color_stop>& ramp,
                                            const hillshade_light& light) {
  std::vector<std::uint8_t> rgb(heights.size() * 3);
  shaded_relief_row(heights.data(), east.data(), north.data(), heights.size(), ramp, light_vectors(light), rgb.data());
  return rgb;
}

}  // namespace landform
