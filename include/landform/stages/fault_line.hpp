#pragma once
/// @file
/// `fault_line`: the fault-line (fault formation) algorithm of seed document
/// 003, without corner bias.

#include <vector>

#include "landform/stages/stage.hpp"

namespace landform {

/// Parameters of the `fault_line` generator.
struct fault_line_params {
  enum class profile_kind { step, sigmoid };
  int iterations = 500;       ///< number of faults, 1 to 100000
  double initial_step = 1.0;  ///< height units: rise of the first fault, >= 0
  double final_step = 0.0;    ///< height units: rise of the last fault, >= 0 (linear in between)
  profile_kind profile = profile_kind::step;
  double width = 8.0;  ///< world units, sigmoid only: the rise goes from 12% to 88% over +-width

  static const param_schema<fault_line_params>& schema();
};

/// One fault: the cells with (x - W/2) nx + (y - H/2) ny > offset are raised
/// by `step`, where (x, y) is a cell centre in cells from the world's top-left
/// edge and W x H the world's size in cells.
struct fault {
  double nx = 0.0, ny = 0.0;  ///< unit normal pointing to the raised side
  double offset = 0.0;        ///< cells, signed distance of the line from the world's centre
  double step = 0.0;          ///< height units
};

/// The faults of `p` with `seed` in `world`, in the order they are applied.
/// Fault i has angle theta = 2 pi u and offset R (2 v - 1) with u, v from
/// hash(seed, i) and R the radius of the circle enclosing the world
/// (half its diagonal): the uniform measure on lines, so no direction and no
/// part of the world is favoured.
std::vector<fault> fault_line_faults(const fault_line_params& p, std::uint64_t seed, const world_extent& world);

/// Fills `h` with the sum of `iterations` random faults: each raises the cells
/// on one side of a random line.
///
/// Method: the fault formation algorithm (seed document 003, after "More
/// OpenGL Game Programming" and Hugo Elias): after hundreds of faults the sum
/// is a cloudy fractal surface. The seed document notes that picking each
/// line through two random points of the map biases lines toward the corners;
/// here lines are drawn from the uniform (Crofton) measure on lines meeting
/// the circle that encloses the world: direction uniform in [0, 2 pi), signed
/// distance from the centre uniform in [-R, R]. Every point of the world is
/// then crossed equally often (tested). Fault i of N rises by initial_step +
/// (final_step - initial_step) i / (N - 1), the step shrinking linearly as in
/// the book, so early faults shape the land and late ones add detail.
/// `profile: step` is the classic hard cliff; `sigmoid` replaces it with
/// step x (1 + tanh(d / width)) / 2, d the cell's signed distance from the
/// line in world units: smooth slopes with no blur pass needed.
///
/// How many faults: a fault crosses a square world with probability
/// 2 sqrt(2) / pi = 0.90 (perimeter of the world over that of the circle;
/// 2 (W + H) / (pi sqrt(W^2 + H^2)) in general), so about 0.9 x iterations
/// lines cross the map. Below about 50 the individual straight cliffs
/// dominate (a faceted look); 200 to 1000 give the cloudy fractal terrain
/// of the seed document (500 is the default); beyond a few thousand the
/// result barely changes. Cost is iterations x rows (each fault crosses a
/// row once: the row splits into runs and prefix sums add the full steps),
/// plus the sigmoid's band cells (about 40 x width / cell_size per fault
/// and row).
/// Parameters: `initial_step` only scales the result; `final_step` equal to it
/// weighs all faults the same (rougher), 0 lets detail fade; `width` 2 to 20
/// cells softens cliffs into slopes.
/// @pre none beyond the schema; the heightfield's values are not read.
/// @post heights lie in [0, sum of the steps] (about half of it on average);
/// follow with `normalize` in min_max mode for [0, 1].
/// Pointwise: each cell sums every fault at its own position, so a region
/// equals the same window of the world; rows run in parallel and the result
/// does not depend on the thread count.
void apply_fault_line(heightfield& h, const fault_line_params& p, const stage_context& ctx);

stage_info fault_line_stage_info();

}  // namespace landform
