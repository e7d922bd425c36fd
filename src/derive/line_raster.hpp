#pragma once
// Internal: drawing line networks into masks and printing their GeoJSON
// numbers, shared by derive/water (rivers) and derive/roads.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace landform::detail {

/// Coverage of cells by a capsule (segment a-b, radius half_width), in cell
/// units, with a one-cell anti-aliasing ramp: 0.5 exactly at distance
/// half_width from the segment. Combined by max into `mask` (width x height),
/// so the order of the pieces does not matter.
inline void stamp_capsule(std::vector<float>& mask, int width, int height, std::array<double, 2> a,
                          std::array<double, 2> b, double half_width) {
  const double reach = half_width + 0.5;
  const int x0 = std::max(0, static_cast<int>(std::floor(std::min(a[0], b[0]) - reach)));
  const int x1 = std::min(width - 1, static_cast<int>(std::ceil(std::max(a[0], b[0]) + reach)));
  const int y0 = std::max(0, static_cast<int>(std::floor(std::min(a[1], b[1]) - reach)));
  const int y1 = std::min(height - 1, static_cast<int>(std::ceil(std::max(a[1], b[1]) + reach)));
  const double dx = b[0] - a[0], dy = b[1] - a[1];
  const double len2 = dx * dx + dy * dy;
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      double t = len2 > 0.0 ? ((x - a[0]) * dx + (y - a[1]) * dy) / len2 : 0.0;
      t = std::clamp(t, 0.0, 1.0);
      const double ex = x - (a[0] + t * dx), ey = y - (a[1] + t * dy);
      const double d = std::sqrt(ex * ex + ey * ey);
      const auto cover = static_cast<float>(std::clamp(half_width - d + 0.5, 0.0, 1.0));
      float& m = mask[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)];
      m = std::max(m, cover);
    }
  }
}

/// Appends v printed with a printf `format` (fixed precision, so the text is
/// the same on every platform); "-0.000" is printed as "0.000".
inline void append_number(std::string& out, const char* format, double v) {
  std::array<char, 64> text{};
  const int len = std::snprintf(text.data(), text.size(), format, v);
  std::string piece(text.data(), static_cast<std::size_t>(std::max(0, len)));
  if (piece == "-0.000") piece = "0.000";
  out += piece;
}

}  // namespace landform::detail
