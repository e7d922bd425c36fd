#include "stages/droplet/erosion_brush.hpp"

#include <cmath>

namespace landform::droplet {

// The spans of the positive float weights (after rounding, so that a weight
// that rounded to 0 counts as 0, as it does in the brush operations).
void erosion_brush::add_spans(const float* stencil_weights) {
  for (int row = 0; row < side; ++row) {
    const float* r = stencil_weights + row * width;
    int first = 0, last = side;
    while (first < side && !(r[first] > 0.0f)) ++first;
    while (last > first && !(r[last - 1] > 0.0f)) --last;
    spans.push_back({first, last});
  }
}

erosion_brush::erosion_brush(int radius) : origin(1 - radius), side(2 * radius), width((side + 3) / 4 * 4) {
  weights.assign(static_cast<std::size_t>(k_phases * k_phases * side * width), 0.0f);
  std::vector<double> raw(static_cast<std::size_t>(side * width));
  for (int py = 0; py < k_phases; ++py) {
    for (int px = 0; px < k_phases; ++px) {
      const double cx = (px + 0.5) / k_phases, cy = (py + 0.5) / k_phases;
      double total = 0.0;
      for (int row = 0; row < side; ++row) {
        for (int col = 0; col < side; ++col) {
          const double dx = origin + col - cx, dy = origin + row - cy;
          const double wgt = std::max(0.0, radius - std::sqrt(dx * dx + dy * dy));
          raw[static_cast<std::size_t>(row * width + col)] = wgt;
          total += wgt;
        }
      }
      // Normalised in double, then rounded once to float.
      float* out = weights.data() + (stencil(px, py) - weights.data());
      for (int row = 0; row < side; ++row)
        for (int col = 0; col < side; ++col)
          out[row * width + col] = static_cast<float>(raw[static_cast<std::size_t>(row * width + col)] / total);
      add_spans(out);
    }
  }
}

}  // namespace landform::droplet
