#pragma once
/// @file
/// The water outputs: "water_level", "water_depth", "lake", "river",
/// "river_depth" and "river_network" (GeoJSON). All share one set of options
/// and derive/water.hpp's compute_water(), so they agree with each other. They
/// need the whole world (halo -1): a lake's level and a river's discharge
/// depend on terrain anywhere upstream, so a region build computes the world
/// and writes the region's window.

#include <string>
#include <vector>

#include "landform/derive/water.hpp"
#include "landform/outputs/output_kind.hpp"

namespace landform {

/// Options shared by the water outputs (units in the comments).
struct water_output_options {
  double min_depth = 0.5;           ///< m, >= 0: a lake's deepest point must reach this
  double min_area = 0.0;            ///< m^2, >= 0: a lake's area must reach this
  double precipitation = 800.0;     ///< mm/yr, >= 0
  std::string precipitation_layer;  ///< layer multiplying precipitation per cell; "" = uniform
  double evaporation = 0.0;         ///< mm/yr over lakes, >= 0; 0 = no evaporation balance
  double river_area = 1.0;          ///< km^2, > 0: drainage area where a river starts
  double river_discharge = 0.0;     ///< m^3/s, >= 0: when > 0, the river threshold instead of river_area
  double width_a = 4.0;             ///< m (m^3/s)^-b: hydraulic geometry width coefficient
  double width_b = 0.5;             ///< width exponent (Leopold and Maddock 1953: about 0.5)
  double depth_c = 0.3;             ///< m (m^3/s)^-f: depth coefficient
  double depth_f = 0.4;             ///< depth exponent (about 0.4)

  static const param_schema<water_output_options>& schema();
  [[nodiscard]] std::vector<std::string> layers_read() const;
  /// The water parameters for a field with these options and sea level
  /// (0 when the preset gives none: no sea unless heights go below 0).
  [[nodiscard]] water_params params(const output_context& ctx) const;
};

/// The registered water output kinds, in registration order.
std::vector<output_kind> water_output_kinds();

}  // namespace landform
