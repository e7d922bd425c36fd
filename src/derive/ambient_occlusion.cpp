#include "landform/derive/ambient_occlusion.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "landform/core/error.hpp"
#include "landform/core/parallel.hpp"

namespace landform {

namespace {

// Horizons are searched at most this many cells away (beyond any map side:
// the cap only keeps offsets in range for absurd radius / cell_size ratios).
constexpr double k_max_radius_cells = 1 << 20;

// Samples at 1, 2, 3, 4 cells, then 25 % further each, the last at the radius.
constexpr double k_linear_steps = 4.0;
constexpr double k_growth = 1.25;
// Columns processed together (see ambient_occlusion()).
constexpr int k_column_block = 512;
// Offsets this close to a whole number of cells are snapped to it, so the
// axis-aligned azimuths read cells exactly (cos(pi / 2) is 6e-17, not 0).
constexpr double k_snap = 1e-9;

// One sample of one azimuth: a fixed offset from the cell, the bilinear
// fractions, and the factor turning a height difference into tan(elevation
// angle). Interpolation is written as lerps (a + f * (b - a)), which return a
// constant exactly, so a flat map has horizons of exactly 0.
struct ray_sample {
  int dx = 0, dy = 0;    // top-left tap, cells
  int ox = 0, oy = 0;    // 1 when the sample lies between columns / rows, else 0
  float fx = 0, fy = 0;  // fractions in [0, 1)
  float k = 0;           // height_scale / (distance in metres)
};

std::vector<double> sample_distances(double radius_cells) {
  std::vector<double> t;
  double d = std::min(1.0, radius_cells);
  while (true) {
    if (d >= radius_cells) {
      t.push_back(radius_cells);
      break;
    }
    t.push_back(d);
    d = d < k_linear_steps ? d + 1.0 : std::max(d + 1.0, d * k_growth);
  }
  return t;
}

double snapped(double v) {
  const double r = std::round(v);
  return std::abs(v - r) < k_snap ? r : v;
}

double radius_in_cells(const ao_params& p, double cell_size) {
  return std::min(p.radius / cell_size, k_max_radius_cells);
}

std::vector<std::vector<ray_sample>> make_rays(const ao_params& p, double cell_size, double height_scale) {
  const double radius_cells = radius_in_cells(p, cell_size);
  const std::vector<double> distances = sample_distances(radius_cells);
  std::vector<std::vector<ray_sample>> rays(static_cast<std::size_t>(p.directions));
  for (int k = 0; k < p.directions; ++k) {
    const double phi = 2.0 * std::numbers::pi * static_cast<double>(k) / static_cast<double>(p.directions);
    const double c = std::cos(phi), s = std::sin(phi);
    for (double t : distances) {
      // Row 0 is north, so an azimuth phi (counter-clockwise from east) moves
      // +x by cos and -y by sin.
      const double ox = snapped(t * c), oy = snapped(-t * s);
      ray_sample r;
      const double fx0 = std::floor(ox), fy0 = std::floor(oy);
      const double fx = ox - fx0, fy = oy - fy0;
      r.dx = static_cast<int>(fx0);
      r.dy = static_cast<int>(fy0);
      r.ox = fx > 0.0 ? 1 : 0;
      r.oy = fy > 0.0 ? 1 : 0;
      r.fx = static_cast<float>(fx);
      r.fy = static_cast<float>(fy);
      r.k = static_cast<float>(height_scale / (t * cell_size));
      rays[static_cast<std::size_t>(k)].push_back(r);
    }
  }
  return rays;
}

// best[x] = max(best[x], tan of the elevation angle of sample r) for the cells
// x in [x0, x1) of row y.
void horizon_step(const heightfield& h, int y, int x0, int x1, const ray_sample& r, ao_params::border_policy border,
                  float* best) {
  const int w = h.width(), ht = h.height();
  int ra = y + r.dy, rb = ra + r.oy;
  if (border == ao_params::border_policy::open) {
    if (ra < 0 || rb > ht - 1) return;
  } else {
    ra = std::clamp(ra, 0, ht - 1);
    rb = std::clamp(rb, 0, ht - 1);
  }
  const float* a = h.row(ra);
  const float* b = h.row(rb);
  const float* z = h.row(y);
  const float fx = r.fx, fy = r.fy, k = r.k;
  // Cells whose taps all lie inside the map.
  const int xa = std::clamp(-r.dx, x0, x1);
  const int xb = std::clamp(w - 1 - r.dx - r.ox, x0 - 1, x1 - 1);
  const int dx = r.dx, ox = r.ox;
  for (int x = xa; x <= xb; ++x) {
    const float top = a[x + dx] + fx * (a[x + dx + ox] - a[x + dx]);
    const float bottom = b[x + dx] + fx * (b[x + dx + ox] - b[x + dx]);
    const float v = top + fy * (bottom - top);
    best[x] = std::max(best[x], (v - z[x]) * k);
  }
  if (border == ao_params::border_policy::clamp) {
    // Taps left of the map read column 0, right of it column w - 1.
    const float left = a[0] + fy * (b[0] - a[0]);
    const float right = a[w - 1] + fy * (b[w - 1] - a[w - 1]);
    for (int x = x0; x < xa; ++x) best[x] = std::max(best[x], (left - z[x]) * k);
    for (int x = std::max(xb + 1, xa); x < x1; ++x) best[x] = std::max(best[x], (right - z[x]) * k);
  }
}

}  // namespace

int ambient_occlusion_halo(const ao_params& p, double cell_size) {
  return static_cast<int>(std::ceil(radius_in_cells(p, cell_size)));
}

std::vector<float> ambient_occlusion(const heightfield& h, const ao_params& p, double height_scale, int nthreads,
                                     const std::function<bool()>& stop) {
  if (p.directions < 1) {
    throw std::invalid_argument("ambient_occlusion: directions " + std::to_string(p.directions) + ", must be >= 1");
  }
  if (!(p.radius > 0.0)) {
    throw std::invalid_argument("ambient_occlusion: radius " + format_number(p.radius) + ", must be > 0 metres");
  }
  if (!(height_scale > 0.0)) {
    throw std::invalid_argument("ambient_occlusion: height_scale " + format_number(height_scale) + ", must be > 0");
  }
  const int w = h.width(), ht = h.height();
  std::vector<float> out(h.size());
  if (out.empty()) return out;
  const auto rays = make_rays(p, h.placement().cell_size, height_scale);
  const auto n = static_cast<float>(p.directions);
  const bool shaped = p.exponent != 1.0 || p.strength != 1.0;
  const auto uw = static_cast<std::size_t>(w);
  parallel_rows(
      ht, nthreads,
      [&](int y0, int y1) {
        std::vector<float> best(uw), sum(uw);
        for (int y = y0; y < y1; ++y) {
          // Column blocks keep the rows a block's rays read (radius rows up and
          // down) in cache; every cell still sums its azimuths in the same order.
          for (int x0 = 0; x0 < w; x0 += k_column_block) {
            const int x1 = std::min(w, x0 + k_column_block);
            float* const b = best.data();
            float* const s = sum.data();
            std::fill(s + x0, s + x1, 0.0f);
            for (const auto& ray : rays) {
              std::fill(b + x0, b + x1, 0.0f);  // horizons never below the horizontal
              for (const ray_sample& r : ray) horizon_step(h, y, x0, x1, r, p.border, b);
              for (int x = x0; x < x1; ++x) s[x] += 1.0f / (1.0f + b[x] * b[x]);
            }
          }
          float* o = out.data() + static_cast<std::size_t>(y) * uw;
          for (std::size_t x = 0; x < uw; ++x) {
            float v = std::min(sum[x] / n, 1.0f);
            if (shaped) {
              v = static_cast<float>(1.0 - p.strength * (1.0 - std::pow(static_cast<double>(v), p.exponent)));
              v = std::clamp(v, 0.0f, 1.0f);
            }
            o[x] = v;
          }
        }
      },
      stop);
  return out;
}

}  // namespace landform
