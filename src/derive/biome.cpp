#include "landform/derive/biome.hpp"

#include <algorithm>
#include <cmath>

namespace landform {

std::array<std::uint8_t, 3> biome_color(const biome_palette& o, double height, double moisture) {
  double e = height < o.sea_level ? (height - o.sea_level) / o.sea_level : (height - o.sea_level) / (1.0 - o.sea_level);
  if (std::isnan(e)) e = -1.0;
  e = std::clamp(e, -1.0, 1.0);
  double m = std::isnan(moisture) ? o.default_moisture : std::clamp(moisture, 0.0, 1.0);
  double rgb[3];
  if (e < 0.0) {
    for (int c = 0; c < 3; ++c) rgb[c] = o.shallow_water[c] + (o.shallow_water[c] - o.deep_water[c]) * e;
  } else {
    m = m * (1.0 - e);
    const double k = std::pow(e, o.snow_exponent);
    for (int c = 0; c < 3; ++c) {
      const double land = o.dry_land[c] - (o.dry_land[c] - o.wet_land[c]) * m;
      rgb[c] = o.snow[c] * k + land * (1.0 - k);
    }
  }
  std::array<std::uint8_t, 3> out{};
  for (int c = 0; c < 3; ++c) out[c] = static_cast<std::uint8_t>(std::clamp(std::trunc(rgb[c]), 0.0, 255.0));
  return out;
}

std::array<std::uint8_t, 3> biome_land_color(const biome_palette& p, double height, double moisture) {
  return biome_color(p, height < p.sea_level ? p.sea_level : height, moisture);
}

}  // namespace landform
