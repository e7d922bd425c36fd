#include "landform/stages/olsen_erosion.hpp"

#include <vector>

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

namespace {

// One in-place pass over a column-major copy (element (i, j) at i * H + j),
// so the tutorial's x-outer, y-inner traversal walks memory contiguously.
void erode_pass(std::vector<float>& t, int w, int h, double threshold, const stage_context& ctx) {
  const std::ptrdiff_t stride = h;  // one step in x
  for (int i = 1; i < w - 1; ++i) {
    // The pass is serial (its scan order is the algorithm): poll for a stop
    // every 256 columns, about 10 ms at 4096 rows.
    if (i % 256 == 0) ctx.check_stop();
    for (int j = 1; j < h - 1; ++j) {
      const std::ptrdiff_t centre = i * stride + j;
      const double c = t[static_cast<std::size_t>(centre)];
      double d_max = 0.0;
      std::ptrdiff_t match = 0;
      for (int u = -1; u <= 1; ++u) {
        for (int v = -1; v <= 1; ++v) {
          if (u == 0 && v == 0) continue;
          const std::ptrdiff_t n = centre + u * stride + v;
          const double d = c - static_cast<double>(t[static_cast<std::size_t>(n)]);
          if (d > d_max) {  // strict: the first maximum in scan order wins
            d_max = d;
            match = n;
          }
        }
      }
      if (0.0 < d_max && d_max <= threshold) {
        const double d_h = 0.5 * d_max;
        t[static_cast<std::size_t>(centre)] = static_cast<float>(c - d_h);
        t[static_cast<std::size_t>(match)] = static_cast<float>(t[static_cast<std::size_t>(match)] + d_h);
      }
    }
  }
}

}  // namespace

void apply_olsen_erosion(heightfield& h, const olsen_erosion_params& p, const stage_context& ctx) {
  const int w = h.width(), ht = h.height();
  if (w < 3 || ht < 3) return;  // no interior cell
  std::vector<float> t(h.size());
  for (int j = 0; j < ht; ++j)
    for (int i = 0; i < w; ++i) t[static_cast<std::size_t>(i) * ht + j] = h.at(i, j);
  // The slope limit scales with the world's width (the tutorial's Size); a
  // bare call without a world uses the map's own width.
  const int world_width = ctx.world.width > 0 ? ctx.world.width : w;
  const double threshold = p.smoothness / static_cast<double>(world_width);
  for (int pass = 0; pass < p.iterations; ++pass) {
    ctx.check_stop();
    erode_pass(t, w, ht, threshold, ctx);
    ctx.progress(static_cast<double>(pass + 1) / p.iterations);
  }
  for (int j = 0; j < ht; ++j)
    for (int i = 0; i < w; ++i) h.at(i, j) = t[static_cast<std::size_t>(i) * ht + j];
}

stage_info olsen_erosion_stage_info() {
  stage_info info = make_stage_info<olsen_erosion_params>(
      "olsen_erosion", stage_category::filter, stage_scope::world,
      "the tutorial's Erode(smoothness): flatten gentle slopes, keep steep ones (Olsen 2004)",
      "Each pass moves half of the largest drop to the lowest Moore neighbour, in place, but only where that "
      "drop is at most smoothness / world width; steep slopes are left alone, which carves terraces and "
      "plateaus. Exactly the Erode() of the Java landscape tutorial (seed document 000), after J. Olsen, "
      "\"Realtime procedural terrain generation\" (2004). Conserves the sum of heights. Serial (the in-place "
      "visiting order is part of the algorithm). Needs the whole world: a region build computes the world "
      "and crops it.",
      &apply_olsen_erosion);
  set_cost<olsen_erosion_params>(
      info, [](const olsen_erosion_params& p, double cells) { return cells * p.iterations * 10.0; });
  info.halo_rule = "whole world (the in-place scan carries material along it without bound)";
  return info;
}

}  // namespace landform
