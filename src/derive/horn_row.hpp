#pragma once
// Horn's gradient of a run of interior cells from three row pointers: the
// scalar arithmetic written once, for horn_gradient (derive/surface.cpp) and
// the normal map's fused row kernel (outputs/normal_row.cpp), whose SIMD
// lanes repeat it operation for operation. Private to the library.

namespace landform::detail {

/// Horn's east and north components (metres per metre, float32) of `n`
/// cells whose 3x3 windows lie inside the field. `up`, `mid` and `down` point
/// at the first cell's column in the rows north of it, through it and south
/// of it; columns -1 and n of each must be readable. Heights are multiplied by
/// `scale` (metres per height unit) in double, `denom` is 8 x cell_size in
/// metres. Writes `n` values to `east` and to `north`.
inline void horn_row_interior(const float* up, const float* mid, const float* down, int n, double scale, double denom,
                              float* east, float* north) {
  for (int i = 0; i < n; ++i) {
    const double a = up[i - 1] * scale, b = up[i] * scale, c = up[i + 1] * scale;
    const double d = mid[i - 1] * scale, f = mid[i + 1] * scale;
    const double g = down[i - 1] * scale, hh = down[i] * scale, ii = down[i + 1] * scale;
    east[i] = static_cast<float>(((c + 2 * f + ii) - (a + 2 * d + g)) / denom);
    north[i] = static_cast<float>(((a + 2 * b + c) - (g + 2 * hh + ii)) / denom);
  }
}

}  // namespace landform::detail
