#include "landform/stages/olsen_erosion.hpp"

#include <algorithm>

#include "stages/inplace_scan.hpp"

namespace landform {

const param_schema<olsen_erosion_params>& olsen_erosion_params::schema() {
  using P = olsen_erosion_params;
  static const auto s =
      param_schema<P>()
          .number("smoothness", &P::smoothness)
          .unit("height units x world width")
          .range(above(0))
          .doc("drops up to smoothness / world width (per cell) are flattened; larger drops stay as cliffs")
          .effect("higher = more of the terrain is flattened into plateaus and valley floors; cliffs remain")
          .integer("iterations", &P::iterations)
          .unit("passes")
          .range(between(1, 10000))
          .doc("number of erosion passes")
          .effect("more = flatter plains with sharper breaks at the cliffs");
  return s;
}

void apply_olsen_erosion(heightfield& h, const olsen_erosion_params& p, const stage_context& ctx) {
  const int w = h.width(), ht = h.height();
  if (w < 3 || ht < 3) return;  // no interior cell
  inplace_scan::skewed_grid grid = inplace_scan::to_skewed(h);
  // The slope limit scales with the world's width (the tutorial's Size); a
  // bare call without a world uses the map's own width.
  const int world_width = ctx.world.width > 0 ? ctx.world.width : w;
  const double threshold = p.smoothness / static_cast<double>(world_width);
  // The pass is serial (wavefront after wavefront): poll for a stop every
  // 1024 wavefronts, a few milliseconds at 4096 rows.
  constexpr int k_poll = 1024;
  for (int pass = 0; pass < p.iterations; ++pass) {
    for (int t = 0; t < grid.wavefronts(); t += k_poll) {
      ctx.check_stop();
      inplace_scan::erode_wavefronts(grid, t, std::min(t + k_poll, grid.wavefronts()), threshold);
    }
    ctx.progress(static_cast<double>(pass + 1) / p.iterations);
  }
  inplace_scan::from_skewed(grid, h);
}

stage_info olsen_erosion_stage_info() {
  stage_info info = make_stage_info<olsen_erosion_params>(
      "olsen_erosion", stage_category::filter, stage_scope::world,
      "the tutorial's Erode(smoothness): flatten gentle slopes, keep steep ones (Olsen 2004)",
      "Each pass moves half of the largest drop to the lowest Moore neighbour, in place, but only where that "
      "drop is at most smoothness / world width; steep slopes are left alone, which carves terraces and "
      "plateaus. Exactly the Erode() of the Java landscape tutorial (seed document 000), after J. Olsen, "
      "\"Realtime procedural terrain generation\" (2004). Conserves the sum of heights. Serial (the in-place "
      "visiting order is part of the algorithm; it runs as wavefronts of independent cells in SIMD lanes, "
      "bit-identical). Needs the whole world: a region build computes the world "
      "and crops it.",
      &apply_olsen_erosion);
  set_cost<olsen_erosion_params>(
      info, [](const olsen_erosion_params& p, double cells) { return cells * p.iterations * 10.0; });
  info.halo_rule = "whole world (the in-place scan carries material along it without bound)";
  return info;
}

}  // namespace landform
