#pragma once
// The scalar fractal row shared by the noise references: the order of
// operations every SIMD kernel reproduces (see opensimplex2.hpp).

#include <cstdint>

#include "landform/noise/fbm.hpp"

namespace landform::noise {

template <class Noise>
void fractal_row_scalar(Noise noise2, const fractal_plan& plan, std::int64_t x0, int n, double cell_size, double wy,
                        float* out) {
  const scalar_ops ops;
  for (int i = 0; i < n; ++i) {
    double px = static_cast<double>(x0 + i) * cell_size, py = wy;
    if (plan.warped()) {
      const double qx = px * plan.warp_frequency, qy = py * plan.warp_frequency;
      const float ox = noise2(plan.warp_seed_x, qx, qy);
      const float oy = noise2(plan.warp_seed_y, qx, qy);
      px = px + plan.warp_amplitude * static_cast<double>(ox);
      py = py + plan.warp_amplitude * static_cast<double>(oy);
    }
    float sum = 0.0f;
    for (const auto& o : plan.octaves) {
      const float v = noise2(o.seed, px * o.frequency, py * o.frequency);
      sum = fractal_accumulate(plan.kind, sum, v, o.amplitude, ops);
    }
    out[i] = sum;
  }
}

}  // namespace landform::noise
