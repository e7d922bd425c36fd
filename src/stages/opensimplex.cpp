#include "landform/stages/opensimplex.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "landform/core/parallel.hpp"
#include "landform/noise/open_simplex_legacy.hpp"

namespace landform {

const param_schema<opensimplex_params>& opensimplex_params::schema() {
  using P = opensimplex_params;
  static const auto s =
      param_schema<P>()
          .number("feature_size", &P::feature_size)
          .unit("world units")
          .range(above(0))
          .doc("size of the largest features: world distance per noise unit of octave 1")
          .effect("higher = larger, broader mountains and valleys; lower = busier, smaller hills")
          .integer("octaves", &P::octaves)
          .range(between(1, 16))
          .doc("number of fBm octaves summed")
          .effect("more = more small detail on top of the large shapes (and a slower stage)")
          .number("lacunarity", &P::lacunarity)
          .range(between(1, 8))
          .doc("frequency multiplier from one octave to the next")
          .effect("higher = detail octaves jump to much finer scales (sparser, grainier detail); 2 is the usual")
          .number("gain", &P::gain)
          .range(between(0, 1))
          .doc("amplitude multiplier from one octave to the next (persistence)")
          .effect("higher = rougher, more jagged terrain; lower = smoother, dominated by the large shapes")
          .number("amplitude", &P::amplitude)
          .unit("height units")
          .range(between(-1e6, 1e6))
          .doc("amplitude of the first octave")
          .effect("higher = taller relief; negative flips hills into valleys")
          .number("z", &P::z)
          .unit("noise units")
          .doc("slice of 3D noise to sample; animate it for variations")
          .effect("a different value gives a different but related terrain with the same character")
          .choice("dimensions", &P::dimensions, {{"3d", P::dims::three}, {"2d", P::dims::two}})
          .doc("3d samples eval(x, y, z) as the tutorial does; 2d samples eval(x, y)");
  return s;
}

namespace {

// The legacy noise truncates lattice coordinates to 32-bit ints, so inputs must
// stay well inside +-2^31; past 1e9 noise units the result is undefined.
void check_noise_domain(const region& r, const opensimplex_params& p, double top_scale) {
  constexpr double k_limit = 1e9;
  const double far_x = std::max(std::abs(r.world_x(0)), std::abs(r.world_x(r.width - 1)));
  const double far_y = std::max(std::abs(r.world_y(0)), std::abs(r.world_y(r.height - 1)));
  const double reach =
      std::max({far_x * top_scale / p.feature_size, far_y * top_scale / p.feature_size, std::abs(p.z) * top_scale});
  if (reach > k_limit) {
    char text[200];
    std::snprintf(text, sizeof text,
                  "noise coordinates reach %.3g, beyond the 1e9 the legacy noise is defined for; "
                  "increase feature_size, use fewer octaves or move the origin toward 0",
                  reach);
    throw std::domain_error(text);
  }
}

}  // namespace

void apply_opensimplex(heightfield& h, const opensimplex_params& p, const stage_context& ctx) {
  // One noise table per octave, built once: each is 512 bytes and read-only,
  // so threads share them.
  std::vector<open_simplex_legacy> octave_noise;
  std::vector<double> scale, weight;
  double s = 1.0, w = p.amplitude;
  for (int k = 0; k < p.octaves; ++k) {
    octave_noise.emplace_back(static_cast<std::int64_t>(ctx.seed + static_cast<std::uint64_t>(k)));
    scale.push_back(s);
    weight.push_back(w);
    s *= p.lacunarity;
    w *= p.gain;
  }
  const region& r = h.placement();
  check_noise_domain(r, p, s / p.lacunarity);
  const bool three = p.dimensions == opensimplex_params::dims::three;
  const auto width = static_cast<std::size_t>(h.width());
  // The noise x of each column and octave is the same on every row: divide
  // once here instead of once per cell (the division was a tenth of the
  // stage). (wx * 1.0) / feature_size == wx / feature_size exactly, so
  // octave 1 reproduces the tutorial's eval(x / featureSize, ...) bit for bit.
  std::vector<double> noise_x(width * static_cast<std::size_t>(p.octaves));
  for (int k = 0; k < p.octaves; ++k) {
    double* nx = noise_x.data() + static_cast<std::size_t>(k) * width;
    for (std::size_t i = 0; i < width; ++i) nx[i] = (r.world_x(static_cast<int>(i)) * scale[k]) / p.feature_size;
  }
  ctx.parallel_rows(h.height(), [&](int y0, int y1) {
    // Octave by octave over a whole row, so the noise runs vectorised along
    // x; each cell still sums its octaves in order 0, 1, ... in double, as
    // the per-cell loop did, so the result is the same bit for bit.
    std::vector<double> noise(width), sum(width);
    for (int j = y0; j < y1; ++j) {
      const double wy = r.world_y(j);
      std::fill(sum.begin(), sum.end(), 0.0);
      for (int k = 0; k < p.octaves; ++k) {
        const double* nx = noise_x.data() + static_cast<std::size_t>(k) * width;
        const double ny = (wy * scale[k]) / p.feature_size;
        if (three) {
          octave_noise[k].eval_row(nx, ny, p.z * scale[k], h.width(), noise.data());
        } else {
          octave_noise[k].eval_row(nx, ny, h.width(), noise.data());
        }
        for (std::size_t i = 0; i < width; ++i) sum[i] += weight[k] * noise[i];
      }
      float* out = h.row(j);
      for (std::size_t i = 0; i < width; ++i) out[i] = static_cast<float>(sum[i]);
    }
  });
}

stage_info opensimplex_stage_info() {
  stage_info info = make_stage_info<opensimplex_params>(
      "opensimplex", stage_category::generator, stage_scope::pointwise,
      "fBm of legacy OpenSimplex noise (Kurt Spencer 2014) at world coordinates",
      "Sums `octaves` layers of OpenSimplex noise, each `lacunarity` times the frequency and `gain` times the "
      "amplitude of the previous. The noise is a bit-exact port of Kurt Spencer's OpenSimplexNoise v1.1 (2014 "
      "Java gist); one octave at z = 0 is the base map of the Java landscape tutorial (seed document 000). "
      "Octave k is seeded with seed + k. Evaluated along each row in double SIMD with runtime dispatch "
      "(AVX-512/AVX2/SSE4...), every lane doing the port's operations in its order, so still bit-exact and "
      "bit-identical on every CPU.",
      &apply_opensimplex);
  set_cost<opensimplex_params>(info,
                               [](const opensimplex_params& p, double cells) { return cells * p.octaves * 30.0; });
  return info;
}

}  // namespace landform
