// The skewed layout of olsen_erosion's wavefront schedule (see the header).

#include "stages/inplace_scan.hpp"

#include <algorithm>

namespace landform::inplace_scan {

namespace {

// Wavefront t holds the cells (x, t - 3 x) with 0 <= x < width and
// 0 <= t - 3 x < height, contiguous in x from the first one.
int first_x(int t, int height) {
  return std::max(0, (t - (height - 1) + 2) / 3);
}

}  // namespace

skewed_grid to_skewed(const heightfield& h) {
  skewed_grid g;
  g.width = h.width();
  g.height = h.height();
  const int fronts = g.height + 3 * (g.width - 1);
  g.base.resize(static_cast<std::size_t>(fronts));
  std::ptrdiff_t start = 0;
  for (int t = 0; t < fronts; ++t) {
    const int lo = first_x(t, g.height), hi = std::min(g.width - 1, t / 3);
    g.base[static_cast<std::size_t>(t)] = start - lo;
    start += hi - lo + 1;
  }
  g.cells.resize(h.size());
  for (int y = 0; y < g.height; ++y)
    for (int x = 0; x < g.width; ++x) g.at(x, y) = h.at(x, y);
  return g;
}

void from_skewed(const skewed_grid& g, heightfield& h) {
  for (int y = 0; y < g.height; ++y)
    for (int x = 0; x < g.width; ++x)
      h.at(x, y) = g.cells[static_cast<std::size_t>(g.base[static_cast<std::size_t>(y + 3 * x)] + x)];
}

}  // namespace landform::inplace_scan
