#include "stages/droplet/droplet_lanes.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__SSE__)
#include <immintrin.h>
#endif

#include "landform/core/error.hpp"
#include "stages/droplet/droplet_cells.hpp"

// The lane vectors of 8 floats are passed between helpers that are all
// inlined into one ISA's kernel: the ABI note GCC and clang give for them
// has no effect here (clang reads GCC's pragma too).
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace landform::droplet {

namespace {

// The droplet simulation, k_lanes droplets at a time.
//
// Lane i of a vector is one droplet. The lanes run droplets of different
// tiles of one colour, which never touch the same cells, so they are
// independent: running them side by side gives exactly what running them one
// after another would. Each lane runs whole tiles, a tile's droplets in index
// order. The arithmetic is elementwise IEEE float (add, sub, mul, div, sqrt,
// compare/select) in the same order for every lane, so a droplet's result does
// not depend on its lane or on which droplets share its vector.

// A vector of N lanes: 4 (one SSE / NEON register) or 8 (AVX-512, whose 32
// registers hold the 8-lane state; with AVX2's 16 it measured slower).
// (Concrete types behind a trait: GCC drops vector_size on an alias template
// with a dependent size.)
using vfloat4 = float __attribute__((vector_size(16)));
using vint4 = std::int32_t __attribute__((vector_size(16)));
using vfloat8 = float __attribute__((vector_size(32)));
using vint8 = std::int32_t __attribute__((vector_size(32)));
template <int N>
struct lane_vectors;
template <>
struct lane_vectors<4> {
  using f = vfloat4;
  using i = vint4;
};
template <>
struct lane_vectors<8> {
  using f = vfloat8;
  using i = vint8;
};
// The lanes of a vector type.
template <class V>
constexpr int lanes_of = static_cast<int>(sizeof(V) / 4);

template <class V, class S>
inline V splat(S s) {
  V v;
  for (int i = 0; i < lanes_of<V>; ++i) v[i] = s;
  return v;
}
// std::min / std::max, lane by lane (same operand order, same result).
template <class V>
inline V vmin(V a, V b) {
  return b < a ? b : a;
}
template <class V>
inline V vmax(V a, V b) {
  return a < b ? b : a;
}
template <class V>
inline V vsqrt(V a) {
#if defined(__SSE__)
  if constexpr (lanes_of<V> == 8) {
    // The halves taken and joined in registers: through memory, the two
    // 16-byte stores and the 32-byte load that follows them miss store
    // forwarding, which stalled every step (~9 % of the kernel in perf).
    const __m128 lo = _mm_sqrt_ps(__builtin_shufflevector(a, a, 0, 1, 2, 3));
    const __m128 hi = _mm_sqrt_ps(__builtin_shufflevector(a, a, 4, 5, 6, 7));
    return __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7);
  } else {
    static_assert(lanes_of<V> == 4, "vsqrt: 4 or 8 lanes");
    __m128 q;
    std::memcpy(&q, &a, sizeof q);
    q = _mm_sqrt_ps(q);
    std::memcpy(&a, &q, sizeof q);
    return a;
  }
#else
  for (int i = 0; i < lanes_of<V>; ++i) a[i] = __builtin_sqrtf(a[i]);
  return a;
#endif
}
// Cells are indexed in int32: pipelines cap maps at 2^28 cells.
template <class VF, class VI>
inline VF gather(const float* map, VI index) {
  VF v;
  for (int i = 0; i < lanes_of<VF>; ++i) v[i] = map[index[i]];
  return v;
}

// Base level "sea": clears `mask` in the lanes whose position (x, y) lies
// on a sea cell (the cell nearest to it). For a move's end, a move into the
// sea counts as leaving the map; for a droplet's position, the sea (base
// level) does not erode.
template <class VF, class VI>
inline void clear_at_sea(const std::uint8_t* sea, int width, VF x, VF y, VI& mask) {
  for (int i = 0; i < lanes_of<VF>; ++i) {
    if (mask[i] == 0) continue;
    const auto cx = static_cast<std::ptrdiff_t>(x[i] + 0.5f), cy = static_cast<std::ptrdiff_t>(y[i] + 0.5f);
    if (sea[cy * width + cx] != 0) mask[i] = 0;
  }
}

// Runs every droplet of the queue's tiles, k_lanes at a time.
template <int k_lanes, bool k_maps>
[[gnu::always_inline]] inline void run_tiles(const field_view& f, const droplet_constants& c,
                                             const erosion_brush& brush, particle_tile_queue& queue,
                                             droplet_totals* tile_totals) {
  using vfloat = typename lane_vectors<k_lanes>::f;
  using vint = typename lane_vectors<k_lanes>::i;
  const auto splat = [](float s) { return landform::droplet::splat<vfloat>(s); };
  const auto splat_int = [](std::int32_t s) { return landform::droplet::splat<vint>(s); };
  const auto gather = [](const float* m, vint index) { return landform::droplet::gather<vfloat>(m, index); };
  const int w = f.width, ht = f.height_cells;
  const std::ptrdiff_t stride = w;
  float* map = f.height;
  const vfloat zero = splat(0.0f), one = splat(1.0f), half = splat(0.5f);
  const vfloat inertia = splat(c.inertia), keep_gradient = splat(1.0f - c.inertia);
  const vfloat x_limit = splat(static_cast<float>(w - 1)), y_limit = splat(static_cast<float>(ht - 1));
  const vint lifetime = splat_int(c.lifetime), width = splat_int(w);

  // Droplet state, lane i = one droplet. Idle lanes sit at (0, 0), a valid
  // cell, so that their (unused) reads stay on the map.
  vfloat x = zero, y = zero, dir_x = zero, dir_y = zero, speed = zero, water = zero, sediment = zero;
  vint life = splat_int(0), active = splat_int(0);
  const particle_start* next[k_lanes] = {};
  const particle_start* last[k_lanes] = {};
  droplet_totals* totals[k_lanes] = {};
  double eroded[k_lanes] = {}, deposited[k_lanes] = {};
  int running = 0;

  // Starts lane i's next droplet, taking a new tile when its tile is done.
  auto refill = [&](int i) {
    if (queue.stop_requested()) throw cancelled_error();
    while (next[i] == last[i]) {
      const particle_tile* tile = queue.take();
      if (tile == nullptr) {
        active[i] = 0;
        x[i] = 0.0f;
        y[i] = 0.0f;
        return;
      }
      next[i] = tile->begin;
      last[i] = tile->end;
      totals[i] = tile_totals + tile->id;
    }
    x[i] = next[i]->x;
    y[i] = next[i]->y;
    ++next[i];
    dir_x[i] = 0.0f;
    dir_y[i] = 0.0f;
    speed[i] = c.initial_speed;
    water[i] = c.initial_water;
    sediment[i] = 0.0f;
    life[i] = 0;
    eroded[i] = 0.0;
    deposited[i] = 0.0;
    active[i] = -1;
  };
  for (int i = 0; i < k_lanes; ++i) {
    refill(i);
    if (active[i] != 0) ++running;
  }

  while (running > 0) {
    // Height and gradient by bilinear interpolation of the four cells around
    // the droplet.
    const vint node_x = __builtin_convertvector(x, vint), node_y = __builtin_convertvector(y, vint);
    const vfloat u = x - __builtin_convertvector(node_x, vfloat), v = y - __builtin_convertvector(node_y, vfloat);
    const vint node = node_y * width + node_x;
    const vfloat h00 = gather(map, node), h10 = gather(map, node + 1);
    const vfloat h01 = gather(map, node + width), h11 = gather(map, node + width + 1);
    const vfloat grad_x = (h10 - h00) * (one - v) + (h11 - h01) * v;
    const vfloat grad_y = (h01 - h00) * (one - u) + (h11 - h10) * u;
    const vfloat height = (h00 * (one - u) + h10 * u) * (one - v) + (h01 * (one - u) + h11 * u) * v;

    // New direction: the old one mixed with the downhill gradient.
    vfloat dx = dir_x * inertia - grad_x * keep_gradient;
    vfloat dy = dir_y * inertia - grad_y * keep_gradient;
    const vfloat len = vsqrt(dx * dx + dy * dy);
    const vint has_direction = len > splat(1e-20f);  // else flat ground: the droplet stops
    const vfloat inv_len = has_direction ? one / len : zero;
    dx *= inv_len;
    dy *= inv_len;
    const vfloat next_x = x + dx, next_y = y + dy;
    const vint in_bounds = (next_x >= zero) & (next_x < x_limit) & (next_y >= zero) & (next_y < y_limit);
    vint on_map = in_bounds;
    if (f.sea != nullptr) clear_at_sea(f.sea, w, next_x, next_y, on_map);
    const vint alive = active & (life < lifetime) & has_direction;
    const vint moving = alive & on_map;  // else the droplet dies: end of life, flat ground or the map's edge
    const vint leaving = alive & ~on_map;
    vint over_edge = alive & ~in_bounds;  // leaving across the map's edge
    if (f.sea != nullptr) clear_at_sea(f.sea, w, x, y, over_edge);

    const vfloat safe_x = moving ? next_x : x, safe_y = moving ? next_y : y;
    const vint nn_x = __builtin_convertvector(safe_x, vint), nn_y = __builtin_convertvector(safe_y, vint);
    const vfloat nu = safe_x - __builtin_convertvector(nn_x, vfloat);
    const vfloat nv = safe_y - __builtin_convertvector(nn_y, vfloat);
    const vint next_node = nn_y * width + nn_x;
    const vfloat q00 = gather(map, next_node), q10 = gather(map, next_node + 1);
    const vfloat q01 = gather(map, next_node + width), q11 = gather(map, next_node + width + 1);
    const vfloat next_on_map = (q00 * (one - nu) + q10 * nu) * (one - nv) + (q01 * (one - nu) + q11 * nu) * nv;
    // Over the edge: the height there continued along the gradient, no lower
    // than the lowest corner (so no cut goes below the lowest ground there was).
    const vfloat next_height =
        over_edge ? vmax(height + grad_x * dx + grad_y * dy, vmin(vmin(h00, h10), vmin(h01, h11))) : next_on_map;
    const vfloat dh = next_height - height;

    // Deposit when over capacity or moving uphill (fill the pit, at most dh);
    // otherwise erode, at most the drop -dh.
    const vfloat capacity =
        vmax(vmax(-dh, splat(c.min_slope)) * speed * water * splat(c.capacity_factor), splat(c.min_capacity));
    const vint uphill = dh > zero;
    const vint depositing = (sediment > capacity) | uphill;
    // Lanes replace both with what the cells had room for.
    vfloat deposit = uphill ? vmin(dh, sediment) : (sediment - capacity) * splat(c.deposit_speed);
    vfloat erode = vmin((capacity - sediment) * splat(c.erode_speed), -dh);
    // The cell nearest to the droplet, for the flow map.
    const vint centre_x = node_x + (u >= half ? splat_int(1) : splat_int(0));
    const vint centre_y = node_y + (v >= half ? splat_int(1) : splat_int(0));

    for (int i = 0; i < k_lanes; ++i) {
      if (moving[i] == 0) {
        // A droplet leaving across the edge still erodes its last step
        // (else the map's outer cells erode less and stand as a frame).
        if (over_edge[i] != 0 && depositing[i] == 0)
          erode[i] = tally(apply_brush<k_maps>(f, brush, node_x[i], node_y[i], u[i], v[i], erode[i], next_height[i]),
                           eroded[i]);
        continue;
      }
      if constexpr (k_maps) f.flow[centre_y[i] * stride + centre_x[i]] += 1.0f;
      if (depositing[i] != 0) {
        // Filling the pit it climbs out of (settled into the lowest corners)
        // or dropping surplus sediment (bilinearly, Beyer), never above the
        // higher of its old and new heights. (Spreading the surplus over the
        // erosion disc instead cuts the count of tiny pits by about 70 % but
        // grows a washboard of ripples across slopes, as droplets alternate
        // eroding and depositing on the same footprint; see docs/erosion.md.
        // Settling the surplus too biases erosion by direction on a cone.)
        const float ceiling = std::max(height[i], next_height[i]);
        deposit[i] =
            tally(uphill[i] != 0 ? deposit_settled<k_maps>(f, node_x[i], node_y[i], deposit[i], ceiling)
                                 : deposit_bilinear<k_maps>(f, node_x[i], node_y[i], u[i], v[i], deposit[i], ceiling),
                  deposited[i]);
      } else {
        erode[i] =
            tally(apply_brush<k_maps>(f, brush, node_x[i], node_y[i], u[i], v[i], erode[i], next_height[i]), eroded[i]);
      }
    }
    sediment = moving ? (depositing ? vmax(zero, sediment - deposit) : sediment + erode)
                      : ((over_edge & ~depositing) ? sediment + erode : sediment);
    speed = moving ? vsqrt(vmax(zero, speed * speed - dh * splat(c.gravity))) : speed;
    water = moving ? water * splat(c.water_kept) : water;
    dir_x = moving ? dx : dir_x;
    dir_y = moving ? dy : dir_y;
    x = safe_x;
    y = safe_y;
    life -= moving;  // moving is -1 where true

    for (int i = 0; i < k_lanes; ++i) {
      if (active[i] == 0 || moving[i] != 0) continue;
      const droplet_end end{node_x[i], node_y[i], u[i], v[i], sediment[i], leaving[i] != 0, life[i]};
      end_droplet<k_maps>(f, brush, end, eroded[i], deposited[i], *totals[i]);
      refill(i);
      if (active[i] == 0) --running;
    }
  }
}

template <int k_lanes>
[[gnu::always_inline]] inline void run_tiles_with(const field_view& f, const droplet_constants& c,
                                                  const erosion_brush& brush, particle_tile_queue& queue,
                                                  droplet_totals* tile_totals) {
  if (f.flow != nullptr) {
    run_tiles<k_lanes, true>(f, c, brush, queue, tile_totals);
  } else {
    run_tiles<k_lanes, false>(f, c, brush, queue, tile_totals);
  }
}

// Four lanes: one copy for AVX2 machines (the disc's 8-cell rows in one
// operation), one for the rest; the same IEEE results.
[[gnu::target_clones("avx2", "default")]] void run_tiles_4(const field_view& f, const droplet_constants& c,
                                                           const erosion_brush& brush, particle_tile_queue& queue,
                                                           droplet_totals* tile_totals) {
  run_tiles_with<4>(f, c, brush, queue, tile_totals);
}

#if defined(__x86_64__)
// Eight lanes on AVX-512 machines: about 9 % faster at 2048^2 than four
// (the steps' latency chains overlap more). Same IEEE results: which lane
// runs a tile changes nothing.
[[gnu::target("avx512f")]] void run_tiles_8(const field_view& f, const droplet_constants& c, const erosion_brush& brush,
                                            particle_tile_queue& queue, droplet_totals* tile_totals) {
  run_tiles_with<8>(f, c, brush, queue, tile_totals);
}
#endif

}  // namespace

void run_tiles_lanes(const field_view& f, const droplet_constants& c, const erosion_brush& brush,
                     particle_tile_queue& queue, droplet_totals* tile_totals) {
#if defined(__x86_64__)
  static const bool wide = __builtin_cpu_supports("avx512f") != 0;
  if (wide) {
    run_tiles_8(f, c, brush, queue, tile_totals);
    return;
  }
#endif
  run_tiles_4(f, c, brush, queue, tile_totals);
}

void run_tiles_lanes4(const field_view& f, const droplet_constants& c, const erosion_brush& brush,
                      particle_tile_queue& queue, droplet_totals* tile_totals) {
  run_tiles_4(f, c, brush, queue, tile_totals);
}

}  // namespace landform::droplet
