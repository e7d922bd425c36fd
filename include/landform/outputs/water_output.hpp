#pragma once
/// @file
/// The water outputs: "water_level", "water_depth", "lake", "river",
/// "river_depth" and "river_network" (GeoJSON). All share one set of options
/// and derive/water.hpp's compute_water(), so they agree with each other. They
/// need the whole world (halo -1): a lake's level and a river's discharge
/// depend on terrain anywhere upstream, so a region build computes the world
/// and writes the region's window.

#include <concepts>
#include <memory>
#include <string>
#include <utility>
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
  /// The water parameters at this sea level (height units), with this
  /// per-cell precipitation factor (null = uniform).
  [[nodiscard]] water_params params(double sea_level, const std::vector<float>* precipitation_factor) const;
};

/// Declares the water options on `s`: the one declaration shared by the
/// water outputs and by stages that derive the same water (`river_carve`,
/// whose params derive from water_output_options), so a preset giving the
/// same values to both gets the same rivers.
template <class P>
requires std::derived_from<P, water_output_options> param_schema<P> water_parameters(param_schema<P> s) {
  return std::move(s)
      .number("min_depth", &P::min_depth)
      .unit("m")
      .range(between(0, 1e4))
      .doc("a lake is kept when its deepest point reaches this depth below the spill height")
      .effect("higher = only deep lakes; shallow puddles in noisy terrain disappear")
      .number("min_area", &P::min_area)
      .unit("m^2")
      .range(between(0, 1e12))
      .doc("a lake is kept when its surface covers at least this area")
      .effect("higher = fewer, larger lakes")
      .number("precipitation", &P::precipitation)
      .unit("mm/yr")
      .range(between(0, 2e4))
      .doc("rain over every cell (times precipitation_layer when given)")
      .effect("higher = more discharge: wider, deeper rivers; with a discharge threshold, more of them")
      .layer("precipitation_layer", &P::precipitation_layer)
      .doc("layer multiplying precipitation cell by cell (e.g. noise written with target); empty = uniform")
      .effect("rivers are larger downstream of wet areas")
      .number("evaporation", &P::evaporation)
      .unit("mm/yr")
      .range(between(0, 2e4))
      .doc("evaporation over lake surfaces; a lake whose inflow is below area x evaporation stays dry")
      .effect("higher = arid: closed basins become dry salt flats and their rivers end there")
      .number("river_area", &P::river_area)
      .unit("km^2")
      .range(above_to(0, 1e6))
      .doc("drainage area at which a river begins (resolution independent)")
      .effect("lower = a denser network with more small tributaries")
      .number("river_discharge", &P::river_discharge)
      .unit("m^3/s")
      .range(between(0, 1e7))
      .doc("when > 0, a river begins where the discharge reaches this instead of river_area")
      .effect("lower = more rivers; ties the network to precipitation")
      .number("width_a", &P::width_a)
      .unit("m (m^3/s)^-b")
      .range(above_to(0, 1000))
      .doc("hydraulic geometry w = a Q^b (Leopold and Maddock 1953)")
      .effect("higher = wider rivers everywhere")
      .number("width_b", &P::width_b)
      .range(between(0, 1))
      .doc("width exponent b (about 0.5 downstream)")
      .effect("higher = widths grow faster downstream")
      .number("depth_c", &P::depth_c)
      .unit("m (m^3/s)^-f")
      .range(above_to(0, 100))
      .doc("hydraulic geometry depth d = c Q^f")
      .effect("higher = deeper rivers (river_depth)")
      .number("depth_f", &P::depth_f)
      .range(between(0, 1))
      .doc("depth exponent f (about 0.4)")
      .effect("higher = depths grow faster downstream");
}

/// The water of the build's final heightfield for these options at the
/// preset's sea_level (0 when not given): computed once per build and shared
/// through ctx.cache by every consumer with the same options (the water
/// outputs, splat rules on water), so they agree. Whole world: call it only
/// from outputs whose halo is -1. Callers hold the pointer while they use the
/// maps.
std::shared_ptr<const water_maps> shared_water(const water_output_options& o, const output_context& ctx);

/// The cells under a kept, wet lake (not the sea, not dry endorheic basins):
/// w.width x w.height flags, row-major, 1 = lake. The `lake` output's mask.
std::vector<std::uint8_t> wet_lake_cells(const water_maps& w);

/// The registered water output kinds, in registration order.
std::vector<output_kind> water_output_kinds();

}  // namespace landform
