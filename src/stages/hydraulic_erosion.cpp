#include "landform/stages/hydraulic_erosion.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <stdexcept>
#include <vector>

#if defined(__SSE__)
#include <immintrin.h>
#endif

#include "landform/core/parallel.hpp"
#include "landform/core/rng.hpp"
#include "landform/derive/water.hpp"

namespace landform {

const param_schema<hydraulic_erosion_params>& hydraulic_erosion_params::schema() {
  using P = hydraulic_erosion_params;
  static const auto s =
      param_schema<P>()
          .number("droplets_per_cell", &P::droplets_per_cell)
          .unit("droplets per cell")
          .range(between(0, 1000))
          .doc("amount of rain: droplets per map cell (used when droplet_count is 0)")
          .effect("more = deeper, more connected channels and gullies (and a slower stage)")
          .integer("droplet_count", &P::droplet_count)
          .unit("droplets")
          .range(between(0, 1000000000))
          .doc("total number of droplets; > 0 overrides droplets_per_cell")
          .effect("more = deeper, more connected channels and gullies (and a slower stage)")
          .choice("spawn", &P::spawn,
                  {{"uniform", P::spawn_kind::uniform}, {"high_ground", P::spawn_kind::high_ground}})
          .doc("uniform: droplets start anywhere; high_ground: start points biased towards high ground")
          .effect("high_ground concentrates carving on ridges and slopes, leaving lowlands smoother")
          .number("inertia", &P::inertia)
          .unit("fraction")
          .range(between(0, 0.99))
          .doc("share of the previous direction kept each step")
          .effect(
              "higher = straighter, longer channels; lower = droplets follow every bump (dendritic, wiggly gullies)")
          .number("sediment_capacity_factor", &P::sediment_capacity_factor)
          .unit("per slope x speed x water")
          .range(above(0))
          .doc("how much sediment a droplet can carry")
          .effect("higher = deeper carving and more material moved into valleys")
          .number("min_sediment_capacity", &P::min_sediment_capacity)
          .unit("height units")
          .range(between(0, 1))
          .doc("capacity floor, so droplets on gentle ground still carry some sediment")
          .effect("higher = erosion also on gentle slopes and flats")
          .number("min_slope", &P::min_slope)
          .effect("higher = droplets keep carving on flat ground: deeper channels across plains")
          .unit("height units per cell")
          .range(between(0, 1))
          .doc("slope floor in the capacity (Beyer's p_minSlope); 0 disables it")
          .number("erode_speed", &P::erode_speed)
          .unit("fraction")
          .range(between(0, 1))
          .doc("share of the free capacity eroded per step")
          .effect("higher = sharper, deeper channels")
          .number("deposit_speed", &P::deposit_speed)
          .unit("fraction")
          .range(between(0, 1))
          .doc("share of the surplus sediment deposited per step")
          .effect("higher = sediment settles sooner: fuller valley floors, shorter channels")
          .number("evaporate_speed", &P::evaporate_speed)
          .unit("fraction per step")
          .range(between(0, 1))
          .doc("share of a droplet's water that evaporates each step")
          .effect("higher = droplets die sooner: shorter channels, erosion stays near where rain fell")
          .number("gravity", &P::gravity)
          .unit("speed^2 per height unit")
          .range(between(0, 1000))
          .doc("acceleration down slopes")
          .effect("higher = droplets speed up faster on slopes and carry more")
          .integer("max_lifetime", &P::max_lifetime)
          .unit("steps")
          .range(between(1, 1000))
          .doc("steps (cells travelled) before a droplet dies")
          .effect("higher = longer channels reaching further downhill")
          .integer("erosion_radius", &P::erosion_radius)
          .unit("cells")
          .range(between(1, 16))
          .doc("radius of the erosion brush")
          .effect("higher = wider, softer channels; lower = narrow, sharp gullies")
          .number("initial_water", &P::initial_water)
          .effect("more = longer-lived droplets: longer, deeper gullies")
          .unit("water volume")
          .range(above_to(0, 1000))
          .doc("water of a new droplet")
          .number("initial_speed", &P::initial_speed)
          .unit("cells per step")
          .range(between(0, 1000))
          .doc("speed of a new droplet")
          .choice("base_level", &P::base_level,
                  {{"edges", erosion_base_level::edges}, {"sea", erosion_base_level::sea}})
          .doc(
              "where droplets end: the map's edge (edges), or also the sea below the preset's sea_level (sea; needs "
              "sea_level)")
          .effect("sea = gullies end at the coast and their sediment leaves the map instead of filling the sea floor")
          .choice("units", &P::units, {{"world", P::unit_kind::world}, {"cells", P::unit_kind::cells}})
          .doc(
              "world: the per-step values hold on the reference grid and are converted to the same behaviour per "
              "metre on the preset's grid (lifetime in metres, rates per metre, capacity from the slope in m/m); "
              "cells: used per step as given, as Beyer published them")
          .effect("world = the same world erodes alike at every resolution and relief; cells = Beyer's model as is")
          .number("reference_cell_size", &P::reference_cell_size)
          .unit("m")
          .range(above_to(0, 1e6))
          .doc("cell size of the grid the per-step values hold for (units: world)")
          .effect("larger = the same values act over longer distances: longer droplet paths, gentler rates per metre")
          .number("reference_height_scale", &P::reference_height_scale)
          .unit("m per height unit")
          .range(above_to(0, 1e7))
          .doc("height scale of the grid the per-step values hold for (units: world)")
          .effect("larger = the same relief counts as gentler: slower droplets, less carving");
  return s;
}

hydraulic_erosion_params hydraulic_erosion_grid_params(const hydraulic_erosion_params& p, double cell_size,
                                                       double height_scale) {
  if (!(cell_size > 0.0 && std::isfinite(cell_size) && height_scale > 0.0 && std::isfinite(height_scale))) {
    throw std::invalid_argument("hydraulic_erosion: cell_size and height_scale must be positive and finite");
  }
  if (p.units == hydraulic_erosion_params::unit_kind::cells) return p;
  const double c = cell_size / p.reference_cell_size, r = height_scale / p.reference_height_scale;
  hydraulic_erosion_params g = p;
  g.units = hydraulic_erosion_params::unit_kind::cells;
  g.reference_cell_size = cell_size;
  g.reference_height_scale = height_scale;
  // Exact identity on the reference grid: no rounding through pow.
  if (c != 1.0) {
    // A share s kept per step of c reference cells is s^c; a share taken is
    // 1 - (1 - t)^c.
    const auto per_step = [c](double taken) { return 1.0 - std::pow(1.0 - taken, c); };
    g.erode_speed = per_step(p.erode_speed);
    g.deposit_speed = per_step(p.deposit_speed);
    g.evaporate_speed = per_step(p.evaporate_speed);
    g.inertia = std::pow(p.inertia, c);
    g.sediment_capacity_factor = p.sediment_capacity_factor / c;
    constexpr double k_max_steps = 65536.0;
    g.max_lifetime = static_cast<int>(std::clamp(std::round(p.max_lifetime / c), 1.0, k_max_steps));
  }
  if (c != 1.0 || r != 1.0) g.min_slope = p.min_slope * c / r;
  if (r != 1.0) {
    g.min_sediment_capacity = p.min_sediment_capacity / r;
    g.gravity = p.gravity * r;
  }
  return g;
}

std::uint64_t hydraulic_erosion_params::total_droplets(std::size_t cells) const {
  if (droplet_count > 0) return static_cast<std::uint64_t>(droplet_count);
  return static_cast<std::uint64_t>(std::llround(droplets_per_cell * static_cast<double>(cells)));
}

namespace {

// Streams of the stage's hash: droplet starts, high-ground acceptance, tile
// grid offsets.
constexpr std::uint64_t k_stream_start = 0x5354415254ULL;     // "START"
constexpr std::uint64_t k_stream_accept = 0x414343455054ULL;  // "ACCEPT"
constexpr std::uint64_t k_stream_grid = 0x47524944ULL;        // "GRID"
constexpr int k_max_spawn_attempts = 8;
// Droplets per round: one per k_cells_per_round_droplet cells (at least
// k_min_round_droplets), so a round rains lightly everywhere and the tile
// grid moves between rounds. Rounds smaller than k_min_parallel_round run on
// one thread: waking threads would cost more than it saves.
constexpr std::uint64_t k_cells_per_round_droplet = 8;
constexpr std::uint64_t k_min_round_droplets = 256;
constexpr std::size_t k_min_parallel_round = 4096;
// See parallel_items.
constexpr int k_spread = 8;

// Calls fn(item) for item in [0, count) through parallel_rows, item k at row
// k * k_spread, so that parallel_rows' fixed row blocks hold about one item
// each (load balance when items are few and large). Each item belongs to
// exactly one block whatever the block size, and items never share state, so
// the result does not depend on the thread count.
template <class F>
void parallel_items(int count, int nthreads, F&& fn) {
  parallel_rows(count * k_spread, nthreads, [&](int b, int e) {
    for (int item = (b + k_spread - 1) / k_spread; item * k_spread < e; ++item) fn(item);
  });
}

// The erosion disc (Beyer): weight max(0, radius - |cell - centre|),
// normalised to sum 1, where the centre is the droplet's position rounded to
// 1/k_phases of a cell (the middle of its sub-cell), so the footprint follows
// the droplet smoothly instead of jumping from cell to cell, with no shift in
// any direction. One stencil per sub-cell phase, all precomputed: 2 radius
// rows and columns from the droplet's cell + (1 - radius), each row padded
// with zero weights to a multiple of 4 cells so that the interior case runs
// as 4-wide vector operations (the padding subtracts 0, leaving those cells
// unchanged; reach() counts it).
constexpr int k_phases = 4;

struct erosion_brush {
  int origin = 0;              // offset of the stencil's first row and column from the droplet's cell
  int side = 0;                // rows, and meaningful columns, of a stencil
  int width = 0;               // padded row length, a multiple of 4, >= side
  std::vector<float> weights;  // [phase_y][phase_x][row][width]

  explicit erosion_brush(int radius) {
    origin = 1 - radius;
    side = 2 * radius;
    width = (side + 3) / 4 * 4;
    weights.assign(static_cast<std::size_t>(k_phases * k_phases * side * width), 0.0f);
    std::vector<double> raw(static_cast<std::size_t>(side * width));
    for (int py = 0; py < k_phases; ++py) {
      for (int px = 0; px < k_phases; ++px) {
        const double cx = (px + 0.5) / k_phases, cy = (py + 0.5) / k_phases;
        double total = 0.0;
        for (int row = 0; row < side; ++row) {
          for (int col = 0; col < side; ++col) {
            const double dx = origin + col - cx, dy = origin + row - cy;
            const double wgt = std::max(0.0, radius - std::sqrt(dx * dx + dy * dy));
            raw[static_cast<std::size_t>(row * width + col)] = wgt;
            total += wgt;
          }
        }
        float* out = stencil(px, py);
        for (int row = 0; row < side; ++row)
          for (int col = 0; col < side; ++col)
            out[row * width + col] = static_cast<float>(raw[static_cast<std::size_t>(row * width + col)] / total);
      }
    }
  }
  [[nodiscard]] float* stencil(int px, int py) {
    return weights.data() + static_cast<std::size_t>((py * k_phases + px) * side * width);
  }
  [[nodiscard]] const float* stencil(int px, int py) const {
    return weights.data() + static_cast<std::size_t>((py * k_phases + px) * side * width);
  }
  // Largest distance in cells from the droplet's cell to a cell the stencil writes.
  [[nodiscard]] int extent() const { return std::max(-origin, origin + width - 1); }
};

// Four floats as one vector operation (GCC / Clang vector extension; SSE on
// x86-64, NEON on ARM). Elementwise IEEE arithmetic, so results equal the
// scalar ones.
using float4 = float __attribute__((vector_size(16)));

inline float4 load4(const float* p) {
  float4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store4(float* p, float4 v) {
  std::memcpy(p, &v, sizeof v);
}

// Eight floats: one AVX operation where available, two SSE ones otherwise.
// (Only ever a local variable: passing it to functions would depend on AVX.)
using float8 = float __attribute__((vector_size(32)));
using int8x = std::int32_t __attribute__((vector_size(32)));  // a float8 comparison's lane masks
using int4x = std::int32_t __attribute__((vector_size(16)));  // a float4 comparison's lane masks

// Parameters as floats for the hot loop.
struct droplet_constants {
  float inertia = 0.0f;
  float capacity_factor = 0.0f;
  float min_capacity = 0.0f;
  float min_slope = 0.0f;
  float erode_speed = 0.0f;
  float deposit_speed = 0.0f;
  float water_kept = 0.0f;  // 1 - evaporate_speed
  float gravity = 0.0f;
  float initial_water = 0.0f;
  float initial_speed = 0.0f;
  int lifetime = 0;

  explicit droplet_constants(const hydraulic_erosion_params& p)
      : inertia(static_cast<float>(p.inertia)),
        capacity_factor(static_cast<float>(p.sediment_capacity_factor)),
        min_capacity(static_cast<float>(p.min_sediment_capacity)),
        min_slope(static_cast<float>(p.min_slope)),
        erode_speed(static_cast<float>(p.erode_speed)),
        deposit_speed(static_cast<float>(p.deposit_speed)),
        water_kept(static_cast<float>(1.0 - p.evaporate_speed)),
        gravity(static_cast<float>(p.gravity)),
        initial_water(static_cast<float>(p.initial_water)),
        initial_speed(static_cast<float>(p.initial_speed)),
        lifetime(p.max_lifetime) {}
};

// The map and, optionally, the per-cell output maps.
struct field_view {
  float* height = nullptr;
  float* erosion = nullptr;
  float* deposition = nullptr;
  float* flow = nullptr;
  const std::uint8_t* sea = nullptr;  // base level "sea": nonzero = a sea cell, where droplets end
  int width = 0;
  int height_cells = 0;
};

struct droplet_totals {
  double eroded = 0.0;
  double deposited = 0.0;
  double lost = 0.0;
  double outflow = 0.0;
  std::uint64_t steps = 0;
  std::uint64_t droplets = 0;

  void add(const droplet_totals& o) {
    eroded += o.eroded;
    deposited += o.deposited;
    lost += o.lost;
    outflow += o.outflow;
    steps += o.steps;
    droplets += o.droplets;
  }
};

// Cells a droplet can read or write, counted from its start cell in x or y:
// one cell per step (it erodes and reads around positions at most
// max_lifetime cells away), plus the stencil's extent from the droplet's cell
// (zero padding included), plus one for the bilinear neighbour, one for the
// start cell's offset and one of margin for float rounding of the positions.
int reach(const hydraulic_erosion_params& p, const erosion_brush& brush) {
  return p.max_lifetime + brush.extent() + 3;
}

struct start_point {
  float x = 0.0f;
  float y = 0.0f;
};

// A float in [0, limit), from 24 random bits.
float scaled(std::uint64_t bits, int limit) {
  const auto f = static_cast<float>(static_cast<double>(unit_float(bits)) * limit);
  return std::min(f, std::nextafter(static_cast<float>(limit), 0.0f));
}

start_point uniform_start(std::uint64_t seed, std::uint64_t index, int w, int ht) {
  const std::uint64_t bits = hash64(seed, k_stream_start, index);
  return {scaled(bits, w - 1), scaled(bits << 32, ht - 1)};
}

hydraulic_erosion_result to_result(const droplet_totals& t) {
  hydraulic_erosion_result r;
  r.droplets = t.droplets;
  r.steps = t.steps;
  r.eroded = t.eroded;
  r.deposited = t.deposited;
  r.sediment_lost = t.lost;
  r.sediment_outflow = t.outflow;
  return r;
}

field_view make_view(heightfield& h, hydraulic_erosion_maps* maps) {
  field_view f;
  f.height = h.data();
  f.width = h.width();
  f.height_cells = h.height();
  if (maps != nullptr) {
    maps->erosion.assign(h.size(), 0.0f);
    maps->deposition.assign(h.size(), 0.0f);
    maps->flow.assign(h.size(), 0.0f);
    f.erosion = maps->erosion.data();
    f.deposition = maps->deposition.data();
    f.flow = maps->flow.data();
  }
  return f;
}

// ---------------------------------------------------------------------------
// The droplet simulation, k_lanes droplets at a time.
//
// Lane i of a vector is one droplet. The lanes run droplets of different
// tiles of one colour, which never touch the same cells, so they are
// independent: running them side by side gives exactly what running them one
// after another would. Each lane runs whole tiles, a tile's droplets in index
// order. The arithmetic is elementwise IEEE float (add, sub, mul, div, sqrt,
// compare/select) in the same order for every lane, so a droplet's result does
// not depend on its lane or on which droplets share its vector.

constexpr int k_lanes = 4;  // one SSE / NEON register; 8 lanes measured slower (register pressure)
using vfloat = float __attribute__((vector_size(4 * k_lanes)));
using vint = std::int32_t __attribute__((vector_size(4 * k_lanes)));

inline vfloat splat(float s) {
  vfloat v;
  for (int i = 0; i < k_lanes; ++i) v[i] = s;
  return v;
}
inline vint splat_int(std::int32_t s) {
  vint v;
  for (int i = 0; i < k_lanes; ++i) v[i] = s;
  return v;
}
// std::min / std::max, lane by lane (same operand order, same result).
inline vfloat vmin(vfloat a, vfloat b) {
  return b < a ? b : a;
}
inline vfloat vmax(vfloat a, vfloat b) {
  return a < b ? b : a;
}
inline vfloat vsqrt(vfloat a) {
#if defined(__SSE__)
  for (int k = 0; k < k_lanes; k += 4) {
    __m128 q;
    std::memcpy(&q, reinterpret_cast<const float*>(&a) + k, sizeof q);
    q = _mm_sqrt_ps(q);
    std::memcpy(reinterpret_cast<float*>(&a) + k, &q, sizeof q);
  }
  return a;
#else
  for (int i = 0; i < k_lanes; ++i) a[i] = __builtin_sqrtf(a[i]);
  return a;
#endif
}
// Cells are indexed in int32: pipelines cap maps at 2^28 cells.
inline vfloat gather(const float* map, vint index) {
  vfloat v;
  for (int i = 0; i < k_lanes; ++i) v[i] = map[index[i]];
  return v;
}

// A run of droplets: one tile's start points, in index order.
struct tile_work {
  const start_point* begin = nullptr;
  const start_point* end = nullptr;
  droplet_totals* totals = nullptr;
};

// The tiles of one colour phase, handed out one at a time to whichever lane
// of whichever thread is free. Tiles are independent and each runs whole in
// one lane, so who takes which tile does not change any result; taking them
// on demand only balances the load.
struct tile_queue {
  const tile_work* tiles = nullptr;
  int count = 0;
  std::atomic<int> next{0};
  const std::function<bool()>* stop = nullptr;  // polled per droplet (a droplet is at most ~2 ms of work)

  // The next tile, or null when all are taken.
  const tile_work* take() {
    const int k = next.fetch_add(1, std::memory_order_relaxed);
    return k < count ? tiles + k : nullptr;
  }
};

// apply_brush inside the map: whole padded rows of `width` cells (a multiple
// of 4), 8 cells per operation and a 4-cell tail, the same min/max as
// apply_brush's loop. (Fixing the width at compile time to unroll the loops
// measured no faster.)
template <bool k_maps>
[[gnu::always_inline]] inline float brush_interior(const field_view& f, const float* stencil, int side, int width,
                                                   float* first, float amount, float floor) {
  const std::ptrdiff_t stride = f.width;
  const float8 a8 = {amount, amount, amount, amount, amount, amount, amount, amount};
  const float8 f8 = {floor, floor, floor, floor, floor, floor, floor, floor};
  const float8 zero8 = {};
  const float4 a4 = {amount, amount, amount, amount}, f4 = {floor, floor, floor, floor}, zero4 = {};
  float8 taken8 = zero8;
  float4 taken4 = zero4;
  int8x limited8 = {};  // lanes where some cell had less room than its share
  int4x limited4 = {};
  for (int row = 0; row < side; ++row) {
    float* dst = first + row * stride;
    const float* wt = stencil + row * width;
    int k = 0;
    for (; k + 8 <= width; k += 8) {
      float8 weights, cells;
      std::memcpy(&weights, wt + k, sizeof weights);
      std::memcpy(&cells, dst + k, sizeof cells);
      const float8 want = a8 * weights, excess = cells - f8;
      const float8 room = excess > zero8 ? excess : zero8;
      const int8x short_of_room = room < want;
      const float8 take = short_of_room ? room : want;
      limited8 |= short_of_room;
      cells -= take;
      taken8 += take;
      std::memcpy(dst + k, &cells, sizeof cells);
      if constexpr (k_maps) {
        float* out = f.erosion + (dst - f.height) + k;
        std::memcpy(&cells, out, sizeof cells);
        cells += take;
        std::memcpy(out, &cells, sizeof cells);
      }
    }
    if (k < width) {
      const float4 want = a4 * load4(wt + k), excess = load4(dst + k) - f4;
      const float4 room = excess > zero4 ? excess : zero4;
      const int4x short_of_room = room < want;
      const float4 take = short_of_room ? room : want;
      limited4 |= short_of_room;
      store4(dst + k, load4(dst + k) - take);
      taken4 += take;
      if constexpr (k_maps) store4(f.erosion + (dst - f.height) + k, load4(f.erosion + (dst - f.height) + k) + take);
    }
  }
  // The disc's weights sum to 1: unlimited, the droplet takes up `amount`
  // (the cells' float rounding is far below the accounting's tolerance).
  // Otherwise the lanes' sum, in a fixed order whatever the CPU's vector width.
  bool any_limited = false;
  for (int k = 0; k < 8; ++k) any_limited = any_limited || limited8[k] != 0;
  for (int k = 0; k < 4; ++k) any_limited = any_limited || limited4[k] != 0;
  if (!any_limited) return amount;
  float sum = 0.0f;
  for (int k = 0; k < 8; ++k) sum += taken8[k];
  for (int k = 0; k < 4; ++k) sum += taken4[k];
  return sum;
}

// Takes up to `amount` (>= 0) from the cells of the erosion disc around a
// droplet in cell (node_x, node_y) at offset (u, v) in that cell, and returns
// the amount actually taken. No cell is cut below `floor`, the height the
// droplet moves to: a cell at or below it gives nothing, one above it at most
// its excess. That is what keeps the model bounded (no cell sinks below the
// lowest ground there was, as `floor` is an interpolation of the map), and
// it stops a droplet from digging the pits it would then fall into. The
// whole map erodes, its outer ring included (a fixed ring left a frame in
// hillshades); at the map's edge the disc is clipped, not renormalised
// (concentrating it on fewer cells would dig grooves along the edge).
template <bool k_maps>
[[gnu::always_inline]] inline float apply_brush(const field_view& f, const erosion_brush& brush, int node_x, int node_y,
                                                float u, float v, float amount, float floor) {
  const int w = f.width, ht = f.height_cells;
  const std::ptrdiff_t stride = w;
  const int px = std::min(k_phases - 1, static_cast<int>(u * k_phases));
  const int py = std::min(k_phases - 1, static_cast<int>(v * k_phases));
  const float* stencil = brush.stencil(px, py);
  const int x0 = node_x + brush.origin, y0 = node_y + brush.origin;
  if (x0 >= 0 && x0 + brush.width <= w && y0 >= 0 && y0 + brush.side <= ht) {
    float* first = f.height + y0 * stride + x0;
    return brush_interior<k_maps>(f, stencil, brush.side, brush.width, first, amount, floor);
  }
  float applied = 0.0f;
  for (int row = std::max(0, -y0); row < std::min(brush.side, ht - y0); ++row) {
    for (int col = std::max(0, -x0); col < std::min(brush.side, w - x0); ++col) {
      float& cell = f.height[(y0 + row) * stride + x0 + col];
      const float a = std::min(amount * stencil[row * brush.width + col], std::max(0.0f, cell - floor));
      cell -= a;
      applied += a;
      if constexpr (k_maps) f.erosion[(y0 + row) * stride + x0 + col] += a;
    }
  }
  return applied;
}

// Adds up to `amount` (>= 0) bilinearly, weights from the offset (u, v), on
// the four cells from index n (Beyer), never raising a cell above `ceiling`:
// a cell at or above it gets nothing. Returns the amount added.
template <bool k_maps>
[[gnu::always_inline]] inline float deposit_bilinear(const field_view& f, std::ptrdiff_t n, float u, float v,
                                                     float amount, float ceiling) {
  const std::ptrdiff_t stride = f.width;
  amount = std::max(0.0f, amount);  // the sediment can round to a hair below 0
  const std::ptrdiff_t cells[4] = {n, n + 1, n + stride, n + stride + 1};
  const float shares[4] = {amount * (1.0f - u) * (1.0f - v), amount * u * (1.0f - v), amount * (1.0f - u) * v,
                           amount * u * v};
  float added[4];
  for (int k = 0; k < 4; ++k) {
    float& cell = f.height[cells[k]];
    added[k] = std::min(shares[k], std::max(0.0f, ceiling - cell));
    cell += added[k];
    if constexpr (k_maps) f.deposition[cells[k]] += added[k];
  }
  return (added[0] + added[1]) + (added[2] + added[3]);
}

// Lays up to `amount` (>= 0) on the four cells from index n (the droplet's
// cell corners), settling it like water: the lowest corners fill first, to
// one common level, never above `ceiling`. Returns the amount laid down.
// Used for the pit fill: spreading it bilinearly (Beyer) left one corner
// lower than the others it filled, which made most single-cell pits. With
// `ceiling` an interpolation of the map, no cell rises above the highest
// ground there was.
template <bool k_maps>
[[gnu::always_inline]] inline float deposit_settled(const field_view& f, std::ptrdiff_t n, float amount,
                                                    float ceiling) {
  const std::ptrdiff_t stride = f.width;
  const std::ptrdiff_t cells[4] = {n, n + 1, n + stride, n + stride + 1};
  float sorted[4] = {f.height[cells[0]], f.height[cells[1]], f.height[cells[2]], f.height[cells[3]]};
  // A sorting network: five branch-free compare-exchanges (std::sort's
  // branches mispredict on every call).
  const auto order = [&sorted](int a, int b) {
    const float lo = std::min(sorted[a], sorted[b]), hi = std::max(sorted[a], sorted[b]);
    sorted[a] = lo;
    sorted[b] = hi;
  };
  order(0, 1);
  order(2, 3);
  order(0, 2);
  order(1, 3);
  order(1, 2);
  // The level: the first k corners rise to `level`, with k the most corners
  // the amount can bring up to the next corner's height.
  float level = sorted[0];
  float left = std::max(0.0f, amount);
  for (int k = 1; k <= 4 && left > 0.0f; ++k) {
    const float next = k < 4 ? std::min(sorted[k], ceiling) : ceiling;
    const float need = (next - level) * static_cast<float>(k);
    if (need >= left) {
      level += left / static_cast<float>(k);
      left = 0.0f;
    } else if (need > 0.0f) {
      level = next;
      left -= need;
    }
    if (next >= ceiling) break;
  }
  level = std::min(level, ceiling);
  float added = 0.0f;
  for (const std::ptrdiff_t c : cells) {
    const float a = std::max(0.0f, level - f.height[c]);
    f.height[c] += a;
    added += a;
    if constexpr (k_maps) f.deposition[c] += a;
  }
  return added;
}

// The highest of the (up to 8) neighbours of cell (x, y). A dying droplet's
// load never raises a cell above it, so it never makes a single-cell spike.
inline float highest_neighbour(const field_view& f, int x, int y) {
  float top = -std::numeric_limits<float>::infinity();
  for (int ny = std::max(0, y - 1); ny <= std::min(f.height_cells - 1, y + 1); ++ny)
    for (int nx = std::max(0, x - 1); nx <= std::min(f.width - 1, x + 1); ++nx)
      if (nx != x || ny != y) top = std::max(top, f.height[static_cast<std::ptrdiff_t>(ny) * f.width + nx]);
  return top;
}

// True when a row or column neighbour of cell (x, y) stands at `level` or higher.
inline bool axis_neighbour_at_least(const field_view& f, int x, int y, float level) {
  const float* row = f.height + static_cast<std::ptrdiff_t>(y) * f.width;
  return (x > 0 && row[x - 1] >= level) || (x + 1 < f.width && row[x + 1] >= level) ||
         (y > 0 && row[x - f.width] >= level) || (y + 1 < f.height_cells && row[x + f.width] >= level);
}

// Lays `amount` (>= 0) on the erosion disc around a droplet in cell (node_x,
// node_y) at offset (u, v), where a dying droplet drops what it still
// carries: spread like the erosion that picked it up, so it forms a low
// mound, not a spike on four cells. No cell rises above the highest cell of
// the disc (which keeps the model bounded). Returns the amount laid down.
template <bool k_maps>
inline float deposit_disc(const field_view& f, const erosion_brush& brush, int node_x, int node_y, float u, float v,
                          float amount) {
  const int w = f.width, ht = f.height_cells;
  const std::ptrdiff_t stride = w;
  const float* stencil = brush.stencil(std::min(k_phases - 1, static_cast<int>(u * k_phases)),
                                       std::min(k_phases - 1, static_cast<int>(v * k_phases)));
  const int x0 = node_x + brush.origin, y0 = node_y + brush.origin;
  const int row0 = std::max(0, -y0), row1 = std::min(brush.side, ht - y0);
  const int col0 = std::max(0, -x0), col1 = std::min(brush.side, w - x0);
  const bool inside = x0 >= 1 && x0 + brush.side < w && y0 >= 1 && y0 + brush.side < ht;  // and every neighbour
  float ceiling = -std::numeric_limits<float>::infinity();
  for (int row = row0; row < row1; ++row)
    for (int col = col0; col < col1; ++col)
      if (stencil[row * brush.width + col] > 0.0f)
        ceiling = std::max(ceiling, f.height[(y0 + row) * stride + x0 + col]);
  float added = 0.0f;
  for (int row = row0; row < row1; ++row) {
    for (int col = col0; col < col1; ++col) {
      const int cx = x0 + col, cy = y0 + row;
      float& cell = f.height[cy * stride + cx];
      float a = std::min(amount * stencil[row * brush.width + col], std::max(0.0f, ceiling - cell));
      // Most cells have a higher neighbour along a row or column: only the
      // others need the full eight. Away from the map's edge, without the
      // bounds checks.
      if (a > 0.0f && inside) {
        const float* c = &cell;
        const float axis = std::max(std::max(c[-1], c[1]), std::max(c[-stride], c[stride]));
        if (axis < cell + a) {
          const float diagonal =
              std::max(std::max(c[-stride - 1], c[-stride + 1]), std::max(c[stride - 1], c[stride + 1]));
          a = std::min(a, std::max(0.0f, std::max(axis, diagonal) - cell));
        }
      } else if (a > 0.0f && !axis_neighbour_at_least(f, cx, cy, cell + a)) {
        a = std::min(a, std::max(0.0f, highest_neighbour(f, cx, cy) - cell));
      }
      cell += a;
      added += a;
      if constexpr (k_maps) f.deposition[cy * stride + cx] += a;
    }
  }
  return added;
}

// Base level "sea": a move that ends on a sea cell (the cell nearest to the
// new position) counts as leaving the map.
inline void end_at_sea(const std::uint8_t* sea, int width, vfloat next_x, vfloat next_y, vint& on_map) {
  for (int i = 0; i < k_lanes; ++i) {
    if (on_map[i] == 0) continue;
    const auto cx = static_cast<std::ptrdiff_t>(next_x[i] + 0.5f), cy = static_cast<std::ptrdiff_t>(next_y[i] + 0.5f);
    if (sea[cy * width + cx] != 0) on_map[i] = 0;
  }
}

// Runs every droplet of `tiles` (tiles of one colour), k_lanes at a time.
template <bool k_maps>
[[gnu::always_inline]] inline void run_tiles(const field_view& f, const droplet_constants& c,
                                             const erosion_brush& brush, tile_queue& queue) {
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
  const start_point* next[k_lanes] = {};
  const start_point* last[k_lanes] = {};
  droplet_totals* totals[k_lanes] = {};
  double eroded[k_lanes] = {}, deposited[k_lanes] = {};
  int running = 0;

  // Starts lane i's next droplet, taking a new tile when its tile is done.
  auto refill = [&](int i) {
    if (queue.stop != nullptr && (*queue.stop)()) throw cancelled_error();
    while (next[i] == last[i]) {
      const tile_work* tile = queue.take();
      if (tile == nullptr) {
        active[i] = 0;
        x[i] = 0.0f;
        y[i] = 0.0f;
        return;
      }
      next[i] = tile->begin;
      last[i] = tile->end;
      totals[i] = tile->totals;
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
    vint on_map = (next_x >= zero) & (next_x < x_limit) & (next_y >= zero) & (next_y < y_limit);
    if (f.sea != nullptr) end_at_sea(f.sea, w, next_x, next_y, on_map);
    const vint alive = active & (life < lifetime) & has_direction;
    const vint moving = alive & on_map;  // else the droplet dies: end of life, flat ground or the map's edge
    const vint leaving = alive & ~on_map;

    const vfloat safe_x = moving ? next_x : x, safe_y = moving ? next_y : y;
    const vint nn_x = __builtin_convertvector(safe_x, vint), nn_y = __builtin_convertvector(safe_y, vint);
    const vfloat nu = safe_x - __builtin_convertvector(nn_x, vfloat);
    const vfloat nv = safe_y - __builtin_convertvector(nn_y, vfloat);
    const vint next_node = nn_y * width + nn_x;
    const vfloat q00 = gather(map, next_node), q10 = gather(map, next_node + 1);
    const vfloat q01 = gather(map, next_node + width), q11 = gather(map, next_node + width + 1);
    const vfloat next_height = (q00 * (one - nu) + q10 * nu) * (one - nv) + (q01 * (one - nu) + q11 * nu) * nv;
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
      if (moving[i] == 0) continue;
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
        deposit[i] = uphill[i] != 0 ? deposit_settled<k_maps>(f, node[i], deposit[i], ceiling)
                                    : deposit_bilinear<k_maps>(f, node[i], u[i], v[i], deposit[i], ceiling);
        deposited[i] += static_cast<double>(deposit[i]);
      } else {
        erode[i] = apply_brush<k_maps>(f, brush, node_x[i], node_y[i], u[i], v[i], erode[i], next_height[i]);
        eroded[i] += static_cast<double>(erode[i]);
      }
    }
    sediment = moving ? (depositing ? vmax(zero, sediment - deposit) : sediment + erode) : sediment;
    speed = moving ? vsqrt(vmax(zero, speed * speed - dh * splat(c.gravity))) : speed;
    water = moving ? water * splat(c.water_kept) : water;
    dir_x = moving ? dx : dir_x;
    dir_y = moving ? dy : dir_y;
    x = safe_x;
    y = safe_y;
    life -= moving;  // moving is -1 where true

    for (int i = 0; i < k_lanes; ++i) {
      if (active[i] == 0 || moving[i] != 0) continue;
      // The droplet died. Unless it left the map, it lays down the sediment
      // it still carries where it stands.
      if (leaving[i] == 0 && sediment[i] > 0.0f) {
        const float added = deposit_disc<k_maps>(f, brush, node_x[i], node_y[i], u[i], v[i], sediment[i]);
        deposited[i] += static_cast<double>(added);
        sediment[i] -= added;
      }
      droplet_totals& t = *totals[i];  // account for it
      t.eroded += eroded[i];
      t.deposited += deposited[i];
      t.lost += static_cast<double>(sediment[i]);
      if (leaving[i] != 0) t.outflow += static_cast<double>(sediment[i]);
      t.steps += static_cast<std::uint64_t>(life[i]);
      t.droplets += 1;
      refill(i);
      if (active[i] == 0) --running;
    }
  }
}

[[gnu::target_clones("avx2", "default")]] void run_tiles_any(const field_view& f, const droplet_constants& c,
                                                             const erosion_brush& brush, tile_queue& queue) {
  if (f.flow != nullptr) {
    run_tiles<true>(f, c, brush, queue);
  } else {
    run_tiles<false>(f, c, brush, queue);
  }
}

}  // namespace

hydraulic_erosion_result run_droplet(heightfield& h, const hydraulic_erosion_params& p, float x, float y,
                                     hydraulic_erosion_maps* maps) {
  const field_view f = make_view(h, maps);
  droplet_totals totals;
  if (h.width() < 2 || h.height() < 2) return to_result(totals);
  if (!(x >= 0.0f && x < static_cast<float>(h.width() - 1) && y >= 0.0f && y < static_cast<float>(h.height() - 1))) {
    return to_result(totals);
  }
  const start_point start{x, y};
  const tile_work work{&start, &start + 1, &totals};
  tile_queue queue;
  queue.tiles = &work;
  queue.count = 1;
  run_tiles_any(f, droplet_constants(p), erosion_brush(p.erosion_radius), queue);
  return to_result(totals);
}

hydraulic_erosion_result apply_hydraulic_erosion(heightfield& h, const hydraulic_erosion_params& params,
                                                 const stage_context& ctx, hydraulic_erosion_maps* maps) {
  const hydraulic_erosion_params p = hydraulic_erosion_grid_params(params, h.placement().cell_size, ctx.height_scale);
  field_view f = make_view(h, maps);
  std::vector<std::uint8_t> sea;
  if (p.base_level == erosion_base_level::sea) {
    if (!ctx.sea_level) {
      throw std::invalid_argument(
          "hydraulic_erosion.base_level: \"sea\" needs the preset's top-level sea_level, which is not given");
    }
    sea = find_ocean(h, *ctx.sea_level);
    f.sea = sea.data();
  }
  const int w = h.width(), ht = h.height();
  const std::uint64_t total = p.total_droplets(h.size());
  droplet_totals totals;
  if (w < 2 || ht < 2 || total == 0) return to_result(totals);

  const droplet_constants c(p);
  const erosion_brush brush(p.erosion_radius);
  const int threads = resolve_threads(ctx.nthreads);
  const int tile = 2 * reach(p, brush);  // same-colour tiles are a tile apart: their reaches never meet
  const std::uint64_t per_round =
      std::max(k_min_round_droplets, static_cast<std::uint64_t>(h.size()) / k_cells_per_round_droplet);
  const std::uint64_t rounds = (total + per_round - 1) / per_round;

  std::vector<start_point> starts;      // this round's droplets, by index
  std::vector<start_point> by_tile;     // the same, grouped by tile, index order within a tile
  std::vector<int> tile_of;             // tile of each droplet
  std::vector<std::size_t> tile_begin;  // by_tile range of each tile
  std::vector<droplet_totals> tile_totals;
  std::vector<int> colour_tiles[4];
  std::vector<float> block_min, block_max;
  std::vector<tile_work> work;

  for (std::uint64_t round = 0; round < rounds; ++round) {
    const std::uint64_t first = round * per_round;
    const auto n = static_cast<std::size_t>(std::min(per_round, total - first));

    // Start points, each a pure function of (seed, index) and, for
    // high_ground, of the map as it is at the start of the round.
    starts.resize(n);
    if (p.spawn == hydraulic_erosion_params::spawn_kind::uniform) {
      parallel_items(static_cast<int>((n + 4095) / 4096), ctx.nthreads, [&](int b) {
        const std::size_t k1 = std::min(n, static_cast<std::size_t>(b + 1) * 4096);
        for (std::size_t k = static_cast<std::size_t>(b) * 4096; k < k1; ++k) {
          starts[k] = uniform_start(ctx.seed, first + k, w, ht);
        }
      });
    } else {
      const int blocks = (ht + 63) / 64;
      block_min.assign(static_cast<std::size_t>(blocks), std::numeric_limits<float>::infinity());
      block_max.assign(static_cast<std::size_t>(blocks), -std::numeric_limits<float>::infinity());
      parallel_items(blocks, ctx.nthreads, [&](int b) {
        const std::size_t lo = static_cast<std::size_t>(b) * 64 * w;
        const std::size_t hi = std::min(h.size(), static_cast<std::size_t>(b + 1) * 64 * w);
        const auto [mn, mx] = std::minmax_element(h.data() + lo, h.data() + hi);
        block_min[static_cast<std::size_t>(b)] = *mn;
        block_max[static_cast<std::size_t>(b)] = *mx;
      });
      const float lo = *std::min_element(block_min.begin(), block_min.end());
      const float hi = *std::max_element(block_max.begin(), block_max.end());
      const float inv_range = hi > lo ? 1.0f / (hi - lo) : 0.0f;
      parallel_items(static_cast<int>((n + 4095) / 4096), ctx.nthreads, [&](int b) {
        const std::size_t k1 = std::min(n, static_cast<std::size_t>(b + 1) * 4096);
        for (std::size_t k = static_cast<std::size_t>(b) * 4096; k < k1; ++k) {
          const std::uint64_t index = first + k;
          start_point s{};
          for (int attempt = 0; attempt < k_max_spawn_attempts; ++attempt) {
            s = uniform_start(ctx.seed, index * k_max_spawn_attempts + static_cast<std::uint64_t>(attempt), w, ht);
            const float level =
                inv_range > 0.0f ? (h.at(static_cast<int>(s.x + 0.5f), static_cast<int>(s.y + 0.5f)) - lo) * inv_range
                                 : 1.0f;
            if (unit_float(hash64(ctx.seed, k_stream_accept, index, static_cast<std::uint64_t>(attempt))) < level)
              break;
          }
          starts[k] = s;
        }
      });
    }

    // This round's tile grid, offset so that tile seams move between rounds.
    const std::uint64_t grid_bits = hash64(ctx.seed, k_stream_grid, round);
    const int off_x = static_cast<int>((grid_bits & 0xffffffffULL) % static_cast<std::uint64_t>(tile));
    const int off_y = static_cast<int>((grid_bits >> 32) % static_cast<std::uint64_t>(tile));
    const int tiles_x = (w - 1 + off_x) / tile + 1, tiles_y = (ht - 1 + off_y) / tile + 1;
    const auto tile_count = static_cast<std::size_t>(tiles_x) * static_cast<std::size_t>(tiles_y);

    // Group droplets by tile (a stable counting sort: index order within a tile).
    tile_begin.assign(tile_count + 1, 0);
    tile_of.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
      const int tx = (static_cast<int>(starts[k].x) + off_x) / tile;
      const int ty = (static_cast<int>(starts[k].y) + off_y) / tile;
      tile_of[k] = ty * tiles_x + tx;
      ++tile_begin[static_cast<std::size_t>(tile_of[k]) + 1];
    }
    for (std::size_t t = 0; t < tile_count; ++t) tile_begin[t + 1] += tile_begin[t];
    by_tile.resize(n);
    {
      std::vector<std::size_t>& cursor = tile_begin;  // advanced while filling, then restored
      for (std::size_t k = 0; k < n; ++k) by_tile[cursor[static_cast<std::size_t>(tile_of[k])]++] = starts[k];
      for (std::size_t t = tile_count; t > 0; --t) cursor[t] = cursor[t - 1];
      cursor[0] = 0;
    }
    for (auto& list : colour_tiles) list.clear();
    for (int ty = 0; ty < tiles_y; ++ty)
      for (int tx = 0; tx < tiles_x; ++tx) colour_tiles[(tx & 1) + 2 * (ty & 1)].push_back(ty * tiles_x + tx);
    tile_totals.assign(tile_count, droplet_totals{});

    // Rounds of a few droplets run serially: waking threads costs more than
    // it saves. (The result is the same either way.)
    const int phase_threads = n < k_min_parallel_round ? 1 : ctx.nthreads;
    for (int colour = 0; colour < 4; ++colour) {
      // One worker per thread, each running k_lanes tiles at a time and
      // taking the next tile from the shared queue when a lane is free,
      // largest tiles first so that the phase ends evenly.
      work.clear();
      for (int t : colour_tiles[colour]) {
        const auto k = static_cast<std::size_t>(t);
        work.push_back(tile_work{by_tile.data() + tile_begin[k], by_tile.data() + tile_begin[k + 1], &tile_totals[k]});
      }
      std::stable_sort(work.begin(), work.end(),
                       [](const tile_work& a, const tile_work& b) { return (a.end - a.begin) > (b.end - b.begin); });
      tile_queue queue;
      queue.tiles = work.data();
      queue.count = static_cast<int>(work.size());
      queue.stop = &ctx.stop_requested;
      const int workers = phase_threads == 1 ? 1 : threads;
      parallel_items(workers, phase_threads, [&](int) { run_tiles_any(f, c, brush, queue); });
      ctx.progress((static_cast<double>(round) + (colour + 1) / 4.0) / static_cast<double>(rounds));
    }
    for (const auto& t : tile_totals) totals.add(t);
  }
  return to_result(totals);
}

namespace {

// The sediment budget in m^3 (height units x height_scale x cell area), for
// the manifest: eroded = deposited + outflow + undeposited.
void report_budget(const hydraulic_erosion_result& r, const heightfield& h, const stage_context& ctx) {
  const double cell = h.placement().cell_size;
  const double m3 = ctx.height_scale * cell * cell;
  ctx.report("droplets", static_cast<double>(r.droplets));
  ctx.report("eroded_m3", r.eroded * m3);
  ctx.report("deposited_m3", r.deposited * m3);
  ctx.report("outflow_m3", r.sediment_outflow * m3);
  ctx.report("undeposited_m3", (r.sediment_lost - r.sediment_outflow) * m3);
}

}  // namespace

stage_info hydraulic_erosion_stage_info() {
  stage_info info = make_stage_info<hydraulic_erosion_params>(
      "hydraulic_erosion", stage_category::filter, stage_scope::world,
      "droplet erosion: simulated rain carves gullies and deposits sediment in valleys (Beyer 2015)",
      "The particle model of H. T. Beyer, \"Implementation of a method for hydraulic erosion\" (2015): each "
      "droplet follows the bilinear gradient with inertia, erodes over a disc while under its sediment "
      "capacity (slope x speed x water) and deposits when over it or moving uphill; water evaporates each "
      "step. Droplets start at points hashed from the seed and run in tile rounds with a 2 x 2 colouring, so "
      "results are bit-identical for every thread count. A dying droplet lays its remaining sediment where "
      "it stops; only a droplet leaving the map carries sediment away. No cut goes below the height the "
      "droplet moves to and no deposit above the droplet or a cell's neighbours, so heights stay within "
      "the range the stage started from for any parameters, and the map's edge erodes like the rest. Needs "
      "the whole world: a region build computes the world and crops it.",
      +[](heightfield& h, const hydraulic_erosion_params& p, const stage_context& ctx) -> layer_set {
        // The per-cell amounts are side layers that presets can write as
        // outputs; recording them about doubles the stage's time at 1024^2, so they are only computed
        // when the pipeline keeps one of them.
        layer_set side;
        const bool keep_maps = ctx.wants("erosion") || ctx.wants("deposition") || ctx.wants("droplet_flow");
        hydraulic_erosion_maps maps;
        report_budget(apply_hydraulic_erosion(h, p, ctx, keep_maps ? &maps : nullptr), h, ctx);
        if (!keep_maps) return side;
        if (ctx.wants("erosion")) side.put("erosion", std::move(maps.erosion));
        if (ctx.wants("deposition")) side.put("deposition", std::move(maps.deposition));
        if (ctx.wants("droplet_flow")) side.put("droplet_flow", std::move(maps.flow));
        return side;
      });
  // Side layers, writable as outputs: {"map": "erosion", "format": "png8"};
  // two hydraulic stages add up.
  info.writes = {"erosion", "deposition", "droplet_flow"};
  info.accumulates = info.writes;
  set_cost<hydraulic_erosion_params>(info, [](const hydraulic_erosion_params& p, double cells) {
    // Every droplet step erodes over the brush disc.
    const double brush = (2.0 * p.erosion_radius + 1.0) * (2.0 * p.erosion_radius + 1.0);
    return static_cast<double>(p.total_droplets(static_cast<std::size_t>(cells))) * p.max_lifetime * (brush + 20.0) *
           1.5;
  });
  info.halo_rule = "whole world (a droplet travels without bound)";
  info.sea_level_param = sea_level_when("base_level", "sea");
  return info;
}

}  // namespace landform
