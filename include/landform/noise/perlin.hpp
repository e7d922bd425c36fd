#pragma once
/// @file
/// Perlin's improved gradient noise in 2D (Ken Perlin, "Improving Noise",
/// SIGGRAPH 2002: the quintic fade 6t^5 - 15t^4 + 10t^3), with gradients
/// hashed from the lattice point, a scalar reference and a SIMD fractal row
/// kernel with runtime dispatch (Highway), bit-identical on every target.
///
/// noise(x, y): cell (i, j) = floor(x, y) (in double), offsets (tx, ty) =
/// (x - i, y - j) rounded to float; corner (a, b) of the cell takes gradient
/// k = ((seed32 ^ (i + a) * 0x9E3779B1 ^ (j + b) * 0x85EBCA77) * 0xC2B2AE3D)
/// >> 29 (32-bit arithmetic) of the 8 gradients (+-1, +-1), (+-sqrt2, 0),
/// (0, +-sqrt2); the four dot products are blended with the fade of tx and
/// ty. All gradients have length sqrt(2), so values lie in [-1, 1].

#include <cstdint>

#include "landform/noise/fbm.hpp"

namespace landform::noise {

/// Improved Perlin noise at (x, y); |x|, |y| below about 1e9.
float perlin_noise2(std::int64_t seed, double x, double y);

/// Scalar reference of a fractal row (the formula of
/// opensimplex2_fractal_row_scalar with perlin_noise2 as the noise).
void perlin_fractal_row_scalar(const fractal_plan& plan, std::int64_t x0, int n, double cell_size, double wy,
                               float* out);

/// The same row with SIMD on the best target the CPU supports.
void perlin_fractal_row(const fractal_plan& plan, std::int64_t x0, int n, double cell_size, double wy, float* out);

}  // namespace landform::noise
