#pragma once
/// @file
/// Surface water flow: depression filling (Priority-Flood+epsilon), flow
/// directions (D8, D-infinity), flow accumulation and the topographic
/// wetness index. D8 accumulation and wetness route through
/// derive/flow_routing.hpp, the routing module that stream-power erosion
/// uses; D-infinity fills the whole map, then routes by flow_directions().

#include <array>
#include <cstdint>
#include <vector>

#include "landform/core/heightfield.hpp"

namespace landform {

/// How a cell's water is passed downslope.
enum class flow_method {
  d8,    ///< all to the steepest of the 8 neighbours (O'Callaghan and Mark 1984)
  dinf,  ///< split between the two neighbours of the steepest triangular facet (Tarboton 1997)
};

/// Neighbour codes 0..7 used by flow_receivers, counter-clockwise from east
/// (row 0 is north): E, NE, N, NW, W, SW, S, SE. Neighbour k of (x, y) is
/// (x + k_flow_dx[k], y + k_flow_dy[k]).
inline constexpr std::array<int, 8> k_flow_dx = {1, 1, 0, -1, -1, -1, 0, 1};
inline constexpr std::array<int, 8> k_flow_dy = {0, -1, -1, -1, 0, 1, 1, 1};

/// Where one cell's water goes.
struct flow_receivers {
  std::array<std::int8_t, 2> to = {-1, -1};  ///< neighbour codes (k_flow_dx/dy); -1 = none
  float fraction = 0.0f;                     ///< share sent to `to[0]`; `to[1]` (if any) gets 1 - fraction
  /// Downslope gradient in height units per cell length (0 for an outlet);
  /// tan(beta) = gradient * height_scale / cell_size.
  float gradient = 0.0f;
  /// True for a cell whose water leaves the map (no lower neighbour; only border cells).
  [[nodiscard]] bool is_outlet() const { return to[0] < 0; }
};

/// Depression filling by Priority-Flood+epsilon (Barnes, Lehman and Mulla
/// 2014, "Priority-Flood: An optimal depression-filling and watershed-labeling
/// algorithm for digital elevation models", Computers & Geosciences 62,
/// section "Priority-Flood+epsilon", with the improved plain queue for pit
/// cells).
///
/// Border cells are the seeds: water leaves the map through them. Cells are
/// visited from the lowest seed inwards; a cell not higher than the cell that
/// reached it is raised to the next representable double above it, so every
/// non-border cell ends strictly above at least one neighbour and drains to the
/// border. Flats get an imperceptible (1e-16 relative) gradient towards their
/// outlet; cells above their spill level are unchanged.
///
/// @param h width x height heights, row-major
/// @return width x height filled heights (same units), row-major, float64;
///         >= the input everywhere, equal on the border
/// @throws std::invalid_argument for a non-finite height (names the cell)
/// Determinism: the queue pops the lowest (height, cell index) first, so the
/// result depends only on the heights. Serial; the queue is a radix heap
/// (monotone keys), so the cost is close to linear.
std::vector<double> priority_flood_epsilon(const heightfield& h);

/// Flow directions on a depression-free surface (e.g. priority_flood_epsilon()).
///
/// - d8: the neighbour with the largest drop / distance (distance 1 or sqrt 2
///   cells), strictly downhill; ties go to the first in neighbour-code order.
/// - dinf (Tarboton 1997, "A new method for the determination of flow
///   directions and upslope areas in grid digital elevation models", Water
///   Resources Research 33(2)): over the 8 facets (cardinal e1, diagonal e2)
///   s1 = e0 - e1, s2 = e1 - e2, r = atan2(s2, s1) clamped to [0, pi/4]
///   (s = sqrt(s1^2 + s2^2) inside, the edge slope when clamped); the steepest
///   facet wins and its flow splits (pi/4 - r) / (pi/4) to e1, r / (pi/4) to e2.
/// Only neighbours inside the map are considered; a cell with no lower
/// neighbour is an outlet (on a filled surface, border cells only), so a
/// border cell with a lower neighbour passes its water on. (flow_accumulation()
/// with d8 does not use this: it routes by flow_routing.hpp, where every
/// border cell is an outlet.)
///
/// @param filled   width x height heights, row-major
/// @param nthreads 0 = all cores, 1 = serial; cells are independent, so the
///                 result is identical for every thread count
/// @throws std::invalid_argument when filled.size() != width * height
std::vector<flow_receivers> flow_directions(const std::vector<double>& filled, int width, int height,
                                            flow_method method, int nthreads = 1);

/// Flow accumulation: each cell contributes 1 and passes its total to its
/// receivers (topological order by Kahn's algorithm, donors counted first).
///
/// @param receivers width x height, row-major, e.g. from flow_directions()
/// @return width x height upslope areas in cells, including the cell itself
///         (>= 1), row-major, float32 (summed in double). Multiply by
///         cell_size^2 for square metres. The outlets' values sum to the cell count.
/// @throws std::invalid_argument for a size mismatch or a receiver outside the
///         grid; std::logic_error when the directions contain a cycle
std::vector<float> accumulate_flow(const std::vector<flow_receivers>& receivers, int width, int height);

/// Flow accumulation: upslope area of every cell in cells, the cell itself
/// included.
///
/// - d8: depression-free D8 routing of flow_routing.hpp
///   (route_depression_free_d8() on the heights as float64, cell size 1, then
///   drainage_area_d8()): D8 receivers (O'Callaghan and Mark 1984) on the raw
///   heights; the pits' basins joined by a basin graph whose minimax passes
///   give each lake its spill level, as in Cordonnier, Bovy and Braun (2019,
///   "A versatile, linear complexity algorithm for flow routing in
///   topographies with depressions", Earth Surface Dynamics 7) and
///   fastscapelib; only the lakes are filled by Priority-Flood+epsilon
///   (Barnes et al. 2014, see priority_flood_epsilon()), so their water
///   crosses them to the spill point; the area is summed along the stack
///   (Braun and Willett 2013). **Every border cell is an outlet**: water that
///   reaches the border leaves the map there and is not passed along it (a
///   border cell's area counts only itself and its interior donors).
/// - dinf: priority_flood_epsilon(), flow_directions() and accumulate_flow(),
///   where a border cell with a lower neighbour passes its water on.
///
/// Both: every interior cell drains to the border, so the outlets' areas sum
/// to the cell count (d8: exactly; dinf: up to rounding).
///
/// @param h        width x height heights (any unit; only their order matters), row-major
/// @param nthreads 0 = all cores, 1 = serial (d8: receivers, basin graph,
///                 stack and area run in parallel parts; dinf: the directions)
/// @return width x height upslope areas in cells (>= 1), row-major, float32
///         (summed in double; d8 exact up to 2^24 cells). Multiply by
///         cell_size^2 for square metres (contributing_area()).
/// @throws std::invalid_argument for a non-finite height (names the cell and the value)
/// Determinism: the result depends only on the heights, never on `nthreads`.
std::vector<float> flow_accumulation(const heightfield& h, flow_method method, int nthreads = 1);

/// Upslope (contributing) area in square metres: accumulation (cells) * cell_size^2.
std::vector<float> contributing_area(const std::vector<float>& accumulation_cells, double cell_size);

/// Topographic wetness index TWI = ln(a / tan beta) (Beven and Kirkby 1979,
/// "A physically based, variable contributing area model of basin
/// hydrology", Hydrological Sciences Bulletin 24(1)).
///
/// a = specific catchment area in metres = accumulation (cells, as
/// flow_accumulation()) * cell_size^2 / cell_size (contour width = one
/// cell); tan beta = the downslope gradient of the chosen flow method on the
/// filled surface in metres per metre (gradient * height_scale / cell_size),
/// raised to at least tan(min_slope) so that flats and outlets stay finite.
/// d8: an interior cell's gradient is the drop to its receiver per distance
/// (1 or sqrt 2 cells); a border cell is an outlet, and its gradient is its
/// steepest descent to a neighbour inside the map (0 when none is lower).
///
/// @param h            width x height heights (unitless), cell size from h.placement()
/// @param height_scale metres for a height of 1.0, > 0
/// @param min_slope    degrees, > 0 and < 90: the smallest slope used for tan beta
/// @param nthreads     as for flow_accumulation(); the result does not depend on it
/// @return width x height TWI values (dimensionless, finite), row-major, float32
/// @throws std::invalid_argument for height_scale <= 0, min_slope outside (0, 90)
///         or a non-finite height (names the cell and the value)
std::vector<float> topographic_wetness(const heightfield& h, flow_method method, double height_scale, double min_slope,
                                       int nthreads = 1);

}  // namespace landform
