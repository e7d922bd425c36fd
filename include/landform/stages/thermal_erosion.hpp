#pragma once
/// @file
/// `thermal_erosion`: talus (thermal weathering) erosion after Musgrave et al.
/// 1989 and Olsen 2004.

#include "landform/stages/stage.hpp"

namespace landform {

/// Parameters of the `thermal_erosion` filter.
struct thermal_erosion_params {
  enum class kind { moore, von_neumann };
  double talus_angle = 35.0;         ///< degrees, 0 to 89; steepest slope that does not slide
  double strength = 0.5;             ///< pace of sliding, (0, 1]: the converged shape does not depend on it
  int iterations = 50;               ///< passes over the map, 1 to 100000
  kind neighbourhood = kind::moore;  ///< 8 neighbours (moore) or 4 (von_neumann)

  static const param_schema<thermal_erosion_params>& schema();
  /// One cell per iteration (each pass reads the 3x3 neighbourhood).
  [[nodiscard]] int halo() const { return iterations; }
};

/// Slides material down every slope steeper than the talus angle.
///
/// Method: thermal weathering of F. K. Musgrave, C. E. Kolb and R. S. Mace,
/// "The synthesis and rendering of eroded fractal terrains" (SIGGRAPH 1989),
/// as restated by J. Olsen, "Realtime procedural terrain generation" (2004),
/// §3.1. The talus threshold per cell is `T = tan(talus_angle) * cell_size /
/// height_scale` height units (diagonal neighbours: `T * sqrt(2)`, their
/// distance being `sqrt(2) * cell_size`), so the same preset at another
/// resolution or height scale keeps the same physical angle. For every pair of
/// neighbours whose drop `d` exceeds its threshold by `e = |d| - T_pair > 0`,
/// each iteration moves `k * e / l^2` from the higher cell to the lower one,
/// `l` being the pair's distance in cells (1, or sqrt(2) for diagonals) and
/// `k = strength / (1 + sum of 1 / l^2)`: strength / 7 for moore, strength / 5
/// for von_neumann. A cell's outflow is thus a fraction of its excess, shared
/// among its lower neighbours in proportion to their excess slope per unit
/// distance (the finite-volume weighting; with equal weights, as in Musgrave's
/// formulation, axis and diagonal directions relax at visibly different rates:
/// 13 % on a cone, against under 1 % here). `k` is the largest step that cannot
/// overshoot where all neighbours drain into one pit, so every strength in
/// (0, 1] converges without oscillating into spikes.
///
/// Gather formulation, double-buffered: each cell computes its own net change
/// `k * sum_n (d_n - clamp(d_n, -T_n, T_n)) / l_n^2`, `d_n = h(n) - h(cell)`,
/// from the previous iteration's heights only, so the result does not depend
/// on loop order. Neighbours outside the map do not exist: the edge is not a
/// cliff and does not drain material.
///
/// Parameters, visually:
/// - `talus_angle`: the steepest slope that survives; lower angles give broad
///   scree aprons and rounded ridges, higher ones keep cliffs. 25 to 45
///   degrees is natural rock and scree. Remember that the angle is physical:
///   with the default `cell_size` 1 and `height_scale` 1, a height of 1 per
///   cell is 45 degrees, so set both in the preset.
/// - `strength`: how quickly a slope relaxes; 0.2 to 1. Results after
///   convergence do not depend on it.
/// - `iterations`: how far material travels (about sqrt(iterations) cells of
///   relaxation); 10 to 100 softens noise, thousands settle whole slopes.
/// - `neighbourhood`: moore is isotropic enough for natural terrain;
///   von_neumann slides only along the axes and leaves diagonal ridges steeper
///   (by up to sqrt(2)).
///
/// @pre the heightfield's cell size is > 0 and `ctx.height_scale` > 0.
/// @post the sum of heights is unchanged up to float32 rounding; material
/// only moves from higher to lower cells; at convergence every neighbour
/// drop is at most its threshold.
///
/// Determinism and threading: rows run in parallel (`parallel_rows`) over
/// two buffers; every cell sums its neighbours in one fixed order, so the
/// result is bit-identical for every thread count. Scope: local, halo =
/// iterations (one cell per pass).
void apply_thermal_erosion(heightfield& h, const thermal_erosion_params& p, const stage_context& ctx);

stage_info thermal_erosion_stage_info();

}  // namespace landform
