#include "landform/stages/smooth.hpp"

#include <algorithm>
#include <cmath>

#include "landform/core/parallel.hpp"
#include "stages/inplace_scan.hpp"

namespace landform {

const param_schema<smooth_params>& smooth_params::schema() {
  using P = smooth_params;
  static const auto s =
      param_schema<P>()
          .choice("method", &P::method,
                  {{"gaussian", P::kind::gaussian}, {"box", P::kind::box}, {"tutorial", P::kind::tutorial}})
          .doc("gaussian or box: separable, edge-clamped; tutorial: the in-place 3x3 Smoothen() of seed 000")
          .number("sigma", &P::sigma)
          .unit("cells")
          .range(between(0.1, 256))
          .doc("gaussian standard deviation")
          .effect("higher = blurrier: small detail vanishes, only broad shapes remain")
          .integer("radius", &P::radius)
          .unit("cells")
          .range(between(1, 256))
          .doc("box half-width; the window is 2 radius + 1 cells")
          .effect("higher = blurrier, with the box filter's slightly blocky softening")
          .integer("iterations", &P::iterations)
          .unit("passes")
          .range(between(1, 1000))
          .doc("times the filter is applied")
          .effect("more = stronger smoothing (repeated box passes approach a Gaussian)");
  return s;
}

std::vector<double> gaussian_kernel(double sigma) {
  const int radius = std::max(1, static_cast<int>(std::ceil(3.0 * sigma)));
  std::vector<double> w(static_cast<std::size_t>(2 * radius + 1));
  double total = 0.0;
  for (int k = -radius; k <= radius; ++k) {
    w[static_cast<std::size_t>(k + radius)] = std::exp(-0.5 * (k * k) / (sigma * sigma));
    total += w[static_cast<std::size_t>(k + radius)];
  }
  for (auto& v : w) v /= total;
  return w;
}

int smooth_params::halo() const {
  switch (method) {
    case kind::gaussian:
      return std::max(1, static_cast<int>(std::ceil(3.0 * sigma))) * iterations;
    case kind::box:
      return radius * iterations;
    case kind::tutorial:
      break;
  }
  return -1;
}

namespace {

// out = kernel applied along x, then along y, edges clamped. `kernel` has odd
// length 2r + 1 and sums to 1 in double. Sums are accumulated in double, so a
// constant map stays exactly constant and a ramp stays a ramp to float
// precision. Each output cell sums its taps in a fixed order, so the result is
// the same for any row partition.
void separable_pass(heightfield& h, const std::vector<double>& kernel, const stage_context& ctx) {
  const int w = h.width(), ht = h.height();
  const int r = static_cast<int>(kernel.size() / 2);
  std::vector<float> tmp(h.size());
  ctx.parallel_rows(ht, [&](int y0, int y1) {
    std::vector<double> padded(static_cast<std::size_t>(w + 2 * r));
    for (int j = y0; j < y1; ++j) {
      const float* src = h.row(j);
      for (int i = -r; i < w + r; ++i) padded[static_cast<std::size_t>(i + r)] = src[std::clamp(i, 0, w - 1)];
      float* dst = tmp.data() + static_cast<std::size_t>(j) * w;
      for (int i = 0; i < w; ++i) {
        double sum = 0.0;
        for (int k = 0; k <= 2 * r; ++k)
          sum += kernel[static_cast<std::size_t>(k)] * padded[static_cast<std::size_t>(i + k)];
        dst[i] = static_cast<float>(sum);
      }
    }
  });
  ctx.parallel_rows(ht, [&](int y0, int y1) {
    std::vector<double> acc(static_cast<std::size_t>(w));
    for (int j = y0; j < y1; ++j) {
      std::fill(acc.begin(), acc.end(), 0.0);
      // Row-at-a-time accumulation keeps the inner loop contiguous (vectorises).
      for (int k = -r; k <= r; ++k) {
        const double weight = kernel[static_cast<std::size_t>(k + r)];
        const float* src = tmp.data() + static_cast<std::size_t>(std::clamp(j + k, 0, ht - 1)) * w;
        for (int i = 0; i < w; ++i) acc[static_cast<std::size_t>(i)] += weight * src[i];
      }
      float* dst = h.row(j);
      for (int i = 0; i < w; ++i) dst[i] = static_cast<float>(acc[static_cast<std::size_t>(i)]);
    }
  });
}

// The tutorial's Smoothen(): one in-place scan, as wavefronts of
// independent cells (stages/inplace_scan.hpp).
void tutorial_pass(heightfield& h) {
  if (h.width() < 3 || h.height() < 3) return;
  inplace_scan::skewed_grid grid = inplace_scan::to_skewed(h);
  inplace_scan::smooth_wavefronts(grid, 0, grid.wavefronts());
  inplace_scan::from_skewed(grid, h);
}

}  // namespace

void apply_smooth(heightfield& h, const smooth_params& p, const stage_context& ctx) {
  std::vector<double> kernel;
  if (p.method == smooth_params::kind::gaussian) kernel = gaussian_kernel(p.sigma);
  if (p.method == smooth_params::kind::box) {
    kernel.assign(static_cast<std::size_t>(2 * p.radius + 1), 1.0 / static_cast<double>(2 * p.radius + 1));
  }
  for (int pass = 0; pass < p.iterations; ++pass) {
    if (p.method == smooth_params::kind::tutorial) {
      tutorial_pass(h);
    } else {
      separable_pass(h, kernel, ctx);
    }
    ctx.progress(static_cast<double>(pass + 1) / p.iterations);
  }
}

stage_info smooth_stage_info() {
  stage_info info = make_stage_info<smooth_params>(
      "smooth", stage_category::filter, stage_scope::local,
      "Gaussian or box blur, or the tutorial's in-place 3x3 Smoothen()",
      "gaussian and box are separable filters into a separate buffer with clamped edges (borders included). "
      "tutorial is Smoothen() of the Java landscape tutorial (seed document 000): the in-place 3x3 mean over "
      "interior cells. gaussian and box are local (a region build computes the region grown by the kernel radius "
      "per iteration); tutorial's in-place scan needs the whole world.",
      &apply_smooth);
  set_cost<smooth_params>(info, [](const smooth_params& p, double cells) {
    // Separable passes: the window's taps in each direction.
    const double taps = p.method == smooth_params::kind::gaussian ? 2.0 * (2.0 * std::ceil(3.0 * p.sigma) + 1.0)
                        : p.method == smooth_params::kind::box    ? 8.0
                                                                  : 10.0;
    return cells * p.iterations * taps;
  });
  info.halo_rule = "gaussian: max(1, ceil(3 sigma)) x iterations; box: radius x iterations; tutorial: whole world";
  return info;
}

}  // namespace landform
