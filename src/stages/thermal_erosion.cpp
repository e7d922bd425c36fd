#include "landform/stages/thermal_erosion.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>
#include <vector>

#include "landform/core/parallel.hpp"

namespace landform {

const param_schema<thermal_erosion_params>& thermal_erosion_params::schema() {
  using P = thermal_erosion_params;
  static const auto s =
      param_schema<P>()
          .number("talus_angle", &P::talus_angle)
          .unit("degrees")
          .range(between(0, 89))
          .doc("steepest stable slope; steeper drops slide down (uses cell_size and height_scale)")
          .effect("lower = more material slides: softer slopes, wider scree aprons; higher = steep cliffs survive")
          .number("strength", &P::strength)
          .unit("fraction")
          .range(above_to(0, 1))
          .doc("share of the excess over the talus slope moved per iteration")
          .effect("higher = material settles in fewer iterations (coarser steps); lower = gentler, finer settling")
          .integer("iterations", &P::iterations)
          .unit("passes")
          .range(between(1, 100000))
          .doc("number of passes")
          .effect("more = slopes relax further towards the talus angle")
          .choice("neighbourhood", &P::neighbourhood,
                  {{"moore", P::kind::moore}, {"von_neumann", P::kind::von_neumann}})
          .effect("von_neumann leaves axis-aligned slopes; moore gives rounder, isotropic screes")
          .doc("moore: 8 neighbours, diagonals at sqrt(2) cell sizes; von_neumann: the 4 axis neighbours");
  return s;
}

namespace {

// Net inflow from one neighbour with drop d = h(n) - h(cell) and threshold t:
// d - t above the threshold, d + t below -t, 0 in between. The same
// expression evaluated from the neighbour's side gives exactly the negated
// value (float subtraction and the clamp are antisymmetric), so every pair's
// exchange cancels and mass is conserved up to the final additions.
inline float excess(float d, float t) {
  float c = d < -t ? -t : d;
  c = c > t ? t : c;
  return d - c;
}

// One interior row segment [i0, i1): all neighbours exist. Written as plain
// loops over contiguous rows so that the compiler vectorises them; cloned for
// AVX-512 / AVX2 / baseline with identical IEEE results (no FMA: the build
// uses -ffp-contract=off, and only add, sub, mul, min and max occur).
template <bool k_moore>
[[gnu::always_inline]] inline void row_kernel(const float* __restrict up, const float* __restrict mid,
                                              const float* __restrict down, float* __restrict out, int i0, int i1,
                                              float t, float td, float k) {
  for (int i = i0; i < i1; ++i) {
    const float c = mid[i];
    float acc = 0.0f;
    if constexpr (k_moore) {
      acc += 0.5f * excess(up[i - 1] - c, td);
      acc += excess(up[i] - c, t);
      acc += 0.5f * excess(up[i + 1] - c, td);
      acc += excess(mid[i - 1] - c, t);
      acc += excess(mid[i + 1] - c, t);
      acc += 0.5f * excess(down[i - 1] - c, td);
      acc += excess(down[i] - c, t);
      acc += 0.5f * excess(down[i + 1] - c, td);
    } else {
      acc += excess(up[i] - c, t);
      acc += excess(mid[i - 1] - c, t);
      acc += excess(mid[i + 1] - c, t);
      acc += excess(down[i] - c, t);
    }
    out[i] = c + k * acc;
  }
}

[[gnu::target_clones("avx512f", "avx2", "default")]] void row_moore(const float* up, const float* mid,
                                                                    const float* down, float* out, int i0, int i1,
                                                                    float t, float td, float k) {
  row_kernel<true>(up, mid, down, out, i0, i1, t, td, k);
}

[[gnu::target_clones("avx512f", "avx2", "default")]] void row_von_neumann(const float* up, const float* mid,
                                                                          const float* down, float* out, int i0, int i1,
                                                                          float t, float td, float k) {
  row_kernel<false>(up, mid, down, out, i0, i1, t, td, k);
}

// One output row from its three input rows; `up` / `down` are null on the
// first / last map row. Cells whose neighbours all exist take the vectorised
// kernel; the others skip missing neighbours but keep the same order, so a
// cell's sum does not depend on which path computed it.
struct kernel_args {
  int width = 0;
  float t = 0.0f;   // threshold to an axis neighbour, height units
  float td = 0.0f;  // threshold to a diagonal neighbour
  float k = 0.0f;   // strength / (1 + sum of the pair weights 1 / distance^2)
  bool moore = true;
};

float scalar_cell(const float* up, const float* mid, const float* down, int i, const kernel_args& a) {
  static constexpr int k_offsets[8][2] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}};
  const float* rows[3] = {up, mid, down};
  const float c = mid[i];
  float acc = 0.0f;
  for (const auto& o : k_offsets) {
    const bool diagonal = o[0] != 0 && o[1] != 0;
    if (diagonal && !a.moore) continue;
    const float* r = rows[o[1] + 1];
    const int x = i + o[0];
    if (r == nullptr || x < 0 || x >= a.width) continue;
    acc += (diagonal ? 0.5f : 1.0f) * excess(r[x] - c, diagonal ? a.td : a.t);
  }
  return c + a.k * acc;
}

void compute_row(const float* up, const float* mid, const float* down, float* out, const kernel_args& a) {
  const int w = a.width;
  if (up == nullptr || down == nullptr || w < 3) {
    for (int i = 0; i < w; ++i) out[i] = scalar_cell(up, mid, down, i, a);
    return;
  }
  out[0] = scalar_cell(up, mid, down, 0, a);
  if (a.moore) {
    row_moore(up, mid, down, out, 1, w - 1, a.t, a.td, a.k);
  } else {
    row_von_neumann(up, mid, down, out, 1, w - 1, a.t, a.td, a.k);
  }
  out[w - 1] = scalar_cell(up, mid, down, w - 1, a);
}

// Iterations fused per sweep over memory (temporal blocking): a chunk of rows
// advances `levels` iterations while its rows are in cache, recomputing a
// halo of `levels - l` rows at level l on each side. Every cell of every
// level is the same pure function of the level below, so chunks, halos and
// threads do not change a single bit.
constexpr int k_max_levels = 4;
constexpr int k_chunk_rows = 64;
// parallel_rows hands out fixed blocks of rows; spreading chunk c to row
// c * k_spread gives each block about one chunk, for load balance on small
// maps. Correct for any block size: each chunk belongs to exactly one block.
constexpr int k_spread = 8;

// Rows [y0, y1) of `dst` = `levels` iterations applied to `src`.
void sweep_chunk(const float* src, float* dst, int ht, int y0, int y1, int levels, const kernel_args& a, float* ring) {
  const auto w = static_cast<std::size_t>(a.width);
  auto level_row = [&](int level, int row) -> float* {  // level >= 1, ring of 3 rows
    return ring + (static_cast<std::size_t>(level - 1) * 3 + static_cast<std::size_t>(row % 3)) * w;
  };
  auto lo = [&](int level) { return std::max(0, y0 - (levels - level)); };
  auto hi = [&](int level) { return std::min(ht, y1 + (levels - level)); };
  auto input_row = [&](int level, int row) -> const float* {  // a row of `level`, or null outside the map
    if (row < 0 || row >= ht) return nullptr;
    if (level == 0) return src + static_cast<std::size_t>(row) * w;
    return level_row(level, row);
  };
  for (int s = lo(1); s < hi(1) + levels; ++s) {
    for (int level = 1; level <= levels; ++level) {
      const int r = s - (level - 1);
      if (r < lo(level) || r >= hi(level)) continue;
      float* out = level == levels ? dst + static_cast<std::size_t>(r) * w : level_row(level, r);
      compute_row(input_row(level - 1, r - 1), input_row(level - 1, r), input_row(level - 1, r + 1), out, a);
    }
  }
}

}  // namespace

void apply_thermal_erosion(heightfield& h, const thermal_erosion_params& p, const stage_context& ctx) {
  const int ht = h.height();
  if (h.size() < 2) return;
  kernel_args a;
  a.width = h.width();
  a.moore = p.neighbourhood == thermal_erosion_params::kind::moore;
  const double t_axis = std::tan(p.talus_angle * std::numbers::pi / 180.0) * h.placement().cell_size / ctx.height_scale;
  a.t = static_cast<float>(t_axis);
  a.td = static_cast<float>(t_axis * std::numbers::sqrt2);
  a.k = static_cast<float>(p.strength / (a.moore ? 7.0 : 5.0));  // strength / (1 + sum of pair weights)

  std::vector<float> other(h.size());
  float* src = h.data();
  float* dst = other.data();
  const int chunks = (ht + k_chunk_rows - 1) / k_chunk_rows;
  // Each chunk's ring of intermediate rows (3 rows per fused level), allocated once.
  const std::size_t ring_size = static_cast<std::size_t>(k_max_levels) * 3 * static_cast<std::size_t>(a.width);
  std::vector<float> rings(static_cast<std::size_t>(chunks) * ring_size);
  for (int done = 0; done < p.iterations;) {
    const int levels = std::min(k_max_levels, p.iterations - done);
    ctx.parallel_rows(chunks * k_spread, [&](int b, int e) {
      for (int c = (b + k_spread - 1) / k_spread; c * k_spread < e; ++c) {
        sweep_chunk(src, dst, ht, c * k_chunk_rows, std::min(ht, (c + 1) * k_chunk_rows), levels, a,
                    rings.data() + static_cast<std::size_t>(c) * ring_size);
      }
    });
    std::swap(src, dst);
    done += levels;
    ctx.progress(static_cast<double>(done) / p.iterations);
  }
  if (src != h.data()) std::copy(src, src + h.size(), h.data());
}

stage_info thermal_erosion_stage_info() {
  stage_info info = make_stage_info<thermal_erosion_params>(
      "thermal_erosion", stage_category::filter, stage_scope::local,
      "talus erosion: slopes steeper than talus_angle slide down until they are stable",
      "Thermal weathering after Musgrave, Kolb and Mace (SIGGRAPH 1989) and Olsen (2004): every pair of "
      "neighbours whose drop exceeds tan(talus_angle) * cell_size / height_scale (times sqrt(2) for diagonals) "
      "exchanges k * excess / distance^2 per iteration, the higher cell giving to the lower, with k = strength / 7 "
      "(moore) or strength / 5 (von_neumann); a cell's outflow is shared among its lower neighbours in "
      "proportion to their excess slope, which keeps the relaxation isotropic. Double-buffered gather, "
      "so the result does not depend on order or thread count. Conserves the sum of heights; the map edge "
      "neither drains nor acts as a cliff. Local: a region build computes the region grown by one cell per "
      "iteration.",
      &apply_thermal_erosion);
  set_cost<thermal_erosion_params>(
      info, [](const thermal_erosion_params& p, double cells) { return cells * p.iterations * 20.0; });
  info.halo_rule = "iterations";
  return info;
}

}  // namespace landform
