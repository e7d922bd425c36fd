#pragma once
/// @file
/// Roads over a whole world: sites (given or chosen flat, dry and near water)
/// linked by a minimum spanning tree, each link a least-cost path over the
/// terrain (Dijkstra on an 8- or 16-neighbour mask, after Galin et al. 2010,
/// "Procedural Generation of Roads") whose cost grows with the grade and the
/// turning (over (cell, heading) states), with a hard maximum grade, the sea
/// and lakes impassable and rivers crossed only on straight bridges; plus the
/// road bed that `road_flatten` levels.
///
/// Water (sea, lakes, rivers) comes from derive/water.hpp's compute_water().

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "landform/core/error.hpp"
#include "landform/core/heightfield.hpp"
#include "landform/derive/water.hpp"

namespace landform {

/// What decides the roads (units in the comments).
struct road_params {
  /// Sites as [x, y] world metres (x = column * cell_size, y = row *
  /// cell_size, landform's world frame; the GeoJSON prints -y). Empty: choose
  /// `sites` automatically.
  std::vector<std::array<double, 2>> points;
  int sites = 6;                  ///< automatic sites when `points` is empty, 2..64
  double max_grade_percent = 10;  ///< %: no step of a road is steeper (rise / run x 100)
  double grade_penalty = 4.0;     ///< cost factor 1 + grade_penalty (grade / max_grade)^2 per metre
  double bridge_cost = 500.0;     ///< metres-equivalent added per bridge (on top of its length)
  double max_bridge_m = 200.0;    ///< m: the longest span of river cells a bridge may cross
  int neighbours = 16;            ///< 8 (king moves) or 16 (plus knight moves: less grid-aligned roads)
  /// Metres-equivalent per radian of turning between successive steps (0 =
  /// none, the search then runs on cells alone). A smooth road's total turning
  /// does not depend on the cell size, a zig-zag's grows with every kink.
  double curvature_penalty = 30.0;
  double width_m = 6.0;  ///< m: road width (mask, road_flatten bed)
  /// Per cell (width x height, 0..1), e.g. the `road_bed` layer of road_flatten;
  /// cost per metre times (1 - (1 - follow_factor) x layer). Null = none.
  const std::vector<float>* follow = nullptr;
  double follow_factor = 0.5;
  /// Per cell (width x height): the sites are the cells >= 0.5, in index
  /// order (e.g. the `road_sites` layer of road_flatten), instead of points
  /// or automatic sites. Null = none.
  const std::vector<float>* site_layer = nullptr;
};

/// One road: a least-cost path between two sites.
struct road_path {
  std::vector<std::uint32_t> cells;  ///< grid cells from the first site to the second
  /// Per step (cells.size() - 1): true when the step is a bridge over river cells.
  std::vector<std::uint8_t> bridge;
  std::uint32_t from_site = 0, to_site = 0;
  double cost = 0.0;               ///< metres-equivalent (the Dijkstra distance)
  double length_m = 0.0;           ///< m along the ground (horizontal)
  double max_grade_percent = 0.0;  ///< %: the steepest step
  double turning_rad = 0.0;        ///< total absolute turning between successive steps, radians
  int bridges = 0;
};

/// Why a link has no admissible road: the first of these relaxations of the
/// rules that would connect its sites.
enum class road_barrier {
  grade,            ///< every route has a step steeper than max_grade_percent
  river,            ///< every route crosses a river wider than max_bridge_m
  grade_and_river,  ///< only lifting both limits would connect them
  water,            ///< the sea or a lake parts them (or a site is on water) whatever the limits
};

/// A tree link with no admissible road.
struct road_gap {
  std::uint32_t from_site = 0, to_site = 0;
  road_barrier barrier = road_barrier::water;
};

/// What `barrier` means for a link under `p`, in words (with the limits' values).
std::string describe_barrier(road_barrier barrier, const road_params& p);

/// The roads of one heightfield.
struct road_network {
  int width = 0, height = 0;
  std::vector<std::uint32_t> sites;   ///< site cells, in order
  std::vector<road_path> roads;       ///< in the spanning tree's order
  std::vector<road_gap> unreachable;  ///< tree links with no admissible path, in the tree's order
  std::vector<float> mask;            ///< 0..1 coverage by the roads' width (anti-aliased), width x height
};

/// The grid a road search runs on: heights in metres and what is passable.
struct road_grid {
  int width = 0, height = 0;
  double cell_size = 1.0;             ///< m
  std::vector<double> z;              ///< m, width x height
  std::vector<std::uint8_t> blocked;  ///< 1 = sea or lake (never entered)
  std::vector<std::uint8_t> river;    ///< 1 = river (entered only by a bridge)
};

/// The road grid of `h` (metres = height x height_scale) with `w`'s sea and
/// lakes blocked and its rivers marked.
road_grid make_road_grid(const heightfield& h, double height_scale, const water_maps& w);

/// The cost of one step of horizontal length `run_m` and height change
/// `rise_m`: run_m x (1 + grade_penalty (g / g_max)^2), g = |rise| / run; a
/// negative value when g exceeds max_grade_percent (not allowed).
double road_step_cost(double run_m, double rise_m, const road_params& p);

/// The per-state arrays of find_road(), kept between the searches of one
/// network: filled once, then reset only at the states a search wrote (a
/// road's search touches a corridor, not the grid; filling 5 B a state for
/// every link took a quarter of the roads' time on presets/jme-terrain.json).
struct road_search_memory {
  /// One move out of a cell: its cost without turning (negative = not
  /// allowed), the cell it lands on, whether it is a bridge.
  struct step {
    double cost = -1.0;
    std::uint32_t land = 0;
    bool bridge = false;
  };
  std::vector<float> dist;             ///< per state: cost so far (infinity = not reached)
  std::vector<std::uint8_t> link;      ///< per state: how it was reached (0 = not reached)
  std::vector<std::uint32_t> touched;  ///< states written since the last prepare()
  /// Per cell: 1 + its block of 16 in `steps` (0 = not costed yet): the 8
  /// or 16 states of a cell share their moves' costs.
  std::vector<std::uint32_t> costed;
  std::vector<step> steps;                  ///< 16 a costed cell
  std::vector<std::uint32_t> costed_cells;  ///< cells costed since the last prepare()
  std::array<step, 16> scratch;             ///< the moves of the cell costed last
  /// `states` states over `cells` cells, every one unreached and uncosted.
  void prepare(std::size_t states, std::size_t cells);
  /// The 16 moves out of cell c of `g` under `p` (8 used with 8
  /// neighbours), costed once per search for all of c's heading states.
  const step* steps_of(const road_grid& g, const road_params& p, std::uint32_t c);
};

/// Least-cost path from cell `from` to cell `to` (exact Dijkstra with
/// an admissible, consistent A* bound, ties by state index): steps to the 8
/// or 16 neighbours costed by road_step_cost() (times the follow layer at the
/// step's end), a knight step also needing its two side cells passable;
/// blocked cells never entered; river cells only crossed by a bridge: a
/// straight 8-direction jump from land over at most max_bridge_m of river
/// cells to land, costed as a step plus bridge_cost. With curvature_penalty
/// > 0 the search runs over states (cell, direction of the step that entered
/// it), 8 or 16 per cell, as Galin et al. 2010 put curvature into the
/// road cost: each step adds curvature_penalty x the angle (radians, 0..pi)
/// between it and the step before; the first step turns for free. Its A*
/// bound is then the exact cost-to-go without turning (a backward Dijkstra on
/// cells first, which also rejects unreachable links cheaply). Distances are
/// kept as float (4 + 1 bytes a state: 88 B a cell with 16 directions and the
/// cost-to-go).
/// @return the path, or an empty `cells` when no admissible path exists;
/// `cost` is the path's cost summed again in double
/// `memory`: arrays kept between searches on one grid (road_search_memory);
/// null = its own.
road_path find_road(const road_grid& g, const road_params& p, std::uint32_t from, std::uint32_t to,
                    road_search_memory* memory = nullptr);

/// The problems of given road points on the grid `world` (its origin,
/// size and cell size), as (path "points[k]", message): a point whose
/// nearest cell centre is outside the world (the extent [x0 - cs/2, x1 +
/// cs/2] x [y0 - cs/2, y1 + cs/2] m around the first and last cell centres),
/// and a point in the same cell as an earlier one (a road needs two cells).
/// The pipeline reports them at validation with the output's or stage's
/// path in front.
std::vector<preset_issue> road_point_issues(const std::vector<std::array<double, 2>>& points, const region& world);

/// Which land cells (neither blocked nor river) a road can link: cells with
/// the same label are joined by admissible moves (steps and bridges under p's
/// grade and bridge limits; every such move is allowed both ways), -1 on
/// water. One union-find pass over the half of the moves that point forward.
std::vector<std::int32_t> road_reach(const road_grid& g, const road_params& p);

/// The network of `h`: sites (p.site_layer, p.points, or p.sites chosen deterministically:
/// the flattest dry cells near water, spaced apart), their Euclidean minimum
/// spanning tree (Kruskal, ties by site index) and a find_road() per link
/// whose sites road_reach() joins (a link it does not join is listed in
/// `unreachable` with its barrier, found without a search); plus the mask.
/// Serial and deterministic. Throws preset_error when given points break
/// road_point_issues() on h's placement, or lie on water (paths
/// "points[k]": the caller puts the output's or stage's path in front).
road_network compute_roads(const heightfield& h, double height_scale, const water_maps& w, const road_params& p);

/// Levels road beds into `h` (in place, height units): along each road a bed
/// profile (the terrain smoothed along the road, then made g-Lipschitz on the
/// road graph with g just below max_grade by the mean of its upper and lower
/// envelopes, so cut and fill balance), a flat bed of width_m and a smoothstep
/// embankment over shoulder_m back to the terrain. River cells under bridges,
/// the sea and lakes are left as they are.
/// @return the road layer (0..1 coverage of the bed), width x height
std::vector<float> flatten_roads(heightfield& h, double height_scale, const road_network& n, const road_params& p,
                                 double shoulder_m, const water_maps& w);

/// The network as a GeoJSON FeatureCollection (RFC 7946) of LineStrings in
/// world metres, like river_network_geojson(): x, -y, z = ground height in m.
/// Properties: from, to (site indices), length_m, max_grade_percent, bridges,
/// cost. Roads with a vertex in the window [x0, x0 + width) x [y0, y0 +
/// height) are kept whole; fixed-precision numbers.
std::string road_network_geojson(const road_network& n, const heightfield& h, double height_scale, int x0, int y0,
                                 int width, int height);

}  // namespace landform
