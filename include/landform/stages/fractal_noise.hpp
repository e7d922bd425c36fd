#pragma once
/// @file
/// What the float fractal noise stages (`opensimplex2`, `perlin`) share:
/// their parameters and the fill of a heightfield from a SIMD row kernel.

#include <cstdint>

#include "landform/noise/fbm.hpp"
#include "landform/stages/stage.hpp"

namespace landform {

/// Parameters of the float fractal noise generators (`opensimplex2`, `perlin`).
struct fractal_noise_params {
  enum class fractal_mode { fbm, ridged, billow };
  fractal_mode fractal = fractal_mode::fbm;  ///< how octaves combine
  double feature_size = 256.0;               ///< world units per noise unit of octave 1; > 0
  int octaves = 6;                           ///< 1 to 16
  double lacunarity = 2.0;                   ///< frequency ratio between octaves, 1 to 8
  double gain = 0.5;                         ///< amplitude ratio between octaves, 0 to 1
  double amplitude = 1.0;                    ///< amplitude of octave 1 (height units)
  double warp_amplitude = 0.0;               ///< world units; 0 = no domain warp
  double warp_frequency = 0.005;             ///< noise units per world unit of the warp field; > 0

  static const param_schema<fractal_noise_params>& schema();
};

/// The octave plan of `p` under a stage seed (noise/fbm.hpp).
noise::fractal_plan fractal_plan_of(const fractal_noise_params& p, std::uint64_t seed);

/// A row kernel: fills `n` cells of a row at world x (x0 + i) * cell_size, world y `wy`.
using fractal_row_fn = void (*)(const noise::fractal_plan&, std::int64_t x0, int n, double cell_size, double wy,
                                float* out);

/// Fills `h` row by row in parallel with `row` at each cell's world position.
/// Throws std::domain_error when noise coordinates would reach 1e9 (the
/// kernels' lattice indices are 32-bit).
void fill_fractal_noise(heightfield& h, const noise::fractal_plan& plan, const stage_context& ctx, fractal_row_fn row);

}  // namespace landform
