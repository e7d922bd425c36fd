#pragma once
// One row of a normal map, quantised: the tangent-space normal
// n = normalize(-s dz/dx, -s dz/dy, 1) of each cell, encoded as (n + 1) / 2
// and rounded to 0..255 per channel (R G B interleaved). Private to
// outputs/normal_output.cpp.

#include <cstdint>
#include <string>

namespace landform::detail {

/// `n` cells from Horn's gradient rows `east` and `north` (float32, metres
/// per metre) into `out` (3 n bytes). `flip` is +1 (OpenGL) or -1
/// (DirectX) on the green channel. In double: nx = -strength east,
/// ny = -strength north, inv = 1 / sqrt(nx^2 + ny^2 + 1); each channel
/// (nx inv, flip ny inv, inv) x 0.5 + 0.5 rounded to float, then
/// lround(v x 255). Runs in SIMD lanes on the best Highway target the CPU
/// has; the bytes equal normal_row_u8_scalar() on every target (the same
/// exactly rounded operations in the same order).
void normal_row_u8(const float* east, const float* north, int n, double strength, float flip, std::uint8_t* out);

/// The scalar reference of normal_row_u8.
void normal_row_u8_scalar(const float* east, const float* north, int n, double strength, float flip, std::uint8_t* out);

/// The Highway target normal_row_u8 dispatches to (e.g. "AVX2").
std::string normal_row_target();

}  // namespace landform::detail
