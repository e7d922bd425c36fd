#pragma once
/// @file
/// OpenSimplex2 2D noise (K.jpg's "OpenSimplex 2, faster variant", public
/// domain, github.com/KdotJPG/OpenSimplex2, `noise2`), a scalar reference and
/// a SIMD fractal row kernel with runtime dispatch (Highway).
///
/// The algorithm as published: skew the input onto the A2* lattice in double
/// (s = 0.366025403784439 (x + y)), take the base cell by floor, and sum over
/// the three vertices of the enclosing triangle the contribution
/// (a^2)^2 * (g . d) with a = 0.5 - |d|^2 clipped at 0, where d is the
/// unskewed offset (float) and g one of 24 unit gradients divided by
/// 0.01001634121365712, chosen by a 64-bit multiplicative hash of the seed and
/// the lattice point (primes 0x5205402B9270C86F, 0x598CD327003817B5,
/// multiplier 0x53A3F72DEEC546F5). Values lie in about [-1, 1].
///
/// `opensimplex2_noise2` is the scalar form of that algorithm and matches the
/// published Java bit for bit (tested against values the Java computed). The
/// SIMD kernel performs the same IEEE operations in the same order on every
/// target (SSSE3/SSE4/AVX2/AVX-512/emulated; no fused multiply-add, no
/// approximate reciprocal), so its output equals the scalar reference bit for
/// bit whichever target the CPU selects.

#include <cstdint>
#include <string>
#include <vector>

#include "landform/noise/fbm.hpp"

namespace landform::noise {

/// OpenSimplex2 noise2(seed, x, y): the published scalar algorithm.
/// Defined for |x|, |y| below about 1e9 (lattice indices are 32-bit).
float opensimplex2_noise2(std::int64_t seed, double x, double y);

/// The largest noise coordinate the kernels accept (|x|, |y| after scaling).
inline constexpr double k_opensimplex2_limit = 1e9;

/// Scalar reference of the fractal row: out[i] for cells i = 0 .. n-1 of a
/// row whose world x is (x0 + i) * cell_size and world y is `wy`:
///   (wx, wy) = (double(x0 + i) * cell_size, wy)
///   if warped: q = (wx * warp_frequency, wy * warp_frequency),
///              wx += warp_amplitude * double(noise2(warp_seed_x, q)),
///              wy += warp_amplitude * double(noise2(warp_seed_y, q))
///   sum = 0; for each octave k: n = noise2(seed_k, wx * f_k, wy * f_k),
///   sum = fractal_accumulate(kind, sum, n, a_k)
void opensimplex2_fractal_row_scalar(const fractal_plan& plan, std::int64_t x0, int n, double cell_size, double wy,
                                     float* out);

/// The same row with SIMD, on the best target the CPU supports (runtime
/// dispatch); bit-identical with the scalar reference.
void opensimplex2_fractal_row(const fractal_plan& plan, std::int64_t x0, int n, double cell_size, double wy,
                              float* out);

/// Name of the SIMD target runtime dispatch selects now (e.g. "AVX2").
std::string simd_target_name();

}  // namespace landform::noise
