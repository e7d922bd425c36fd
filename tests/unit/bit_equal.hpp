#pragma once
// Bitwise equality of float arrays and fields, the determinism tests' measure:
// memcmp distinguishes -0.0 from +0.0 and compares NaN payloads, so "equal"
// here means byte-identical files.

#include <cstring>
#include <vector>

#include "landform/core/heightfield.hpp"

namespace landform_test {

inline bool bit_equal(const std::vector<float>& a, const std::vector<float>& b) {
  // An empty vector's data() may be null, and memcmp's arguments must not be.
  if (a.size() != b.size()) return false;
  return a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

inline bool bit_equal(const landform::heightfield& a, const landform::heightfield& b) {
  return a.width() == b.width() && a.height() == b.height() && bit_equal(a.values(), b.values());
}

/// `small` equals the window of `big` whose top-left cell is (x0, y0), bit for bit.
inline bool bit_equal_window(const landform::heightfield& big, int x0, int y0, const landform::heightfield& small) {
  for (int j = 0; j < small.height(); ++j)
    for (int i = 0; i < small.width(); ++i) {
      const float a = big.at(x0 + i, y0 + j), b = small.at(i, j);
      if (std::memcmp(&a, &b, sizeof(float)) != 0) return false;
    }
  return true;
}

}  // namespace landform_test
