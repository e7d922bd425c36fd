#pragma once
// Internal: fixed bands of rows for the raster passes of derive/flow_routing
// and derive/lake_flood. The bands depend on the grid, not on the thread
// count, so what a pass collects per band (and joins in band order) is the
// same for any number of threads.

#include <algorithm>
#include <cstddef>

namespace landform::detail {

inline constexpr int k_bands = 16;

struct row_band {
  std::size_t begin, end;  // node indices [begin, end): whole rows
};

/// Band `band` (0 .. k_bands - 1) of a width x height grid; empty past the
/// last row.
inline row_band band_nodes(int width, int height, int band) {
  const int rows = (height + k_bands - 1) / k_bands;
  const auto y0 = static_cast<std::size_t>(std::min(height, band * rows));
  const auto y1 = static_cast<std::size_t>(std::min(height, (band + 1) * rows));
  const auto w = static_cast<std::size_t>(width);
  return {y0 * w, y1 * w};
}

}  // namespace landform::detail
