#pragma once
/// @file
/// `opensimplex`: fBm over Kurt Spencer's legacy OpenSimplex noise.

#include "landform/stages/stage.hpp"

namespace landform {

/// Parameters of the `opensimplex` generator.
struct opensimplex_params {
  enum class dims { two, three };
  double feature_size = 100.0;    ///< world units per noise unit of octave 1; > 0
  int octaves = 1;                ///< number of fBm octaves, 1 to 16
  double lacunarity = 2.0;        ///< frequency ratio between octaves, 1 to 8
  double gain = 0.5;              ///< amplitude ratio between octaves (persistence), 0 to 1
  double amplitude = 1.0;         ///< amplitude of octave 1 (height units)
  double z = 0.0;                 ///< 3D slice coordinate, in noise units of octave 1
  dims dimensions = dims::three;  ///< the tutorial samples 3D noise at z = 0

  static const param_schema<opensimplex_params>& schema();
};

/// Fills `h` with fBm OpenSimplex noise sampled at each cell's world position.
///
/// Octave k (k = 0, 1, ...) adds `amplitude * gain^k * n_k(x * lacunarity^k /
/// feature_size, y * lacunarity^k / feature_size, z * lacunarity^k)` where
/// (x, y) is the cell's world coordinate and n_k is OpenSimplex seeded with
/// `seed + k`. With one octave, amplitude 1 and z = 0 this is exactly the
/// tutorial's base map `eval(x / 100, y / 100, 0)` (seed document 000).
/// Output range: about +-amplitude * (1 - gain^octaves) / (1 - gain).
/// @post every cell is replaced (the heightfield's previous values are unused).
/// Pointwise: any region equals the same window of the whole world; rows run
/// in parallel and the result does not depend on the thread count.
void apply_opensimplex(heightfield& h, const opensimplex_params& p, const stage_context& ctx);

stage_info opensimplex_stage_info();

}  // namespace landform
