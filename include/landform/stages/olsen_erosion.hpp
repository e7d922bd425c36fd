#pragma once
/// @file
/// `olsen_erosion`: the tutorial's Erode(smoothness), after Olsen 2004.

#include "landform/stages/stage.hpp"

namespace landform {

/// Parameters of the `olsen_erosion` filter.
struct olsen_erosion_params {
  double smoothness = 18.0;  ///< slope limit: material moves only where the drop is <= smoothness / world width
  int iterations = 50;       ///< passes over the map, 1 to 10000

  static const param_schema<olsen_erosion_params>& schema();
};

/// Olsen's erosion that moves material only where the slope is gentle.
///
/// Each pass visits the interior cells in place, x outer (1 .. W-2), y inner
/// (1 .. H-2), so a cell sees changes made earlier in the same pass. For each
/// cell the 8 neighbours are scanned (x-offset outer, y-offset inner) for the
/// largest drop `d_max = h(cell) - h(neighbour)`; the first maximum in scan
/// order wins ties. If `0 < d_max <= smoothness / W` (W = world width in
/// cells), half of d_max moves from the cell to that neighbour. This is
/// exactly `Erode()` of the Java landscape tutorial (seed document 000), which
/// follows J. Olsen, "Realtime procedural terrain generation" (2004), §3.2:
/// flattening gentle slopes while steep ones keep their shape.
/// Arithmetic is done in double on the float32 heights.
/// @post the sum of heights is conserved up to float32 rounding; border cells
/// are never centres but may receive material.
/// One thread: the in-place order is the algorithm. Cells at least three
/// apart do not interact, so the pass runs as wavefronts y + 3 x of
/// independent cells in SIMD lanes (stages/inplace_scan.hpp), with the
/// scan's result bit for bit. Scope: world.
void apply_olsen_erosion(heightfield& h, const olsen_erosion_params& p, const stage_context& ctx);

stage_info olsen_erosion_stage_info();

}  // namespace landform
