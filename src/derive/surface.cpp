#include "landform/derive/surface.hpp"

#include <cmath>
#include <numbers>

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
// operation order (the interior loop below repeats it exactly).
inline void horn_cell(const double* w, double denom, float& east, float& north) {
  east = static_cast<float>(((w[2] + 2 * w[5] + w[8]) - (w[0] + 2 * w[3] + w[6])) / denom);
  north = static_cast<float>(((w[0] + 2 * w[1] + w[2]) - (w[6] + 2 * w[7] + w[8])) / denom);
}

// One row's interior cells (1 to width - 2) from three row pointers: the same
// arithmetic as horn_cell on window_at, without building a window per cell,
// so the compiler can vectorise it.
void horn_interior_row(const float* north_row, const float* row, const float* south_row, int width, double scale,
                       double denom, float* east, float* north) {
  for (int i = 1; i < width - 1; ++i) {
    const double a = north_row[i - 1] * scale, b = north_row[i] * scale, c = north_row[i + 1] * scale;
    const double d = row[i - 1] * scale, f = row[i + 1] * scale;
    const double g = south_row[i - 1] * scale, hh = south_row[i] * scale, ii = south_row[i + 1] * scale;
    east[i] = static_cast<float>(((c + 2 * f + ii) - (a + 2 * d + g)) / denom);
    north[i] = static_cast<float>(((a + 2 * b + c) - (g + 2 * hh + ii)) / denom);
  }
}

}  // namespace

surface_gradient horn_gradient(const heightfield& h, double height_scale, edge_policy edges, int nthreads) {
  surface_gradient g{std::vector<float>(h.size()), std::vector<float>(h.size())};
  const double denom = 8.0 * h.placement().cell_size;
  const int width = h.width();
  parallel_rows(h.height(), nthreads, [&](int y0, int y1) {
    for (int j = y0; j < y1; ++j) {
      const std::size_t row = static_cast<std::size_t>(j) * width;
      const auto border_cell = [&](int i) {
        horn_cell(window_at(h, i, j, height_scale, edges).w, denom, g.east[row + i], g.north[row + i]);
      };
      if (j > 0 && j < h.height() - 1 && width > 2) {
        border_cell(0);
        horn_interior_row(h.row(j - 1), h.row(j), h.row(j + 1), width, height_scale, denom, &g.east[row],
                          &g.north[row]);
        border_cell(width - 1);
      } else {
        for (int i = 0; i < width; ++i) border_cell(i);
      }
    }
  });
  return g;
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
