#pragma once
/// @file
/// Legacy OpenSimplex noise (2D and 3D), a bit-exact port of Kurt Spencer's
/// 2014 Java class "OpenSimplexNoise" v1.1 (public-domain gist).

#include <array>
#include <cstdint>

namespace landform {

/// Kurt Spencer's legacy OpenSimplex noise (2014, gist v1.1), 2D and 3D.
///
/// Gradient noise on a simplectic honeycomb: each sample sums the
/// contributions `(2 - |d|^2)^4 * (g . d)` of the nearby lattice vertices,
/// scaled by 1/47 (2D) or 1/103 (3D). Output is roughly in [-1, 1] (in practice
/// a little narrower); it is continuous but not periodic.
///
/// **Bit-exact.** Given the same seed and coordinates, `eval` returns the same
/// double as the Java original (strict IEEE-754 binary64): the seeding LCG,
/// permutation, gradient tables, decimal-literal constants and every floating
/// point operation follow the original in the same order. This needs
/// `-ffp-contract=off` (no FMA contraction) and no `-ffast-math`; the project
/// build sets this. Verified against `shared/reference/opensimplex_legacy.csv`.
///
/// **Domain.** Like the original, lattice coordinates are taken with a 32-bit
/// truncation, so inputs must be finite and of magnitude below about 1e9
/// (far beyond any terrain use; precision is already poor near 1e6).
///
/// **Cost.** Construction fills two 256-byte and four 2 KiB tables (no
/// allocation), so it is cheap to build one instance per fBm octave. `eval`
/// and `eval_row` are `const`, allocation free and safe to call concurrently
/// from any number of threads.
class open_simplex_legacy {
 public:
  /// Builds the permutation from `seed` exactly as the Java constructor does.
  explicit open_simplex_legacy(std::int64_t seed);

  /// 2D noise at (x, y). Exactly 0.0 at the origin.
  [[nodiscard]] double eval(double x, double y) const;

  /// 3D noise at (x, y, z).
  [[nodiscard]] double eval(double x, double y, double z) const;

  /// A row of 2D noise: out[i] = eval(x[i], y) for i in [0, n), the same
  /// doubles bit for bit. `x` and `out` hold n values (n >= 0) and do not
  /// overlap. Vectorised over i in double lanes (Highway, the SIMD target the
  /// CPU allows, chosen at run time); equal on every target.
  void eval_row(const double* x, double y, int n, double* out) const;

  /// A row of 3D noise: out[i] = eval(x[i], y, z), as the 2D eval_row.
  void eval_row(const double* x, double y, double z, int n, double* out) const;

 private:
  // Java stores these as short[]; the values fit a byte (perm: 0..255,
  // gradient offsets: 0..69), which halves the cache footprint.
  std::array<std::uint8_t, 256> m_perm;                ///< Permutation of 0..255.
  std::array<std::uint8_t, 256> m_perm_grad_index_3d;  ///< (m_perm[i] % 24) * 3.
  // The same data as the SIMD row kernels gather it, in 64-bit entries (see
  // noise/open_simplex_legacy_detail.hpp): the permutation, also as four
  // consecutive entries per word, and the gradients packed as bytes, indexed
  // by the hash before the last permutation step, which saves a gather.
  std::array<std::uint64_t, 256> m_perm_x4_lanes;      ///< m_perm[i .. i + 3].
  std::array<std::uint64_t, 256> m_perm_lanes;         ///< m_perm[i].
  std::array<std::uint64_t, 256> m_gradient_lanes_2d;  ///< 2D gradient number m_perm[i] & 0x0E.
  std::array<std::uint64_t, 256> m_gradient_lanes_3d;  ///< 3D gradient at offset m_perm_grad_index_3d[i].
};

}  // namespace landform
