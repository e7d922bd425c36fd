#pragma once
// A scalar droplet step: one droplet at a time, plain float, the same IEEE
// operations in the same order as a lane of run_tiles_lanes. Slower; the
// test oracle of the lane kernel (tests/unit/test_droplet_oracle.cpp).

#include "landform/core/particle_scheduler.hpp"
#include "stages/droplet/droplet_model.hpp"
#include "stages/droplet/erosion_brush.hpp"

namespace landform::droplet {

// Runs one droplet from `start` until it dies, changing the cells of `f`
// and adding its totals to `t`.
void run_droplet_scalar(const field_view& f, const droplet_constants& c, const erosion_brush& brush,
                        particle_start start, droplet_totals& t);

// run_tiles_lanes' contract, one droplet at a time: every droplet of the
// tiles taken from `queue`, in tile order, into tile_totals[tile.id].
// @throws cancelled_error once queue.stop_requested().
void run_tiles_scalar(const field_view& f, const droplet_constants& c, const erosion_brush& brush,
                      particle_tile_queue& queue, droplet_totals* tile_totals);

}  // namespace landform::droplet
