#pragma once
// The wavefront schedule of the tutorial's in-place 3 x 3 passes, Erode()
// (olsen_erosion) and Smoothen() (smooth, method tutorial).
//
// A pass visits the interior cells column by column (x outer, y inner), and
// a cell reads and writes only within one cell of itself. Two cells
// interact only when they are at most two cells apart (Chebyshev), and
// for every such pair the order of the wavefront index t = y + 3 x is the
// scan order. So visiting the wavefronts t = 0, 1, 2, ... in turn, a
// wavefront's cells in any order, is the same computation as the scan; and
// the cells of one wavefront are at least three apart, so they are
// independent: they run in SIMD lanes.
//
// The grid is stored skewed so that a wavefront is contiguous: (x, y) at
// base[y + 3 x] + x. Its neighbour (x + u, y + v) is then at
// base[t + v + 3 u] + x + u, one contiguous row per direction.

#include <cstddef>
#include <string>
#include <vector>

#include "landform/core/heightfield.hpp"

namespace landform::inplace_scan {

/// A width x height float32 grid in wavefront order (see above).
struct skewed_grid {
  int width = 0;
  int height = 0;
  std::vector<std::ptrdiff_t> base;  ///< per wavefront t = y + 3 x, 0 .. height - 1 + 3 (width - 1)
  std::vector<float> cells;          ///< width x height values, wavefront by wavefront

  /// The number of wavefronts.
  [[nodiscard]] int wavefronts() const { return static_cast<int>(base.size()); }
  [[nodiscard]] float& at(int x, int y) { return cells[static_cast<std::size_t>(base[y + 3 * x] + x)]; }
};

/// `h` in wavefront order.
skewed_grid to_skewed(const heightfield& h);

/// Writes `g` back into `h` (same size).
void from_skewed(const skewed_grid& g, heightfield& h);

/// Runs wavefronts [t_begin, t_end) of one pass of the tutorial's Erode():
/// each interior cell moves half of its largest drop to the first lowest
/// Moore neighbour in scan order when 0 < drop <= `threshold`, in double on
/// the float heights, as olsen_erosion.hpp states. SIMD, runtime dispatch;
/// the same bits on every target.
void erode_wavefronts(skewed_grid& g, int t_begin, int t_end, double threshold);

/// Runs wavefronts [t_begin, t_end) of one pass of the tutorial's
/// Smoothen(): each interior cell becomes the mean of its 3 x 3 block, summed
/// in double in the scan's order (x offset outer, y offset inner) and divided
/// by 9. SIMD, runtime dispatch; the same bits on every target.
void smooth_wavefronts(skewed_grid& g, int t_begin, int t_end);

/// The Highway target erode_wavefronts and smooth_wavefronts dispatch to
/// (tests).
std::string wavefront_target();

}  // namespace landform::inplace_scan
