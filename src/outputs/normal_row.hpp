#pragma once
// Rows of a normal map: the tangent-space normal
// n = normalize(-s dz/dx, -s dz/dy, 1) of each cell from Horn's gradient,
// encoded as (n + 1) / 2 per channel (R G B interleaved) and stored as 8-bit,
// 16-bit or float samples. Private to outputs/normal_output.cpp.

#include <cstdint>
#include <string>

namespace landform::detail {

/// The constants of a normal map: Horn's gradient and the normal formula.
struct normal_params {
  double height_scale = 1.0;  ///< metres per height unit
  double denom = 8.0;         ///< Horn's denominator, 8 x cell_size, metres
  double strength = 1.0;      ///< multiplies both slopes
  float flip = 1.0f;          ///< +1 (OpenGL) or -1 (DirectX) on the green channel
};

/// The normal formula, written once: `n` cells from their gradient `east`
/// and `north` (float32, metres per metre) into `out` (3 n samples). In
/// double: nx = -strength east, ny = -strength north,
/// inv = 1 / sqrt(nx^2 + ny^2 + 1); each channel (nx inv, flip ny inv, inv)
/// x 0.5 + 0.5 is rounded to float, then stored as it is (float), as
/// lround(v x 255) (8-bit) or lround(v x 65535) (16-bit).
void normal_cells(const float* east, const float* north, int n, const normal_params& p, std::uint8_t* out);
void normal_cells(const float* east, const float* north, int n, const normal_params& p, std::uint16_t* out);
void normal_cells(const float* east, const float* north, int n, const normal_params& p, float* out);

/// Horn's gradient and the normal of `n` interior cells in one pass, with no
/// gradient array: `up`, `mid` and `down` point at the first cell's column in
/// the rows north of it, through it and south of it (columns -1 and n of each
/// must be readable: the caller keeps border cells, which need the edge
/// policy, for normal_cells). Runs in SIMD lanes on the best Highway target
/// the CPU has; the samples equal normal_row_scalar() on every target (the
/// same exactly rounded operations in the same order).
void normal_row(const float* up, const float* mid, const float* down, int n, const normal_params& p, std::uint8_t* out);
void normal_row(const float* up, const float* mid, const float* down, int n, const normal_params& p,
                std::uint16_t* out);
void normal_row(const float* up, const float* mid, const float* down, int n, const normal_params& p, float* out);

/// The scalar reference of normal_row: detail::horn_row_interior, then
/// normal_cells.
void normal_row_scalar(const float* up, const float* mid, const float* down, int n, const normal_params& p,
                       std::uint8_t* out);
void normal_row_scalar(const float* up, const float* mid, const float* down, int n, const normal_params& p,
                       std::uint16_t* out);
void normal_row_scalar(const float* up, const float* mid, const float* down, int n, const normal_params& p, float* out);

/// The Highway target normal_row dispatches to (e.g. "AVX3").
std::string normal_row_target();

}  // namespace landform::detail
