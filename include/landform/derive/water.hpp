#pragma once
/// @file
/// Surface water over a whole world: the sea (below sea level and connected
/// to the border), lakes filled to their spill height, discharge from
/// precipitation, rivers sized by hydraulic geometry and their network as
/// line segments with Strahler order.
///
/// Everything builds on the one Priority-Flood of derive/ and the D8 flow
/// graph of derive/flow_routing.hpp.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "landform/core/heightfield.hpp"
#include "landform/derive/flow_routing.hpp"

namespace landform {

/// What decides the water (units in the names' comments).
struct water_params {
  double sea_level = 0.0;        ///< height units: the sea's surface
  double min_depth = 0.5;        ///< m: a lake must be at least this deep somewhere
  double min_area = 0.0;         ///< m^2: and cover at least this much
  double precipitation = 800.0;  ///< mm/yr, uniform (times precipitation_layer when given)
  /// Per cell, multiplies `precipitation` (width x height); null = uniform.
  const std::vector<float>* precipitation_layer = nullptr;
  /// mm/yr over a lake's surface; 0 = none. A lake whose inflow is below its
  /// evaporation (area x rate) stays dry: an endorheic basin (salt flat).
  double evaporation = 0.0;
  /// A river runs where the drainage area reaches river_area (m^2), or, when
  /// river_discharge > 0, where the discharge reaches it (m^3/s).
  double river_area = 1.0e6;
  double river_discharge = 0.0;
  /// Hydraulic geometry (Leopold and Maddock 1953): width = width_a * Q^width_b
  /// metres, depth = depth_c * Q^depth_f metres, Q in m^3/s.
  double width_a = 4.0;
  double width_b = 0.5;
  double depth_c = 0.3;
  double depth_f = 0.4;
};

/// One lake (a depression filled to its spill height).
struct lake_info {
  std::uint32_t outlet = 0;  ///< spill cell: where the lake overflows (not itself under water)
  std::uint32_t cells = 0;   ///< cells under water
  double level = 0.0;        ///< height units: surface = the spill cell's height
  double max_depth = 0.0;    ///< m
  double inflow = 0.0;       ///< m^3/s reaching the lake (before evaporation)
  bool dry = false;          ///< evaporation exceeds inflow: an endorheic dry basin
};

/// One river segment: a D8 path between sources, confluences and mouths.
struct river_segment {
  /// Vertices as cell coordinates (x, y; cell centres at integers; a mouth
  /// vertex may lie halfway to a lake or sea cell, or on the map's border,
  /// half a cell out, where it leaves the map), upstream first; at least two.
  std::vector<std::array<double, 2>> points;
  std::vector<float> surface;  ///< height units at each vertex (water surface, non-increasing)
  /// m at each vertex: the river's width over the piece to the next vertex
  /// (the mask is drawn with these).
  std::vector<float> widths;
  int strahler = 1;
  double discharge = 0.0;  ///< m^3/s at the segment's last cell
  double width = 0.0;      ///< m at the segment's last cell
  double depth = 0.0;      ///< m at the segment's last cell
  /// Where it ends: "sea", "lake", "edge" or "confluence".
  std::string end;
};

/// The water of one heightfield (all arrays width x height, row-major).
struct water_maps {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> ocean;  ///< 1 = sea
  std::vector<float> level;         ///< height units: water surface, = bed where dry
  std::vector<float> depth;         ///< m: water depth (sea and lakes; rivers not included)
  std::vector<std::int32_t> lake;   ///< index into `lakes` for a cell under a kept lake, -1 else
  std::vector<lake_info> lakes;     ///< kept lakes (dry ones included, flagged)
  std::vector<float> discharge;     ///< m^3/s through each cell
  std::vector<float> area;          ///< m^2 drainage area of each cell
  std::vector<std::uint8_t> is_river;
  std::vector<float> river_width;  ///< m, 0 off rivers
  std::vector<float> river_depth;  ///< m, 0 off rivers
  std::vector<float> river_mask;   ///< 0..1 coverage of each cell by the river's width (anti-aliased)
  std::vector<river_segment> network;
};

/// The routing behind a water_maps, for consumers that follow the rivers
/// (the `river_carve` stage): the filled surface and its D8 flow graph.
struct water_routing {
  /// width x height, height units: the heights with the sea at sea level and
  /// every depression filled to its spill height (Priority-Flood+epsilon).
  std::vector<double> filled;
  /// D8 receivers and stack (receivers before donors) on `filled`.
  flow_graph graph;
};

/// The sea of a heightfield: the cells below `sea_level` (height units,
/// strictly below) that are 8-connected to the world's border through such
/// cells. An inland depression below sea level is not sea (a lake or a dry
/// basin). The one definition of the sea: compute_water() and
/// `stream_power_erosion` (`base_level: "sea"`) both use it.
///
/// @param z width x height heights in height units, row-major
/// @return width x height flags, row-major: 1 = sea, 0 = land
/// Serial, O(width x height); the result depends only on the heights.
std::vector<std::uint8_t> find_ocean(const float* z, int width, int height, double sea_level);

/// find_ocean() of a heightfield's values.
std::vector<std::uint8_t> find_ocean(const heightfield& h, double sea_level);

/// Computes the water of `h` (heights in height units; metres = height *
/// height_scale; cell size from h.placement()).
///
/// 1. Sea: cells below sea_level 8-connected to the border through such
///    cells. An inland depression below sea level is not sea.
/// 2. Lakes: the sea's cells are set to sea level and the surface is filled
///    by Priority-Flood+epsilon (Barnes et al. 2014) seeded from the border,
///    recording each raised cell's spill cell. A lake is the cells of one
///    spill cell whose bed lies below the spill height; kept when its
///    deepest cell reaches min_depth and its area min_area. Its surface is
///    the spill cell's height exactly.
/// 3. Discharge: D8 receivers and stack order (Braun and Willett 2013) on the
///    filled surface; each cell adds precipitation (mm/yr -> m^3/s over its
///    area); evaporation over a lake is taken at its exits.
/// 4. Rivers where the drainage area (or discharge) reaches the threshold,
///    outside the sea and lakes; width and depth from hydraulic geometry.
///    The mask covers each D8 segment with a capsule of the river's width.
/// 5. Network: river cells chained along receivers, split at confluences,
///    Strahler-ordered; a line reaching a lake or the sea ends halfway to
///    it, and a river leaving a lake starts at its outlet.
/// Deterministic: serial except the receivers (rows, independent of nthreads).
/// @param routing when not null, receives the filled surface and the flow
///        graph the maps were computed on
water_maps compute_water(const heightfield& h, double height_scale, const water_params& p, int nthreads = 1,
                         water_routing* routing = nullptr);

/// The network as a GeoJSON FeatureCollection (RFC 7946) of LineStrings in
/// world metres: x = world x, y = -world y (north up, as landform's
/// GeoTIFFs), z = water surface in metres. Properties: strahler,
/// discharge_m3s, width_m, depth_m (at the last cell), widths_m (per vertex), end. `x0`, `y0` crop the network to the
/// window [x0, x0 + width) x [y0, y0 + height) of the grid (segments with a
/// vertex inside are kept whole). Numbers printed with fixed precision, so
/// the text is the same on every platform.
std::string river_network_geojson(const water_maps& w, const region& grid, double height_scale, int x0, int y0,
                                  int width, int height);

}  // namespace landform
