#pragma once
/// @file
/// Biome colours from height and moisture (seed document 002's biomeColor()),
/// used by the "biome" output.

#include <array>
#include <cstdint>

namespace landform {

/// The colour table and sea level of a biome map (the biome output's
/// defaults).
struct biome_palette {
  double sea_level = 0.5;                               ///< height units: below is water
  double default_moisture = 0.5;                        ///< used for NaN moisture, 0 to 1
  std::array<double, 3> deep_water = {0, 0, 0};         ///< RGB 0..255 at height 0
  std::array<double, 3> shallow_water = {48, 64, 127};  ///< RGB at sea level
  std::array<double, 3> dry_land = {210, 185, 139};     ///< RGB of dry lowland (moisture 0)
  std::array<double, 3> wet_land = {110, 140, 94};      ///< RGB of wet lowland (moisture 1)
  std::array<double, 3> snow = {255, 255, 255};         ///< RGB of the highest land
  double snow_exponent = 4.0;                           ///< land blends toward snow by e^snow_exponent, > 0
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
std::array<std::uint8_t, 3> biome_color(const biome_palette& p, double height, double moisture);

/// The colour of a cell that is not ocean: biome_color() with a height below
/// sea level raised to sea level. An inland basin below sea level (a lake
/// bed, a dry basin: not connected to the sea) takes the lowest land colour,
/// e = 0, dry_land to wet_land by its moisture, as the coast beside the sea;
/// heights at or above sea level are coloured exactly as biome_color().
std::array<std::uint8_t, 3> biome_land_color(const biome_palette& p, double height, double moisture);

}  // namespace landform
