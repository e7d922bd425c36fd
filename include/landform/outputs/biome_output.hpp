#pragma once
/// @file
/// The "biome" output: an RGB8 map coloured from the final height and the
/// `moisture` layer (seed document 002's biome colours).

#include <string>
#include <vector>

#include "landform/outputs/ocean_rule.hpp"
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
  /// Which cells below sea level get water colours: connected (the water
  /// outputs' sea; inland basins get land colours; needs the whole world)
  /// or below_sea_level (all of them; local).
  ocean_rule ocean = ocean_rule::connected;

  static const param_schema<biome_output_options>& schema();
  /// The side layers the output reads: the moisture layer.
  [[nodiscard]] std::vector<std::string> layers_read() const { return {moisture_layer}; }
};

/// The "biome" output kind (format rgb8).
output_kind biome_output_kind();

}  // namespace landform
