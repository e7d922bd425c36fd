#pragma once
/// @file
/// The "ao" output: ambient occlusion (sky-view factor) of the final heightfield.

#include "landform/derive/ambient_occlusion.hpp"
#include "landform/outputs/output_kind.hpp"

namespace landform {

/// Options of the "ao" output: ambient_occlusion()'s parameters, declared for
/// presets (defaults are ao_params's).
struct ao_output_options {
  using border_policy = ao_params::border_policy;
  int directions = ao_params{}.directions;  ///< azimuths, 1 to 256
  double radius = ao_params{}.radius;       ///< metres, > 0
  border_policy border = ao_params{}.border;
  double exponent = ao_params{}.exponent;  ///< 0.1 to 10
  double strength = ao_params{}.strength;  ///< 0 to 1

  static const param_schema<ao_output_options>& schema();
  /// The plain parameters of ambient_occlusion().
  [[nodiscard]] ao_params params() const { return {directions, radius, border, exponent, strength}; }
};

/// The "ao" map: ambient_occlusion() over the region, options =
/// ao_output_options (directions, radius in metres, border, exponent,
/// strength).
///
/// Values in [0, 1], 1 = open sky. png16 stores round(ao * 65535), png8
/// round(ao * 255); r32 the float32 values. Halo: ceil(radius / cell_size)
/// cells, so a region's map equals the same window of the world's.
output_kind ao_output_kind();

}  // namespace landform
