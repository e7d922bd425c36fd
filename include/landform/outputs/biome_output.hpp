#pragma once
/// @file
/// The "biome" output: an RGB8 map coloured from the final height and the
/// `moisture` layer (seed document 002's biome colours).

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "landform/outputs/output_kind.hpp"

namespace landform {

/// Options of the "biome" output: the colour table and where sea level is.
struct biome_output_options {
  double sea_level = 0.5;                             ///< height units: below is water
  std::string moisture_layer = "moisture";            ///< layer holding moisture in [0, 1] (voronoi writes "moisture")
  double default_moisture = 0.5;                      ///< used when no stage wrote the layer, 0 to 1
  std::vector<double> deep_water = {0, 0, 0};         ///< RGB 0..255 at height 0 (seed: black)
  std::vector<double> shallow_water = {48, 64, 127};  ///< RGB at sea level
  std::vector<double> dry_land = {210, 185, 139};     ///< RGB of dry lowland (moisture 0)
  std::vector<double> wet_land = {110, 140, 94};      ///< RGB of wet lowland (moisture 1)
  std::vector<double> snow = {255, 255, 255};         ///< RGB of the highest land
  double snow_exponent = 4.0;                         ///< land blends toward snow by e^snow_exponent, > 0

  static const param_schema<biome_output_options>& schema();
};

/// The colour of one cell: `height` and `moisture` as in the seed's
/// biomeColor(). With e = (height - sea_level) / sea_level below sea level
/// and (height - sea_level) / (1 - sea_level) above, clamped to [-1, 1]
/// (sea level 0.5 gives the seed's e = (elevation - 0.5) * 2):
/// - water (e < 0): shallow + (shallow - deep) e, so shallow at the shore
///   darkening to `deep_water` at height 0 (the seed: 48 + 48 e, ...);
/// - land: m = moisture (1 - e), c = dry - (dry - wet) m, k = e^snow_exponent,
///   colour = snow k + c (1 - k) (the seed: 210 - 100 m, ..., e^4 toward
///   white).
/// Each channel is truncated to an integer in [0, 255] as the seed's `| 0`.
std::array<std::uint8_t, 3> biome_color(const biome_output_options& o, double height, double moisture);

/// The "biome" output kind (format rgb8).
output_kind biome_output_kind();

}  // namespace landform
