#pragma once
/// @file
/// Value noise in 2D on a hashed integer lattice: a scalar reference and a
/// SIMD fractal row kernel with runtime dispatch (Highway), bit-identical on
/// every target.
///
/// Lattice. Point (ix, iy) of an octave with 32-bit seed s holds the hash
/// h = XXH32(message = iy, ix as two little-endian 32-bit words, seed s):
/// Yann Collet's xxHash32 short-input path (h = s + PRIME5 + 8; per word w:
/// h = rotl(h + w * PRIME3, 17) * PRIME4; then its avalanche), a well-tested
/// mixer whose every input bit reaches every output bit. The value is the
/// top 24 bits as a float: [0, 1) in steps of 2^-24 (unsigned lattices) or
/// [-1, 1) in steps of 2^-23 (signed lattices), both exact in float.
///
/// Sample at (x, y) (double): cell (ix, iy) = floor (int32), fractions
/// (tx, ty) = (x - ix, y - iy) rounded to float, weights from the fade of
/// tx and ty (value_fade). The interpolation is separable and runs along y
/// first: a column value c(ix) = v(ix, iy) + sy (v(ix, iy + 1) - v(ix, iy)),
/// then c(ix) + sx (c(ix + 1) - c(ix)); catmull_rom sums four columns of four
/// values with Catmull-Rom weights, then scales the deviation from the middle
/// of the range (0 or 1/2) by 1/1.5625 (the weights' largest gain) and clamps
/// to the range. All in float with separate multiplies and adds (the library
/// is compiled with -ffp-contract=off), so the SIMD kernel, which computes
/// each column value once per row and octave and shares it between the
/// samples of its cell, performs exactly the scalar reference's operations.

#include <cstdint>
#include <vector>

#include "landform/noise/fbm.hpp"

namespace landform::noise {

/// How the fraction t in [0, 1) of a cell becomes an interpolation weight.
enum class value_fade {
  linear,      ///< t
  cosine,      ///< (1 - cos(pi t)) / 2, in double, rounded to float
  cubic,       ///< t^2 (3 - 2t)
  quintic,     ///< t^3 (t (6t - 15) + 10) (Perlin 2002)
  catmull_rom  ///< bicubic Catmull-Rom through 4 x 4 lattice values
};

/// A value-noise fractal: the shared octave plan (noise/fbm.hpp; its kind
/// is applied by fractal_accumulate) and the lattice's fade and range.
struct value_plan {
  fractal_plan fractal;
  value_fade fade = value_fade::quintic;
  bool is_signed = true;  ///< lattice values in [-1, 1) (true) or [0, 1) (false)
};

/// The largest |noise coordinate| (world coordinate x octave frequency) the
/// 32-bit lattice accepts.
inline constexpr double k_value_noise_limit = 1e9;

/// The 32-bit lattice seed of an octave's 64-bit seed (high word xor low word).
constexpr std::uint32_t value_seed32(std::int64_t seed) {
  const auto s = static_cast<std::uint64_t>(seed);
  return static_cast<std::uint32_t>(s ^ (s >> 32));
}

/// xxHash32 of the 8-byte message (iy, ix) under `seed` (see the file comment).
std::uint32_t value_hash(std::uint32_t seed, std::int32_t ix, std::int32_t iy);

/// Value noise at (x, y) (noise units, |x|, |y| < k_value_noise_limit):
/// in [-1, 1] for a signed lattice, [0, 1] otherwise.
float value_noise2(std::uint32_t seed, value_fade fade, bool is_signed, double x, double y);

/// Scalar reference of a fractal row: out[i] for cells i = 0 .. n-1 of a row
/// whose world x is double(x0 + i) * cell_size and world y is `wy`, as
/// opensimplex2_fractal_row_scalar with value_noise2 as the noise (no warp).
void value_fractal_row_scalar(const value_plan& plan, std::int64_t x0, int n, double cell_size, double wy, float* out);

/// The SIMD form of value_fractal_row_scalar for many rows of the same
/// columns: built once for (x0, n, cell_size), it holds per octave each
/// column's cell and interpolation weights, which every row shares; row()
/// then hashes each lattice column of the row once and interpolates with
/// the best SIMD target the CPU supports. Bit-identical with the scalar
/// reference. Immutable after construction: row() may run on many threads.
class value_row_kernel {
 public:
  value_row_kernel(const value_plan& plan, std::int64_t x0, int n, double cell_size);

  /// out[0 .. n) for the row at world y `wy`.
  void row(double wy, float* out) const;

  /// Per octave: the lattice cells and weights of the columns.
  struct octave_columns {
    std::int32_t first_cell = 0;     ///< lattice x of column buffer entry 0
    int cells = 0;                   ///< column buffer entries a row needs
    bool direct = false;             ///< cells >> n: hash per sample instead of per cell
    std::vector<std::int32_t> cell;  ///< per column: its cell - first_cell (padded to whole vectors)
    std::vector<float> weight[4];    ///< per column: sx (weight[0]), or Catmull-Rom's 4 weights
  };

 private:
  value_plan m_plan;
  int m_n = 0;
  std::vector<octave_columns> m_octaves;
};

}  // namespace landform::noise
