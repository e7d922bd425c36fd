#pragma once
// Constants of the legacy OpenSimplex noise shared by the scalar reference
// (open_simplex_legacy.cpp) and the SIMD row kernels
// (open_simplex_legacy_simd.cpp), so both read the very same doubles.

#include <array>
#include <cstdint>

namespace landform::os_legacy {

// The 2D constants are the gist's decimal literals, not the full-precision
// values of (1/sqrt(3) - 1)/2 and (sqrt(3) - 1)/2: those round to different
// doubles and would break bit-exactness.
inline constexpr double k_stretch_2d = -0.211324865405187;
inline constexpr double k_squish_2d = 0.366025403784439;
inline constexpr double k_stretch_3d = -1.0 / 6;
inline constexpr double k_squish_3d = 1.0 / 3;
inline constexpr double k_norm_2d = 47;
inline constexpr double k_norm_3d = 103;

// Java folds `2 * SQUISH` and `3 * SQUISH` at compile time in IEEE double;
// constexpr evaluation gives the same doubles.
inline constexpr double k_squish_2d_x2 = 2 * k_squish_2d;
inline constexpr double k_squish_3d_x2 = 2 * k_squish_3d;
inline constexpr double k_squish_3d_x3 = 3 * k_squish_3d;

// Gradients are selected by position, so the order matches the gist. Stored as
// double (Java converts the byte entries to double anyway) to skip the
// int-to-double conversion in the hot path.
inline constexpr std::array<double, 16> k_gradients_2d = {
    5, 2, 2, 5, -5, 2, -2, 5, 5, -2, 2, -5, -5, -2, -2, -5,
};

inline constexpr std::array<double, 72> k_gradients_3d = {
    -11, 4,  4,  -4, 11, 4,   -4,  4,   11, 11, 4,   4,  4,   11, 4,   4,  4,  11, -11, -4,  4,   -4, -11, 4,
    -4,  -4, 11, 11, -4, 4,   4,   -11, 4,  4,  -4,  11, -11, 4,  -4,  -4, 11, -4, -4,  4,   -11, 11, 4,   -4,
    4,   11, -4, 4,  4,  -11, -11, -4,  -4, -4, -11, -4, -4,  -4, -11, 11, -4, -4, 4,   -11, -4,  4,  -4,  -11,
};
inline constexpr int k_gradient_count_3d = static_cast<int>(k_gradients_3d.size() / 3);

/// A gradient's (small, integral) components packed for the SIMD kernels'
/// 64-bit gathers: g + 16 in one byte each, x in the low byte, so a component
/// is a shift and a mask away, one gather instead of one per component.
constexpr std::uint64_t pack_gradient(double gx, double gy, double gz) {
  const auto byte = [](double g) { return static_cast<std::uint64_t>(static_cast<std::int64_t>(g) + 16); };
  return byte(gx) | byte(gy) << 8 | byte(gz) << 16;
}

/// The tables of one noise instance as the row kernels gather them (64-bit
/// entries, as many lanes as the double lanes).
struct lane_tables {
  const std::uint64_t* perm_x4;      ///< [256] perm[i], perm[i + 1], perm[i + 2], perm[i + 3] (mod 256), bytes
  const std::uint64_t* perm;         ///< [256] the permutation
  const std::uint64_t* gradient_2d;  ///< [256] packed 2D gradient of perm[i]: hash (perm[x] + y) & 0xFF
  const std::uint64_t* gradient_3d;  ///< [256] packed 3D gradient of hash (perm[perm[x] + y] + z) & 0xFF
};

/// Row kernels (runtime dispatch): out[i] = eval(x[i], y[, z]) for the
/// leading multiple of the vector length of [0, n); returns how many were
/// written (the caller finishes the rest with the scalar eval).
int row_2d(const lane_tables& t, const double* x, double y, int n, double* out);
int row_3d(const lane_tables& t, const double* x, double y, double z, int n, double* out);

}  // namespace landform::os_legacy
