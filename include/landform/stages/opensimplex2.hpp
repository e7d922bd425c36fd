#pragma once
/// @file
/// `opensimplex2`: fractal OpenSimplex2 noise (K.jpg) in float SIMD.

#include "landform/stages/fractal_noise.hpp"

namespace landform {

/// Parameters of the `opensimplex2` generator (shared with `perlin`).
using opensimplex2_params = fractal_noise_params;

/// Fills `h` with fractal OpenSimplex2 noise at each cell's world position.
///
/// Method. K.jpg's OpenSimplex2 2D ("faster variant", public domain,
/// github.com/KdotJPG/OpenSimplex2: simplex-style noise on the A2* lattice,
/// three vertices per point, 24 gradients, radius^2 0.5), evaluated exactly
/// as published (the scalar reference matches the Java bit for bit) and in
/// float SIMD with runtime dispatch (Highway: AVX-512, AVX2, SSE4, SSSE3 or
/// emulated, as the CPU allows), bit-identical on every target.
/// The cell at world (x, y) metres gets, with n_k the noise of octave k
/// (seed hash64(stage seed, k)) and f_k = lacunarity^k / feature_size:
/// - fbm:    sum_k a_k n_k(x f_k, y f_k)
/// - billow: sum_k a_k (2 |n_k| - 1): puffy hills, creased valleys
/// - ridged: sum_k a_k (2 (1 - |n_k|)^2 - 1): sharp crests (mountain chains)
/// with a_k = amplitude gain^k. `warp_amplitude` > 0 first moves (x, y) by
/// warp_amplitude times two further OpenSimplex2 fields sampled at
/// (x, y) * warp_frequency (domain warp: swirled, folded shapes).
/// Look: feature_size sets the size of the largest hills (in metres, so the
/// map keeps its look at any cell size); 5 to 8 octaves, gain 0.4 to 0.6.
/// Output range: within +-|amplitude| (1 - gain^octaves) / (1 - gain).
/// @pre noise coordinates stay below 1e9 (throws std::domain_error otherwise).
/// @post every cell is replaced (previous values are not read).
/// Pointwise: a region equals the same window of the world; rows run in
/// parallel and the result does not depend on the thread count or the CPU.
void apply_opensimplex2(heightfield& h, const opensimplex2_params& p, const stage_context& ctx);

stage_info opensimplex2_stage_info();

}  // namespace landform
