#include "landform/derive/surface.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "derive/horn_row.hpp"
#include "landform/core/parallel.hpp"

namespace landform {

namespace {

// The 3x3 window around (i, j), heights in metres, with made-up values past
// the border. w[0..8] = a b c / d e f / g h i, row 0 north.
struct window3 {
  double w[9];
};

double edge_value(const heightfield& h, int i, int j, int di, int dj, edge_policy edges) {
  const int x = i + di, y = j + dj;
  if (x >= 0 && x < h.width() && y >= 0 && y < h.height()) return h.at(x, y);
  const int cx = std::clamp(x, 0, h.width() - 1), cy = std::clamp(y, 0, h.height() - 1);
  const double inside = h.at(cx, cy);
  if (edges == edge_policy::clamp) return inside;
  // Mirror the step across the border cell: 2·edge − (one further in).
  const int ix = std::clamp(2 * cx - x, 0, h.width() - 1), iy = std::clamp(2 * cy - y, 0, h.height() - 1);
  return 2.0 * inside - h.at(ix, iy);
}

window3 window_at(const heightfield& h, int i, int j, double scale, edge_policy edges) {
  window3 out{};
  const bool interior = i > 0 && j > 0 && i < h.width() - 1 && j < h.height() - 1;
  int k = 0;
  for (int dj = -1; dj <= 1; ++dj) {
    for (int di = -1; di <= 1; ++di, ++k) {
      const double v = interior ? h.at(i + di, j + dj) : edge_value(h, i, j, di, dj, edges);
      out.w[k] = v * scale;
    }
  }
  return out;
}

}  // namespace

const std::vector<std::pair<std::string, edge_policy>>& edge_policy_choices() {
  static const std::vector<std::pair<std::string, edge_policy>> choices = {{"extrapolate", edge_policy::extrapolate},
                                                                           {"clamp", edge_policy::clamp}};
  return choices;
}

namespace {

// Horn's east and north components from a window in metres, in one fixed
// operation order (detail::horn_row_interior repeats it exactly).
inline void horn_cell(const double* w, double denom, float& east, float& north) {
  east = static_cast<float>(((w[2] + 2 * w[5] + w[8]) - (w[0] + 2 * w[3] + w[6])) / denom);
  north = static_cast<float>(((w[0] + 2 * w[1] + w[2]) - (w[6] + 2 * w[7] + w[8])) / denom);
}

}  // namespace

std::pair<int, int> horn_interior_span(const heightfield& h, int j, int x0, int n) {
  if (j <= 0 || j >= h.height() - 1 || h.width() <= 2) return {x0, x0};
  const int first = std::min(std::max(x0, 1), x0 + n);
  return {first, std::max(first, std::min(x0 + n, h.width() - 1))};
}

void horn_gradient_row(const heightfield& h, double height_scale, edge_policy edges, int j, int x0, int n, float* east,
                       float* north) {
  const double denom = 8.0 * h.placement().cell_size;
  const auto [first, last] = horn_interior_span(h, j, x0, n);
  const auto border_cell = [&](int i) {
    horn_cell(window_at(h, i, j, height_scale, edges).w, denom, east[i - x0], north[i - x0]);
  };
  for (int i = x0; i < first; ++i) border_cell(i);
  if (last > first) {
    detail::horn_row_interior(h.row(j - 1) + first, h.row(j) + first, h.row(j + 1) + first, last - first, height_scale,
                              denom, east + (first - x0), north + (first - x0));
  }
  for (int i = last; i < x0 + n; ++i) border_cell(i);
}

surface_gradient horn_gradient(const heightfield& h, double height_scale, edge_policy edges, int nthreads) {
  surface_gradient g{std::vector<float>(h.size()), std::vector<float>(h.size())};
  const int width = h.width();
  parallel_rows(h.height(), nthreads, [&](int y0, int y1) {
    for (int j = y0; j < y1; ++j) {
      const std::size_t row = static_cast<std::size_t>(j) * width;
      horn_gradient_row(h, height_scale, edges, j, 0, width, &g.east[row], &g.north[row]);
    }
  });
  return g;
}

std::size_t horn_gradient_overflows(const heightfield& h, double height_scale, edge_policy edges, int nthreads) {
  if (h.size() == 0) return 0;
  const auto [lo, hi] = std::minmax_element(h.values().begin(), h.values().end());
  // Each of Horn's two sums weighs 4 cells, and an extrapolated edge cell
  // (2 h0 - h1) lies within 3 reliefs of the others: |gradient| is at most
  // 4 x 3 x relief x height_scale / (8 x cell_size).
  const double relief = static_cast<double>(*hi) - static_cast<double>(*lo);
  const double bound = 12.0 * relief * std::abs(height_scale) / (8.0 * h.placement().cell_size);
  if (bound < static_cast<double>(std::numeric_limits<float>::max())) return 0;
  const surface_gradient g = horn_gradient(h, height_scale, edges, nthreads);
  std::size_t bad = 0;
  for (std::size_t k = 0; k < g.east.size(); ++k)
    bad += static_cast<std::size_t>(!std::isfinite(g.east[k]) || !std::isfinite(g.north[k]));
  return bad;
}

float slope_degrees(float east, float north) {
  return static_cast<float>(std::atan(std::hypot(static_cast<double>(east), static_cast<double>(north))) * 180.0 /
                            std::numbers::pi);
}

float aspect_degrees(float east, float north) {
  if (east == 0.0f && north == 0.0f) return -1.0f;
  // Downhill is −gradient; its compass bearing is atan2(east, north).
  double a = std::atan2(-static_cast<double>(east), -static_cast<double>(north)) * 180.0 / std::numbers::pi;
  if (a < 0.0) a += 360.0;
  if (a >= 360.0) a -= 360.0;
  return static_cast<float>(a);
}

std::vector<float> surface_curvature(const heightfield& h, double height_scale, curvature_kind kind, edge_policy edges,
                                     int nthreads) {
  std::vector<float> out(h.size());
  const double l = h.placement().cell_size;
  parallel_rows(h.height(), nthreads, [&](int y0, int y1) {
    for (int j = y0; j < y1; ++j) {
      for (int i = 0; i < h.width(); ++i) {
        const auto& w = window_at(h, i, j, height_scale, edges).w;
        const double a = w[0], b = w[1], c = w[2], d = w[3], e = w[4], f = w[5], g = w[6], hh = w[7], ii = w[8];
        const double cd = ((d + f) / 2.0 - e) / (l * l);
        const double ce = ((b + hh) / 2.0 - e) / (l * l);
        const double cf = (-a + c + g - ii) / (4.0 * l * l);
        const double cg = (f - d) / (2.0 * l);
        const double ch = (b - hh) / (2.0 * l);
        const double p = cg * cg + ch * ch;
        double value = -(cd + ce);
        if (kind == curvature_kind::profile)
          value = p > 0 ? -2.0 * (cd * cg * cg + ce * ch * ch + cf * cg * ch) / p : 0.0;
        if (kind == curvature_kind::plan) value = p > 0 ? 2.0 * (cd * ch * ch + ce * cg * cg - cf * cg * ch) / p : 0.0;
        out[static_cast<std::size_t>(j) * h.width() + i] = static_cast<float>(value);
      }
    }
  });
  return out;
}

}  // namespace landform
