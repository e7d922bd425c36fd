#pragma once
// Test terrain: a square of opensimplex fBm, the surface most stage tests
// start from.

#include <cstdint>

#include "landform/core/heightfield.hpp"
#include "landform/stages/opensimplex.hpp"

namespace landform_test {

/// A size x size field of opensimplex fBm (`octaves`, `feature_size` cells,
/// seed `seed`), cells of `cell_size` metres, the field its own world.
inline landform::heightfield noise_field(int size, double cell_size, std::uint64_t seed, double feature_size,
                                         int octaves) {
  landform::heightfield h(landform::region{size, size, 0, 0, cell_size});
  landform::opensimplex_params p;
  p.feature_size = feature_size;
  p.octaves = octaves;
  landform::stage_context ctx;
  ctx.seed = seed;
  ctx.world = {0, 0, size, size};
  landform::apply_opensimplex(h, p, ctx);
  return h;
}

}  // namespace landform_test
