#include "landform/stages/blob_island.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "landform/core/control_curve.hpp"
#include "landform/core/parallel.hpp"
#include "landform/core/rng.hpp"
#include "landform/core/world_frame.hpp"

namespace landform {

const param_schema<blob_island_params>& blob_island_params::schema() {
  using P = blob_island_params;
  static const auto s =
      param_schema<P>()
          .integer("resolution", &P::resolution)
          .effect("higher = finer coastline detail: more, smaller bays and islets")
          .unit("nodes")
          .range(between(5, 4096))
          .doc("island lattice across the world's smaller side: the seed's map resolution")
          .number("land_area", &P::land_area)
          .range(above_to(0, 4))
          .doc("clusters per octave = floor(resolution / 4 * land_area); 0.12 few to 1 many")
          .effect("higher = more land: more clusters per octave")
          .number("land_type", &P::land_type)
          .range(above_to(0, 1))
          .doc("cluster radius = floor(resolution / 2 * 0.35 * land_type); 0.5 archipelago to 1 continent")
          .effect("higher = bigger clusters: one continent; lower = an archipelago of small islands")
          .integer("octaves", &P::octaves)
          .range(between(1, 16))
          .doc("rounds of dot clusters")
          .effect("more = more clusters at finer scales: ragged coasts and small islets")
          .integer("erosion", &P::erosion)
          .range(between(0, 64))
          .doc("cellular-automaton passes (neighbour averaging)")
          .effect("more = smoother, rounder islands")
          .choice("neighbourhood", &P::neighbourhood,
                  {{"eight", P::neighbourhood_kind::eight}, {"four", P::neighbourhood_kind::four}})
          .effect("four = blockier, more angular coasts; eight = rounder blobs")
          .doc("eight: 3x3 block incl. the node / 9; four: the 4 edge neighbours / 4")
          .point_list("falloff", &P::falloff)
          .effect("a slower falloff = a larger island with a wider shallow shelf")
          .count(1, 32)
          .range(between(0, 1))
          .doc("dot survival probability against distance / radius, piecewise linear")
          .point_list("remap", &P::remap)
          .count(1, 32)
          .range(between(0, 1))
          .doc("height for a neighbour average after each erosion pass, piecewise linear");
  return s;
}

void blob_island_params::check(std::vector<std::pair<std::string, std::string>>& problems) const {
  if (std::string problem = check_control_points(falloff, 1); !problem.empty())
    problems.emplace_back("falloff", problem);
  if (std::string problem = check_control_points(remap, 1); !problem.empty()) problems.emplace_back("remap", problem);
}

int blob_island_clusters(const blob_island_params& p) {
  // The seed's GetDots_Formula: (int)((resolution / DOTS_AMOUNT_FACTOR) * landArea), in float.
  return static_cast<int>(static_cast<float>(p.resolution) / 4.0f * static_cast<float>(p.land_area));
}

int blob_island_radius(const blob_island_params& p) {
  // (int)(halfResolution * 0.35f * landType) with halfResolution = resolution / 2 (integer division).
  // NOLINTNEXTLINE(bugprone-integer-division): the seed's integer halfResolution, on purpose
  return static_cast<int>(static_cast<float>(p.resolution / 2) * 0.35f * static_cast<float>(p.land_type));
}

std::vector<float> blob_island_dots(const blob_island_params& p, std::uint64_t seed,
                                    const std::function<bool()>& stop) {
  const int n = p.resolution;
  std::vector<float> grid(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), 0.0f);
  const control_curve falloff(p.falloff, control_curve::kind::linear);
  const int clusters = blob_island_clusters(p);
  const int radius = blob_island_radius(p);
  const double half = n / 2;      // NOLINT(bugprone-integer-division): the seed's halfResolution (integer)
  const double margin = n / 3.0;  // resolution / DOTS_RADIUS_MARGIN
  const std::uint64_t base = mix64(seed);
  for (int o = 0; o < p.octaves; ++o) {
    for (int c = 0; c < clusters; ++c) {
      if (stop && stop()) throw cancelled_error();  // a cluster stamps up to (2 radius)^2 dots
      const std::uint64_t stream =
          hash_combine(hash_combine(base, static_cast<std::uint64_t>(o)), static_cast<std::uint64_t>(c));
      // Random.insideUnitCircle: uniform in the unit disc.
      const double rho = std::sqrt(unit_double(mix64(stream ^ 0x243f6a8885a308d3ULL)));
      const double phi = 2.0 * std::numbers::pi * unit_double(mix64(stream ^ 0x13198a2e03707344ULL));
      const double cx = rho * std::cos(phi) * margin + half;
      const double cy = rho * std::sin(phi) * margin + half;
      std::uint64_t k = 0;
      for (int x = -radius; x < radius; ++x) {
        for (int y = -radius; y < radius; ++y, ++k) {
          const double distance = std::hypot(static_cast<double>(x), static_cast<double>(y));
          const double t = radius > 0 ? std::clamp(distance / radius, 0.0, 1.0) : 0.0;
          if (!(unit_double(hash_combine(stream, k)) < falloff(t))) continue;
          // SetPixel((int)pos.x, (int)pos.y): truncation toward zero.
          const auto px = static_cast<long long>(cx + x), py = static_cast<long long>(cy + y);
          if (px < 0 || py < 0 || px >= n || py >= n) continue;
          grid[static_cast<std::size_t>(py) * static_cast<std::size_t>(n) + static_cast<std::size_t>(px)] = 1.0f;
        }
      }
    }
  }
  return grid;
}

std::vector<float> blob_island_average(const std::vector<float>& grid, int n,
                                       blob_island_params::neighbourhood_kind kind, int nthreads) {
  std::vector<float> out(grid.size());
  auto at = [&](int x, int y) {
    return grid[static_cast<std::size_t>(y) * static_cast<std::size_t>(n) + static_cast<std::size_t>(x)];
  };
  const bool eight = kind == blob_island_params::neighbourhood_kind::eight;
  parallel_rows(n, nthreads, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y) {
      for (int x = 0; x < n; ++x) {
        double sum = 0.0;
        double result;
        if (eight) {
          for (int dx = -1; dx <= 1; ++dx) {
            for (int dy = -1; dy <= 1; ++dy) {
              // The seed's bounds: strictly inside the border ring.
              if (x + dx > 0 && x + dx < n - 1 && y + dy > 0 && y + dy < n - 1) sum += at(x + dx, y + dy);
            }
          }
          result = sum / 9.0;
        } else {
          if (x < n - 1) sum += at(x + 1, y);
          if (x > 0) sum += at(x - 1, y);
          if (y < n - 1) sum += at(x, y + 1);
          if (y > 0) sum += at(x, y - 1);
          result = sum / 4.0;
        }
        out[static_cast<std::size_t>(y) * static_cast<std::size_t>(n) + static_cast<std::size_t>(x)] =
            static_cast<float>(result);
      }
    }
  });
  return out;
}

std::vector<float> blob_island_lattice(const blob_island_params& p, std::uint64_t seed, int nthreads,
                                       const std::function<bool()>& stop) {
  std::vector<float> grid = blob_island_dots(p, seed, stop);
  const control_curve remap(p.remap, control_curve::kind::linear);
  for (int pass = 0; pass < p.erosion; ++pass) {
    if (stop && stop()) throw cancelled_error();
    if (pass > 0) {
      for (float& v : grid) v = static_cast<float>(remap(v));
    }
    grid = blob_island_average(grid, p.resolution, p.neighbourhood, nthreads);
  }
  return grid;
}

void apply_blob_island(heightfield& h, const blob_island_params& p, const stage_context& ctx) {
  const std::vector<float> lattice = blob_island_lattice(p, ctx.seed, ctx.nthreads, ctx.stop_requested);
  const control_curve remap(p.remap, control_curve::kind::linear);
  const bool remap_last = p.erosion > 0;
  const int n = p.resolution;
  const world_frame frame(ctx.world, h.placement());
  const double side = frame.short_side();
  const double spacing = side / n;  // cells per node
  const double left = 0.5 * (ctx.world.width - side), top = 0.5 * (ctx.world.height - side);
  auto node = [&](int x, int y) {
    x = std::clamp(x, 0, n - 1);
    y = std::clamp(y, 0, n - 1);
    return static_cast<double>(
        lattice[static_cast<std::size_t>(y) * static_cast<std::size_t>(n) + static_cast<std::size_t>(x)]);
  };
  ctx.parallel_rows(h.height(), [&](int y0, int y1) {
    for (int j = y0; j < y1; ++j) {
      float* out = h.row(j);
      const double ly = (frame.cells_y(j) - top) / spacing - 0.5;
      const double fy = std::floor(ly), ty = ly - fy;
      const int iy = static_cast<int>(std::clamp(fy, -2.0, static_cast<double>(n + 1)));
      for (int i = 0; i < h.width(); ++i) {
        const double lx = (frame.cells_x(i) - left) / spacing - 0.5;
        const double fx = std::floor(lx), tx = lx - fx;
        const int ix = static_cast<int>(std::clamp(fx, -2.0, static_cast<double>(n + 1)));
        double v = (node(ix, iy) * (1.0 - tx) + node(ix + 1, iy) * tx) * (1.0 - ty) +
                   (node(ix, iy + 1) * (1.0 - tx) + node(ix + 1, iy + 1) * tx) * ty;
        if (remap_last) v = remap(v);
        out[i] = static_cast<float>(std::clamp(v, 0.0, 1.0));
      }
    }
  });
}

stage_info blob_island_stage_info() {
  stage_info info = make_stage_info<blob_island_params>(
      "blob_island", stage_category::generator, stage_scope::pointwise,
      "floating islands from random dot clusters smoothed by a cellular automaton (seed 004)",
      "Seed document 004 (Procedural Floating Islands Generator, 2020) on a lattice of `resolution` nodes across "
      "the world's smaller side: each octave drops floor(resolution / 4 * land_area) clusters, centres uniform in "
      "a circle of radius resolution / 3 around the middle; each node of a cluster's square of radius "
      "r = floor(resolution / 2 * 0.35 * land_type) becomes land with probability falloff(distance / r). Then "
      "`erosion` passes replace each node by remap(neighbour average): eight = the 3x3 block including the node "
      "/ 9 (the lattice border counts as sea, as in the seed), four = the 4 edge neighbours / 4. The lattice "
      "belongs to the world, so each pass spans the same world distance at any output size and the same island "
      "appears at 256 and 1024 cells; cells sample it bilinearly, the last remap after interpolation so coasts "
      "stay crisp.",
      &apply_blob_island);
  set_cost<blob_island_params>(info, [](const blob_island_params& p, double cells) {
    // Dots stamped per cluster, automaton passes over the lattice, then the map.
    const double side = 2.0 * blob_island_radius(p);
    const double lattice = static_cast<double>(p.resolution) * p.resolution;
    return p.octaves * static_cast<double>(blob_island_clusters(p)) * side * side * 2.0 + p.erosion * lattice * 20.0 +
           cells * 10.0;
  });
  return info;
}

}  // namespace landform
