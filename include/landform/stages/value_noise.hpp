#pragma once
/// @file
/// `value_noise`: multi-resolution value noise (seed document 001) and
/// value-noise fBm, from hashed lattice values at world coordinates.

#include <cstdint>

#include "landform/noise/value.hpp"
#include "landform/stages/stage.hpp"

namespace landform {

/// Parameters of the `value_noise` generator.
struct value_noise_params {
  enum class mode_kind { multiresolution, fbm };
  enum class interpolation_kind { linear, cosine, cubic, quintic, catmull_rom };

  mode_kind mode = mode_kind::multiresolution;
  interpolation_kind interpolation = interpolation_kind::cosine;
  // multiresolution (seed document 001)
  double scale = 0.25;      ///< height units: maximum height of the finest pass, > 0
  double multiplier = 2.0;  ///< amplitude of each pass over the previous (finer) one, > 0
  int passes = 0;           ///< 0 = as many as fit the world: floor(log2(world extent / spacing)); else 1 to 40
  double spacing = 1.0;     ///< world units: lattice spacing of the finest pass (1 cell at cell_size 1), > 0
  // fbm
  double feature_size = 100.0;  ///< world units: lattice spacing of the first (coarsest) octave, > 0
  int octaves = 6;              ///< 1 to 24
  double lacunarity = 2.0;      ///< frequency ratio between octaves, 1 to 8
  double gain = 0.5;            ///< amplitude ratio between octaves, 0 to 1
  double amplitude = 1.0;       ///< height units: amplitude of the first octave
  bool normalize = false;       ///< divide by the sum of the amplitudes: [0, 1] (multiresolution), [-1, 1] (fbm)

  static const param_schema<value_noise_params>& schema();
};

/// The number of passes `p` uses in a world of `world` cells at `cell_size`
/// (p.passes, or the automatic count when it is 0).
int value_noise_passes(const value_noise_params& p, const world_extent& world, double cell_size);

/// The octave plan of `p` in a world of `world` cells at `cell_size` under a
/// stage seed: fbm is the shared fBm plan (noise/fbm.hpp) on a signed lattice;
/// multiresolution has one octave per pass on an unsigned lattice.
noise::value_plan value_noise_plan(const value_noise_params& p, const world_extent& world, double cell_size,
                                   std::uint64_t seed);

/// Fills `h` with value noise sampled at each cell's world position.
///
/// Method. A value lattice assigns each integer lattice point (ix, iy) of
/// layer k the value v = the top 24 bits of xxHash32(iy, ix) under the seed
/// hash64(seed, k) folded to 32 bits, uniform in [0, 1) (noise/value.hpp), so
/// the map depends neither on the map size nor on the region, and every
/// sample between lattice points is an interpolation, in float, of the four
/// (sixteen for catmull_rom) around it. Lattice indices are 32-bit.
/// - `multiresolution` reproduces Shawn Swift's "Perlin Noise HeightMap
///   Generator" (2003, public domain; seed document 001): pass k (k = 0, 1,
///   ..., passes - 1) has lattice spacing `spacing` x 2^k and values uniform in
///   [0, scale x multiplier^k]; the passes are summed. The finest pass with
///   spacing 1 cell is one random value per cell, as in the original's first
///   pass; with the original's cosine weighting (`interpolation: cosine`),
///   scale 0.25, multiplier 2 and a 1024-cell world (10 passes) heights span
///   [0, 255.75], the original's 8-bit image before its clamp to 255.
///   Range: [0, scale x (multiplier^passes - 1) / (multiplier - 1)].
/// - `fbm` is the usual value-noise fractal sum: octave k has lattice spacing
///   feature_size / lacunarity^k (the shared fBm plan, noise/fbm.hpp) and
///   signed lattice values in [-1, 1) scaled by
///   amplitude x gain^k. Range: +-|amplitude| x (1 - gain^octaves) / (1 - gain).
/// `normalize` divides by the sum of the amplitudes so the ranges become
/// [0, 1] and [-1, 1].
///
/// Interpolation weights for a fraction t: linear t; cosine (1 - cos(pi t)) / 2
/// (the original's "cosine-weighted bilinear", rounder blobs without diamond
/// artefacts); cubic 3t^2 - 2t^3; quintic 6t^5 - 15t^4 + 10t^3 (C2, no
/// lattice creases); catmull_rom is bicubic Catmull-Rom through 4 x 4 lattice
/// values, scaled by 1/1.5625 (its largest gain) so the range holds; it is
/// the sharpest but slightly lower in contrast.
///
/// Parameters and their look: multiresolution with multiplier 2 is dominated
/// by the coarsest passes (large soft blobs, the finest passes a faint grain);
/// multiplier 1 weighs every pass the same (grainy); 1.5 to 2.5 is the useful
/// range. fbm: feature_size sets the size of the largest hills; gain 0.4 to
/// 0.6 and 5 to 8 octaves look natural; lacunarity 2.
/// @pre none beyond the schema; the heightfield's values are not read.
/// @post every cell is replaced and lies in the range above.
/// Pointwise: a region equals the same window of the world; rows run in
/// parallel and the result does not depend on the thread count or on the
/// SIMD target (noise::value_row_kernel). Throws std::domain_error if
/// lattice coordinates (world coordinate / lattice spacing) reach 1e9.
void apply_value_noise(heightfield& h, const value_noise_params& p, const stage_context& ctx);

stage_info value_noise_stage_info();

}  // namespace landform
