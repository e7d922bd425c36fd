#include "landform/derive/mask.hpp"

#include <algorithm>
#include <cmath>

#include "landform/core/parallel.hpp"
#include "landform/derive/surface.hpp"

namespace landform {

float band_weight(double h, double lo, double hi, double falloff) {
  if (h >= lo && h <= hi) return 1.0f;
  const double distance = h < lo ? lo - h : h - hi;
  if (falloff <= 0.0 || distance >= falloff) return 0.0f;
  const double t = 1.0 - distance / falloff;
  return static_cast<float>(t * t * (3.0 - 2.0 * t));
}

std::vector<float> mask_weights(const mask_spec& m, const heightfield& heights, const layer_set& layers,
                                double height_scale, int nthreads) {
  std::vector<float> w(heights.size(), 1.0f);
  const std::vector<float>* layer = m.layer.empty() ? nullptr : layers.find(m.layer);
  surface_gradient gradient;
  if (m.slope_lo) gradient = horn_gradient(heights, height_scale, edge_policy::extrapolate, nthreads);
  parallel_rows(heights.height(), nthreads, [&](int y0, int y1) {
    for (std::size_t k = static_cast<std::size_t>(y0) * heights.width();
         k < static_cast<std::size_t>(y1) * heights.width(); ++k) {
      float v = 1.0f;
      if (!m.layer.empty()) v = layer ? std::clamp((*layer)[k], 0.0f, 1.0f) : 0.0f;
      if (m.height_lo) v *= band_weight(heights.data()[k], *m.height_lo, *m.height_hi, m.falloff);
      if (m.slope_lo) {
        v *= band_weight(slope_degrees(gradient.east[k], gradient.north[k]), *m.slope_lo, *m.slope_hi, m.slope_falloff);
      }
      w[k] = m.invert ? 1.0f - v : v;
    }
  });
  return w;
}

void apply_mask(std::vector<float>& after, const std::vector<float>& before, const std::vector<float>& weights,
                int width, int nthreads) {
  const int rows = width > 0 ? static_cast<int>(after.size() / static_cast<std::size_t>(width)) : 0;
  parallel_rows(rows, nthreads, [&](int y0, int y1) {
    for (std::size_t k = static_cast<std::size_t>(y0) * width; k < static_cast<std::size_t>(y1) * width; ++k) {
      after[k] = before[k] + weights[k] * (after[k] - before[k]);
    }
  });
}

}  // namespace landform
