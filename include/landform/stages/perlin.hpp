#pragma once
/// @file
/// `perlin`: fractal improved Perlin gradient noise in float SIMD.

#include "landform/stages/fractal_noise.hpp"

namespace landform {

/// Parameters of the `perlin` generator (the same as `opensimplex2`'s).
using perlin_params = fractal_noise_params;

/// Fills `h` with fractal improved Perlin noise at each cell's world position.
///
/// Method. Ken Perlin's improved gradient noise ("Improving Noise", SIGGRAPH
/// 2002): a square lattice, 8 gradients of length sqrt(2) hashed from each
/// lattice point and the seed (noise/perlin.hpp), blended with the quintic
/// fade 6t^5 - 15t^4 + 10t^3 (C2: no creases at cell borders); values in
/// [-1, 1]. Octaves, modes (fbm, ridged, billow), domain warp and ranges are
/// those of `opensimplex2` (stages/opensimplex2.hpp). Perlin noise shows its
/// square lattice a little (features line up with the axes); OpenSimplex2 is
/// the more isotropic choice, Perlin the classic look.
/// Evaluated in float SIMD with runtime dispatch (Highway), bit-identical with
/// the scalar reference on every target.
/// @pre noise coordinates stay below 1e9 (throws std::domain_error otherwise).
/// @post every cell is replaced. Pointwise: a region equals the same window
/// of the world; rows run in parallel, independent of the thread count.
void apply_perlin(heightfield& h, const perlin_params& p, const stage_context& ctx);

stage_info perlin_stage_info();

}  // namespace landform
