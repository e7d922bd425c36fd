#pragma once
/// @file
/// What an erosion stage's water erodes down to: shared by
/// `stream_power_erosion` and `hydraulic_erosion`.

namespace landform {

/// The base level of an erosion stage.
enum class erosion_base_level {
  edges,  ///< the map's border only: water leaves the map there
  sea,    ///< the border and the sea (find_ocean() at the preset's sea_level): water ends at the coast
};

}  // namespace landform
