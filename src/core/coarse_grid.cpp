#include "landform/core/coarse_grid.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

#include "landform/core/parallel.hpp"

namespace landform {

region coarse_grid::coarse_region(double cell_size) const {
  region r;
  r.width = width();
  r.height = height();
  r.origin_x = 0;
  r.origin_y = 0;
  r.cell_size = cell_size * factor;
  return r;
}

std::int64_t coarse_grid::last_row(int j1) const {
  return std::min<std::int64_t>(std::int64_t{j1} * factor, world.height);
}

void box_mean_rows(const coarse_grid& g, const region& area, const std::vector<float>& values, int j0, int j1,
                   std::vector<float>& coarse, int nthreads) {
  const int cw = g.width();
  const std::int64_t top = area.origin_y - g.world.origin_y;
  if (area.origin_x != g.world.origin_x || area.width != g.world.width || values.size() != area.cell_count() ||
      top > g.first_row(j0) || top + area.height < g.last_row(j1) ||
      coarse.size() != static_cast<std::size_t>(cw) * static_cast<std::size_t>(g.height())) {
    throw std::invalid_argument("box_mean_rows: the field does not hold coarse rows " + std::to_string(j0) + " to " +
                                std::to_string(j1));
  }
  const auto w = static_cast<std::size_t>(area.width);
  parallel_rows(j1 - j0, nthreads, [&](int r0, int r1) {
    for (int cj = j0 + r0; cj < j0 + r1; ++cj) {
      const std::int64_t y0 = g.first_row(cj), y1 = g.last_row(cj + 1);
      for (int ci = 0; ci < cw; ++ci) {
        const std::size_t x0 = static_cast<std::size_t>(ci) * static_cast<std::size_t>(g.factor);
        const std::size_t x1 = std::min(x0 + static_cast<std::size_t>(g.factor), w);
        double sum = 0.0;
        for (std::int64_t y = y0; y < y1; ++y) {
          const float* row = values.data() + static_cast<std::size_t>(y - top) * w;
          for (std::size_t x = x0; x < x1; ++x) sum += row[x];
        }
        const double count = static_cast<double>(y1 - y0) * static_cast<double>(x1 - x0);
        coarse[static_cast<std::size_t>(cj) * static_cast<std::size_t>(cw) + static_cast<std::size_t>(ci)] =
            static_cast<float>(sum / count);
      }
    }
  });
}

namespace {

// The four coarse indices and cubic B-spline weights for world cell u (from
// the world's origin) on an axis of `cells` coarse cells.
struct cubic_tap {
  std::array<int, 4> index{};
  std::array<double, 4> weight{};
};

cubic_tap tap_of(std::int64_t u, int factor, int cells) {
  double x = (static_cast<double>(u) + 0.5) / factor - 0.5;
  x = std::clamp(x, 0.0, static_cast<double>(cells - 1));
  const int i0 = std::min(static_cast<int>(x), cells - 1);  // x >= 0: truncation is floor
  const double t = x - i0, t2 = t * t, t3 = t2 * t;
  cubic_tap tap;
  const double s = 1.0 - t;
  tap.weight = {s * s * s / 6.0, (3.0 * t3 - 6.0 * t2 + 4.0) / 6.0, (-3.0 * t3 + 3.0 * t2 + 3.0 * t + 1.0) / 6.0,
                t3 / 6.0};
  for (int k = 0; k < 4; ++k) tap.index[static_cast<std::size_t>(k)] = std::clamp(i0 - 1 + k, 0, cells - 1);
  return tap;
}

}  // namespace

void add_interpolated(const coarse_grid& g, const std::vector<float>& coarse, const region& area,
                      std::vector<float>& values, int nthreads) {
  const int cw = g.width(), ch = g.height();
  if (coarse.size() != static_cast<std::size_t>(cw) * static_cast<std::size_t>(ch) ||
      values.size() != area.cell_count()) {
    throw std::invalid_argument("add_interpolated: sizes do not match the grid and the area");
  }
  if (area.cell_count() == 0) return;
  std::vector<cubic_tap> columns(static_cast<std::size_t>(area.width));
  for (int i = 0; i < area.width; ++i) {
    columns[static_cast<std::size_t>(i)] = tap_of(area.origin_x - g.world.origin_x + i, g.factor, cw);
  }
  const auto w = static_cast<std::size_t>(area.width);
  // Only the coarse columns the area's cells reach (the taps grow with i).
  const int lo = columns.front().index[0], hi = columns.back().index[3];
  parallel_rows(area.height, nthreads, [&](int r0, int r1) {
    std::vector<double> blended(static_cast<std::size_t>(cw));
    for (int j = r0; j < r1; ++j) {
      const cubic_tap ty = tap_of(area.origin_y - g.world.origin_y + j, g.factor, ch);
      // The row's four coarse rows blended first, then each cell's four columns.
      for (int ci = lo; ci <= hi; ++ci) {
        double v = 0.0;
        for (std::size_t k = 0; k < 4; ++k) {
          v += ty.weight[k] * coarse[static_cast<std::size_t>(ty.index[k]) * static_cast<std::size_t>(cw) +
                                     static_cast<std::size_t>(ci)];
        }
        blended[static_cast<std::size_t>(ci)] = v;
      }
      float* row = values.data() + static_cast<std::size_t>(j) * w;
      for (std::size_t i = 0; i < w; ++i) {
        const cubic_tap& tx = columns[i];
        double v = 0.0;
        for (std::size_t k = 0; k < 4; ++k) v += tx.weight[k] * blended[static_cast<std::size_t>(tx.index[k])];
        row[i] = static_cast<float>(row[i] + v);
      }
    }
  });
}

}  // namespace landform
