#include "landform/derive/distance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace landform {

std::vector<double> chamfer_distance(const std::vector<std::uint8_t>& source, int width, int height, double cell_size) {
  const std::size_t n = source.size();
  std::vector<double> d(n, std::numeric_limits<double>::infinity());
  for (std::size_t c = 0; c < n; ++c) {
    if (source[c] != 0) d[c] = 0.0;
  }
  const auto at = [width](int x, int y) { return static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + x; };
  const double cs = cell_size, diag = std::sqrt(2.0) * cell_size;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      double& v = d[at(x, y)];
      if (x > 0) v = std::min(v, d[at(x - 1, y)] + cs);
      if (y > 0) v = std::min(v, d[at(x, y - 1)] + cs);
      if (x > 0 && y > 0) v = std::min(v, d[at(x - 1, y - 1)] + diag);
      if (x + 1 < width && y > 0) v = std::min(v, d[at(x + 1, y - 1)] + diag);
    }
  }
  for (int y = height - 1; y >= 0; --y) {
    for (int x = width - 1; x >= 0; --x) {
      double& v = d[at(x, y)];
      if (x + 1 < width) v = std::min(v, d[at(x + 1, y)] + cs);
      if (y + 1 < height) v = std::min(v, d[at(x, y + 1)] + cs);
      if (x + 1 < width && y + 1 < height) v = std::min(v, d[at(x + 1, y + 1)] + diag);
      if (x > 0 && y + 1 < height) v = std::min(v, d[at(x - 1, y + 1)] + diag);
    }
  }
  return d;
}

}  // namespace landform
