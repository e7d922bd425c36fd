#include "landform/stages/voronoi.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "landform/core/parallel.hpp"
#include "landform/core/rng.hpp"
#include "landform/core/world_frame.hpp"

namespace landform {

const param_schema<voronoi_params>& voronoi_params::schema() {
  using P = voronoi_params;
  static const auto s =
      param_schema<P>()
          .choice("mode", &P::mode,
                  {{"elevation", P::mode_kind::elevation},
                   {"f1", P::mode_kind::f1},
                   {"f2", P::mode_kind::f2},
                   {"f2_minus_f1", P::mode_kind::f2_minus_f1},
                   {"cell_value", P::mode_kind::cell_value}})
          .doc(
              "elevation: seed 002's island polygon map; f1, f2, f2_minus_f1: Worley distances; cell_value: random "
              "per cell")
          .number("grid_size", &P::grid_size)
          .unit("sites per world width")
          .range(between(0.25, 65536))
          .doc("jittered-grid density: about grid_size^2 cells over a square world")
          .effect("higher = more, smaller cells")
          .number("jitter", &P::jitter)
          .unit("grid spacings")
          .range(between(0, 0.5))
          .doc("largest offset of a site from its grid point")
          .effect("higher = irregular, organic cells; 0 = a regular grid of squares")
          .choice("distribution", &P::distribution,
                  {{"triangular", P::distribution_kind::triangular}, {"uniform", P::distribution_kind::uniform}})
          .effect("uniform = more irregular cell sizes; triangular = cells closer to a regular grid")
          .doc("site offsets: jitter * (r1 - r2) as in seed 002, or jitter * (2r - 1)")
          .choice("metric", &P::metric,
                  {{"euclidean", P::metric_kind::euclidean},
                   {"manhattan", P::metric_kind::manhattan},
                   {"chebyshev", P::metric_kind::chebyshev}})
          .effect(
              "manhattan, chebyshev = cells with straight axis and 45-degree edges, a crystalline look; euclidean = "
              "natural polygons")
          .doc("distance for the partition and the F values")
          .choice("island", &P::island,
                  {{"square", P::island_kind::square},
                   {"euclidean", P::island_kind::euclidean},
                   {"none", P::island_kind::none}})
          .doc("elevation: island shaping (1 + e - d) / 2 with d = 2 max(|x|, |y|), 2 |(x, y)|, or none")
          .number("wavelength", &P::wavelength)
          .unit("world widths")
          .range(above(0))
          .doc("elevation noise wavelength")
          .effect("higher = broader elevation variation across the island")
          .number("moisture_wavelength", &P::moisture_wavelength)
          .unit("world widths")
          .range(above(0))
          .doc("moisture noise wavelength")
          .effect("higher = larger wet and dry regions");
  return s;
}

namespace {

constexpr std::uint64_t k_site_stream = 0x5ea7'0001;
constexpr std::uint64_t k_elevation_stream = 0x5ea7'0002;
constexpr std::uint64_t k_moisture_stream = 0x5ea7'0003;
constexpr std::uint64_t k_value_stream = 0x5ea7'0004;

std::uint64_t cell_hash(std::uint64_t stream, std::int64_t i, std::int64_t j) {
  return hash_combine(hash_combine(stream, static_cast<std::uint64_t>(i)), static_cast<std::uint64_t>(j));
}

// 2D simplex noise (Stefan Gustavson, "Simplex noise demystified", 2005, as in
// simplex-noise.js) with the gradient of each lattice point hashed from the
// stream instead of a permuted table. Result in [-1, 1].
double simplex2(std::uint64_t stream, double x, double y) {
  static constexpr double k_grad[12][2] = {{1, 1}, {-1, 1}, {1, -1}, {-1, -1}, {1, 0}, {-1, 0},
                                           {1, 0}, {-1, 0}, {0, 1},  {0, -1},  {0, 1}, {0, -1}};
  const double f2 = 0.5 * (std::sqrt(3.0) - 1.0);
  const double g2 = (3.0 - std::sqrt(3.0)) / 6.0;
  const double s = (x + y) * f2;
  const double fi = std::floor(x + s), fj = std::floor(y + s);
  const double t = (fi + fj) * g2;
  const double x0 = x - (fi - t), y0 = y - (fj - t);
  const int i1 = x0 > y0 ? 1 : 0, j1 = x0 > y0 ? 0 : 1;
  const double x1 = x0 - i1 + g2, y1 = y0 - j1 + g2;
  const double x2 = x0 - 1.0 + 2.0 * g2, y2 = y0 - 1.0 + 2.0 * g2;
  const auto i = static_cast<std::int64_t>(fi), j = static_cast<std::int64_t>(fj);
  auto corner = [&](double dx, double dy, std::int64_t ci, std::int64_t cj) {
    double tt = 0.5 - dx * dx - dy * dy;
    if (tt < 0.0) return 0.0;
    const auto* g = k_grad[cell_hash(stream, ci, cj) % 12];
    tt *= tt;
    return tt * tt * (g[0] * dx + g[1] * dy);
  };
  const double n = corner(x0, y0, i, j) + corner(x1, y1, i + i1, j + j1) + corner(x2, y2, i + 1, j + 1);
  return std::clamp(70.0 * n, -1.0, 1.0);
}

struct layout {
  double spacing;  // cells per grid spacing
  double grid_size;
  double aspect;  // world height / width
  std::uint64_t site, elevation, moisture, value;
  double sea_level = 0.5;  // island shaping puts the coast here (height units)
};

layout make_layout(const voronoi_params& p, std::uint64_t seed, const world_extent& world) {
  const std::uint64_t base = mix64(seed);
  return {world.width / p.grid_size,
          p.grid_size,
          static_cast<double>(world.height) / world.width,
          hash_combine(base, k_site_stream),
          hash_combine(base, k_elevation_stream),
          hash_combine(base, k_moisture_stream),
          hash_combine(base, k_value_stream)};
}

// Site of grid point (i, j), in grid spacings.
void site_of(const voronoi_params& p, const layout& l, std::int64_t i, std::int64_t j, double& sx, double& sy) {
  const std::uint64_t h = cell_hash(l.site, i, j);
  const double r1 = unit_double(h), r2 = unit_double(mix64(h + 1)), r3 = unit_double(mix64(h + 2));
  if (p.distribution == voronoi_params::distribution_kind::triangular) {
    const double r4 = unit_double(mix64(h + 3));
    sx = static_cast<double>(i) + p.jitter * (r1 - r2);
    sy = static_cast<double>(j) + p.jitter * (r3 - r4);
  } else {
    sx = static_cast<double>(i) + p.jitter * (2.0 * r1 - 1.0);
    sy = static_cast<double>(j) + p.jitter * (2.0 * r3 - 1.0);
  }
}

double distance(voronoi_params::metric_kind m, double dx, double dy) {
  switch (m) {
    case voronoi_params::metric_kind::euclidean:
      return std::sqrt(dx * dx + dy * dy);
    case voronoi_params::metric_kind::manhattan:
      return std::abs(dx) + std::abs(dy);
    case voronoi_params::metric_kind::chebyshev:
      return std::max(std::abs(dx), std::abs(dy));
  }
  return 0.0;
}

// The nearest and second-nearest site of (x, y) (cells from the world's
// top-left edge) with `site(i, j, sx, sy)` giving the site of grid point (i, j).
template <class SiteFn>
voronoi_sample sample_with(const voronoi_params& p, const layout& l, double x, double y, bool need_f2,
                           const SiteFn& site) {
  const double qx = x / l.spacing, qy = y / l.spacing;
  const auto kx = static_cast<std::int64_t>(std::floor(qx + 0.5));
  const auto ky = static_cast<std::int64_t>(std::floor(qy + 0.5));
  // Sites stay within 0.5 of their grid point, so F1 lies within the 5 x 5
  // block around the point's own grid cell and F2 within the 7 x 7 block.
  const int reach = need_f2 ? 3 : 2;
  voronoi_sample s;
  s.f1 = s.f2 = std::numeric_limits<double>::infinity();
  for (std::int64_t j = ky - reach; j <= ky + reach; ++j) {
    for (std::int64_t i = kx - reach; i <= kx + reach; ++i) {
      double sx, sy;
      site(i, j, sx, sy);
      const double d = distance(p.metric, qx - sx, qy - sy);
      if (d < s.f1) {
        s.f2 = s.f1;
        s.f1 = d;
        s.cell_x = i;
        s.cell_y = j;
        s.site_x = sx;
        s.site_y = sy;
      } else if (d < s.f2) {
        s.f2 = d;
      }
    }
  }
  return s;
}

// Fills in the nearest site's elevation, moisture and random value.
void add_site_values(const voronoi_params& p, const layout& l, voronoi_sample& s) {
  // The site's position relative to the world's centre, in world widths.
  const double cx = s.site_x / l.grid_size - 0.5;
  const double cy = s.site_y / l.grid_size - 0.5 * l.aspect;
  const double e = (1.0 + simplex2(l.elevation, cx / p.wavelength, cy / p.wavelength)) / 2.0;
  // d uses world fractions on each axis, so d = 1 at the middle of every edge.
  const double fy = cy / l.aspect;
  double d = 0.0;
  if (p.island == voronoi_params::island_kind::square) d = 2.0 * std::max(std::abs(cx), std::abs(fy));
  if (p.island == voronoi_params::island_kind::euclidean) d = 2.0 * std::sqrt(cx * cx + fy * fy);
  s.elevation = p.island == voronoi_params::island_kind::none ? e : (1.0 + e - d) / 2.0 + (l.sea_level - 0.5);
  s.moisture = (1.0 + simplex2(l.moisture, cx / p.moisture_wavelength, cy / p.moisture_wavelength)) / 2.0;
  s.cell_value = unit_double(cell_hash(l.value, s.cell_x, s.cell_y));
}

voronoi_sample sample_at(const voronoi_params& p, const layout& l, double x, double y) {
  voronoi_sample s = sample_with(
      p, l, x, y, true, [&](std::int64_t i, std::int64_t j, double& sx, double& sy) { site_of(p, l, i, j, sx, sy); });
  add_site_values(p, l, s);
  return s;
}

}  // namespace

std::pair<double, double> voronoi_site(const voronoi_params& p, std::uint64_t seed, const world_extent& world,
                                       std::int64_t i, std::int64_t j) {
  double sx, sy;
  site_of(p, make_layout(p, seed, world), i, j, sx, sy);
  return {sx, sy};
}

voronoi_sample voronoi_at(const voronoi_params& p, std::uint64_t seed, const world_extent& world, double x, double y) {
  return sample_at(p, make_layout(p, seed, world), x, y);
}

layer_set apply_voronoi(heightfield& h, const voronoi_params& p, const stage_context& ctx) {
  using M = voronoi_params::mode_kind;
  layout l = make_layout(p, ctx.seed, ctx.world);
  l.sea_level = ctx.sea_level.value_or(0.5);
  const world_frame frame(ctx.world, h.placement());
  std::vector<float> moisture_values;
  if (ctx.wants("moisture")) moisture_values.assign(h.size(), 0.0f);
  std::vector<float>* moisture = ctx.wants("moisture") ? &moisture_values : nullptr;
  const bool need_f2 = p.mode == M::f2 || p.mode == M::f2_minus_f1;
  const std::int64_t reach = need_f2 ? 3 : 2;
  auto grid_index = [&](double cells) { return static_cast<std::int64_t>(std::floor(cells / l.spacing + 0.5)); };
  const std::int64_t kx0 = grid_index(frame.cells_x(0)) - reach;
  const std::int64_t columns = grid_index(frame.cells_x(h.width() - 1)) + reach - kx0 + 1;
  // Each row looks up 2 * reach + 1 rows of sites across the region: computed
  // once per row instead of once per cell, unless sites are much denser than
  // cells. The sites are a pure function of (i, j), so both paths agree.
  const bool table = columns <= 7 * static_cast<std::int64_t>(h.width()) + 64;
  ctx.parallel_rows(h.height(), [&](int y0, int y1) {
    std::vector<double> sites;
    for (int j = y0; j < y1; ++j) {
      float* out = h.row(j);
      float* wet =
          moisture ? moisture->data() + static_cast<std::size_t>(j) * static_cast<std::size_t>(h.width()) : nullptr;
      const double y = frame.cells_y(j);
      const std::int64_t ky0 = grid_index(y) - reach;
      if (table) {
        const auto rows = static_cast<std::size_t>(2 * reach + 1);
        sites.resize(rows * static_cast<std::size_t>(columns) * 2);
        for (std::size_t r = 0; r < rows; ++r)
          for (std::int64_t c = 0; c < columns; ++c) {
            double* at = &sites[(r * static_cast<std::size_t>(columns) + static_cast<std::size_t>(c)) * 2];
            site_of(p, l, kx0 + c, ky0 + static_cast<std::int64_t>(r), at[0], at[1]);
          }
      }
      for (int i = 0; i < h.width(); ++i) {
        voronoi_sample s;
        if (table) {
          s = sample_with(
              p, l, frame.cells_x(i), y, need_f2, [&](std::int64_t gi, std::int64_t gj, double& sx, double& sy) {
                const double* at = &sites[(static_cast<std::size_t>(gj - ky0) * static_cast<std::size_t>(columns) +
                                           static_cast<std::size_t>(gi - kx0)) *
                                          2];
                sx = at[0];
                sy = at[1];
              });
        } else {
          s = sample_with(
              p, l, frame.cells_x(i), y, need_f2,
              [&](std::int64_t gi, std::int64_t gj, double& sx, double& sy) { site_of(p, l, gi, gj, sx, sy); });
        }
        add_site_values(p, l, s);
        double v = 0.0;
        switch (p.mode) {
          case M::elevation:
            v = s.elevation;
            break;
          case M::f1:
            v = s.f1;
            break;
          case M::f2:
            v = s.f2;
            break;
          case M::f2_minus_f1:
            v = s.f2 - s.f1;
            break;
          case M::cell_value:
            v = s.cell_value;
            break;
        }
        out[i] = static_cast<float>(v);
        if (wet) wet[i] = static_cast<float>(s.moisture);
      }
    }
  });
  layer_set side;
  if (moisture) side.put("moisture", std::move(moisture_values));
  return side;
}

stage_info voronoi_stage_info() {
  stage_info info = make_stage_info<voronoi_params>(
      "voronoi", stage_category::generator, stage_scope::pointwise,
      "jittered-grid Voronoi polygon map with island elevation and moisture (seed 002), or Worley F1/F2/F2-F1",
      "Seed document 002 (after Amit Patel's Polygonal Map Generation for Games): sites on a jittered grid "
      "(grid_size per world width, offsets jitter * (r1 - r2)), each raster cell owned by its nearest site. "
      "elevation: each Voronoi cell gets e = (1 + simplex(x / wavelength, y / wavelength)) / 2 at its site, "
      "shaped by (1 + e - d) / 2 with d = 2 max(|x|, |y|) (square) or 2 sqrt(x^2 + y^2) (euclidean) from the "
      "world's centre in world widths; the coast (e = d) lies at the preset's sea_level (0.5 when not given). A second "
      "noise gives each cell a moisture in [0, 1], "
      "written to the layer `moisture` (used by the `biome` output). f1, f2, f2_minus_f1: Worley cellular noise "
      "in grid spacings (F1 < 2, F2 < 3) with euclidean, manhattan or chebyshev distance. Sites are hashed per "
      "grid cell, so any region is consistent.",
      &apply_voronoi);
  info.writes = {"moisture"};
  return info;
}

}  // namespace landform
