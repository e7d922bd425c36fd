#pragma once
/// @file
/// The road outputs: "roads" (GeoJSON LineStrings) and "road" (a mask), from
/// derive/roads.hpp's compute_roads() over the water of derive/water.hpp.
/// Like the water outputs they need the whole world (halo -1): a least-cost
/// path between two sites may wander anywhere, and rivers depend on terrain
/// anywhere upstream, so a region build computes the world's roads and writes
/// the region's window. The `road_flatten` stage shares the road fields.

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "landform/derive/roads.hpp"
#include "landform/outputs/output_kind.hpp"
#include "landform/outputs/water_output.hpp"

namespace landform {

/// The road fields shared by the road outputs and `road_flatten` (units in
/// the comments; see road_params).
struct road_options {
  std::vector<std::array<double, 2>> points;  ///< [x, y] world metres; empty = automatic sites
  int sites = 6;                              ///< 2..64 automatic sites
  double max_grade_percent = 10.0;            ///< %, (0, 100]
  double grade_penalty = 4.0;                 ///< >= 0
  double bridge_cost = 500.0;                 ///< m-equivalent per bridge, >= 0
  double max_bridge_m = 200.0;                ///< m, >= 0 (0 = no bridges)
  int neighbours = 16;                        ///< 8 or 16
  double curvature_penalty = 30.0;            ///< m-equivalent per radian of turning, >= 0 (0 = none)
  double width_m = 6.0;                       ///< m, > 0
  bool require_all = false;                   ///< true: a tree link without a road is an error (exit 1)

  /// Rules across the fields (neighbours is 8 or 16).
  void check_roads(std::vector<std::pair<std::string, std::string>>& problems) const;
  /// road_params of these fields (follow layer not set).
  [[nodiscard]] road_params params() const;
  /// road_point_issues() of `points` on the world grid (the preset's world at
  /// its cell size), for validation before anything runs.
  [[nodiscard]] std::vector<preset_issue> check_world(const world_extent& world, double cell_size) const;
  /// One line per unreachable link of `n` (from and to sites in world metres
  /// on `grid`, and why), for warnings and errors.
  [[nodiscard]] std::vector<std::string> gap_lines(const road_network& n, const region& grid) const;
  /// With require_all and unreachable links in `n`: std::runtime_error
  /// (exit 1) naming `where` and every such link.
  void require_links(const road_network& n, const region& grid, const std::string& where) const;
};

/// Declares road_options' fields on the schema of `P` (which derives from
/// road_options), in the order the docs show them.
template <class P>
param_schema<P> with_road_fields(param_schema<P>&& s) {
  return std::move(s)
      .point_list("points", static_cast<std::vector<std::array<double, 2>> P::*>(&road_options::points))
      .count(0, 64)
      .unit("m")
      .range(between(-1e9, 1e9))
      .doc("sites as [x, y] world metres (x = column x cell_size, y = row x cell_size); empty = choose `sites`")
      .effect("roads link exactly these places")
      .integer("sites", static_cast<int P::*>(&road_options::sites))
      .range(between(2, 64))
      .doc("with no points: this many sites, the flattest dry cells near water, spaced apart")
      .effect("more = a denser network of shorter roads")
      .number("max_grade_percent", static_cast<double P::*>(&road_options::max_grade_percent))
      .unit("%")
      .range(above_to(0, 100))
      .doc("no road step is steeper (rise / run x 100); steeper ground is impassable")
      .effect("lower = more switchbacks on slopes and longer detours; roads may become impossible")
      .number("grade_penalty", static_cast<double P::*>(&road_options::grade_penalty))
      .range(between(0, 1000))
      .doc("cost per metre is 1 + grade_penalty (grade / max_grade)^2")
      .effect("higher = roads keep to contour lines and valley floors even when the climb is allowed")
      .number("bridge_cost", static_cast<double P::*>(&road_options::bridge_cost))
      .unit("m")
      .range(between(0, 1e7))
      .doc("added to a bridge's cost (metres of flat road it is worth avoiding), per bridge")
      .effect("higher = fewer bridges: roads follow a river bank to a narrow crossing or avoid it")
      .number("max_bridge_m", static_cast<double P::*>(&road_options::max_bridge_m))
      .unit("m")
      .range(between(0, 1e5))
      .doc("longest span of river cells a bridge may cross; 0 = rivers are impassable")
      .effect("lower = only narrow rivers are crossed")
      .integer("neighbours", static_cast<int P::*>(&road_options::neighbours))
      .range(between(8, 16))
      .doc("8 (king moves) or 16 (plus knight moves, Galin et al. 2010)")
      .effect("16 = smoother roads with 26.6-degree headings, less grid-aligned zigzag")
      .number("curvature_penalty", static_cast<double P::*>(&road_options::curvature_penalty))
      .unit("m/rad")
      .range(between(0, 1e5))
      .doc(
          "added to a road's cost per radian it turns between successive steps (metres of flat road a "
          "turn is worth avoiding; Galin et al. 2010); 0 = no turning cost")
      .effect(
          "higher = straight runs joined by fewer bends instead of cell-scale zigzags (presets/roads.json, "
          "20 m cells: 30 turns 2.4x less than 0); a hairpin (pi rad) still costs only ~3x it")
      .number("width_m", static_cast<double P::*>(&road_options::width_m))
      .unit("m")
      .range(above_to(0, 1000))
      .doc("road width: the mask's coverage and the bed road_flatten levels")
      .effect("wider = broader roads in the mask and a wider bed")
      .boolean("require_all", static_cast<bool P::*>(&road_options::require_all))
      .doc(
          "true: a link of the spanning tree with no admissible road stops the build with an error (exit 1); "
          "false: it is left out with a warning and listed in the manifest")
      .effect("true = pipelines fail instead of shipping a network with missing roads");
}

/// Options of the "roads" and "road" outputs.
struct road_output_options : road_options {
  water_output_options water;  ///< the water the roads avoid (as the water outputs' options)
  std::string follow_layer;    ///< e.g. "road_bed" from road_flatten: cheaper on its bed
  double follow_factor = 0.5;  ///< cost factor on the layer (0..1]
  std::string sites_layer;     ///< e.g. "road_sites" from road_flatten: the sites are its cells >= 0.5

  static const param_schema<road_output_options>& schema();
  void check(std::vector<std::pair<std::string, std::string>>& problems) const;
  [[nodiscard]] std::vector<std::string> layers_read() const;
};

/// The registered road output kinds ("roads", "road"), in registration order.
std::vector<output_kind> road_output_kinds();

}  // namespace landform
