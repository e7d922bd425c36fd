#include "landform/derive/hillshade.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace landform {

double lambert_shade(double east, double north, double azimuth_deg, double altitude_deg) {
  const double az = azimuth_deg * std::numbers::pi / 180.0, alt = altitude_deg * std::numbers::pi / 180.0;
  const double lx = std::cos(alt) * std::sin(az), ly = std::cos(alt) * std::cos(az), lz = std::sin(alt);
  const double inv = 1.0 / std::sqrt(east * east + north * north + 1.0);
  return std::max(0.0, (-east * lx - north * ly + lz) * inv);
}

std::vector<std::uint8_t> shaded_relief_rgb(const std::vector<float>& heights, const std::vector<float>& east,
                                            const std::vector<float>& north, const std::vector<color_stop>& ramp,
                                            const hillshade_light& o) {
  const double flat = std::sin(o.sun_altitude * std::numbers::pi / 180.0);
  std::vector<std::uint8_t> rgb(heights.size() * 3);
  for (std::size_t k = 0; k < heights.size(); ++k) {
    double s = 0.0;
    if (o.multidirectional) {
      for (double az : {225.0, 270.0, 315.0, 360.0}) s += 0.25 * lambert_shade(east[k], north[k], az, o.sun_altitude);
    } else {
      s = lambert_shade(east[k], north[k], o.sun_azimuth, o.sun_altitude);
    }
    // Flat ground keeps its ramp colour exactly; slopes toward the sun brighten.
    const double light = (1.0 - o.strength) + o.strength * s / flat;
    const auto c = ramp_colour(ramp, heights[k]);
    for (int ch = 0; ch < 3; ++ch) {
      rgb[3 * k + static_cast<std::size_t>(ch)] =
          static_cast<std::uint8_t>(std::clamp(std::lround(c[static_cast<std::size_t>(ch)] * light), 0L, 255L));
    }
  }
  return rgb;
}

}  // namespace landform
