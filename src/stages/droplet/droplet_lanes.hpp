#pragma once
// The droplet simulation, k_lanes droplets side by side in vector lanes.

#include "landform/core/particle_scheduler.hpp"
#include "stages/droplet/droplet_model.hpp"
#include "stages/droplet/erosion_brush.hpp"

namespace landform::droplet {

// Runs every droplet of the tiles taken from `queue` (tiles of one colour
// phase, whose reaches never meet), each tile whole in one lane, its
// droplets in order, adding each droplet's totals to tile_totals[tile.id].
// Bit-identical to run_tiles_scalar. Polls queue.stop_requested() per
// droplet; @throws cancelled_error once it is true.
void run_tiles_lanes(const field_view& f, const droplet_constants& c, const erosion_brush& brush,
                     particle_tile_queue& queue, droplet_totals* tile_totals);

// run_tiles_lanes in four lanes whatever the CPU (it takes eight on AVX-512
// machines), so that the oracle test covers both widths on one machine.
void run_tiles_lanes4(const field_view& f, const droplet_constants& c, const erosion_brush& brush,
                      particle_tile_queue& queue, droplet_totals* tile_totals);

}  // namespace landform::droplet
