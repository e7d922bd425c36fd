#pragma once
/// @file
/// The fractal combinator shared by the float noise stages: the octave plan
/// (frequency, amplitude and seed of each octave), the optional domain warp,
/// and how one octave's value is shaped and added (`fbm`, `ridged`, `billow`).
///
/// The shaping is one template used by both the scalar reference and the SIMD
/// kernels, so the two perform the same float operations in the same order
/// (no fused multiply-add: the library is compiled with -ffp-contract=off).

#include <cmath>
#include <cstdint>
#include <vector>

namespace landform::noise {

/// How octaves are combined. With a_k the amplitude of octave k and n_k its
/// noise value in [-1, 1]:
/// - fbm:    sum of a_k * n_k
/// - billow: sum of a_k * (2 |n_k| - 1): rounded hills, creased valleys
/// - ridged: sum of a_k * (2 (1 - |n_k|)^2 - 1): sharp crests, rounded valleys
/// Each term lies in [-a_k, a_k], so every mode stays within +-sum(a_k).
enum class fractal_kind { fbm, ridged, billow };

/// What a stage asks of the combinator (its params, in world units).
struct fractal_settings {
  fractal_kind kind = fractal_kind::fbm;
  double feature_size = 100.0;  ///< world units per noise unit of octave 1, > 0
  int octaves = 6;              ///< >= 1
  double lacunarity = 2.0;      ///< frequency ratio between octaves
  double gain = 0.5;            ///< amplitude ratio between octaves
  double amplitude = 1.0;       ///< amplitude of octave 1 (height units)
  double warp_amplitude = 0.0;  ///< world units the domain warp moves a point by at most; 0 = no warp
  double warp_frequency = 0.0;  ///< noise units per world unit of the warp field
};

/// One octave: noise sampled at (world position * frequency).
struct octave {
  double frequency = 0.0;  ///< noise units per world unit
  float amplitude = 0.0f;  ///< height units
  std::int64_t seed = 0;   ///< the noise's own seed, hashed from the stage seed and k
};

/// The evaluated plan of a fractal: everything a kernel needs.
struct fractal_plan {
  fractal_kind kind = fractal_kind::fbm;
  std::vector<octave> octaves;
  double warp_amplitude = 0.0;  ///< 0 = no warp
  double warp_frequency = 0.0;
  std::int64_t warp_seed_x = 0;  ///< seeds of the two warp noise fields
  std::int64_t warp_seed_y = 0;

  /// sum of |a_k|: the bound of |value|.
  [[nodiscard]] double bound() const;
  [[nodiscard]] bool warped() const { return warp_amplitude != 0.0; }
};

/// The plan for `s` under a stage seed. Octave k has frequency
/// lacunarity^k / feature_size (the power computed by repeated multiplication
/// in double), amplitude amplitude * gain^k rounded to float, and seed
/// hash64(stage_seed, k) (core/rng.hpp); the warp fields use the streams
/// "warp x" and "warp y" of the same seed.
fractal_plan make_fractal_plan(const fractal_settings& s, std::uint64_t stage_seed);

/// Adds octave value `n` with amplitude `amp` to `sum` as `kind` says.
/// `V` is float or a SIMD vector; `ops` supplies `abs(v)`, and the constants
/// `one` and `two` of type V.
///
/// The definition is a macro so that SIMD code compiled per Highway target
/// can instantiate the very same text inside its target namespace (GCC gives
/// a template the target attributes of the place it is defined, so a template
/// defined here could not inline the target's vector operators).
#define LANDFORM_DEFINE_FRACTAL_ACCUMULATE                                                               \
  template <class V, class Ops>                                                                          \
  inline V fractal_accumulate(::landform::noise::fractal_kind kind, V sum, V n, V amp, const Ops& ops) { \
    switch (kind) {                                                                                      \
      case ::landform::noise::fractal_kind::billow:                                                      \
        return sum + (ops.abs(n) * ops.two - ops.one) * amp;                                             \
      case ::landform::noise::fractal_kind::ridged: {                                                    \
        const V r = ops.one - ops.abs(n);                                                                \
        return sum + ((r * r) * ops.two - ops.one) * amp;                                                \
      }                                                                                                  \
      case ::landform::noise::fractal_kind::fbm:                                                         \
        break;                                                                                           \
    }                                                                                                    \
    return sum + n * amp;                                                                                \
  }

LANDFORM_DEFINE_FRACTAL_ACCUMULATE

/// The scalar `Ops` of fractal_accumulate.
struct scalar_ops {
  float one = 1.0f;
  float two = 2.0f;
  [[nodiscard]] static float abs(float v) { return std::fabs(v); }
};

}  // namespace landform::noise
