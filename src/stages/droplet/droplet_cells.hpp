#pragma once
// The cell updates of a droplet step: erode over the disc, deposit
// bilinearly, fill a pit, drop the last load over the disc. One droplet at a
// time, plain float; shared by the lane kernel and the scalar oracle, so
// both change the cells with the same operations. Hot: kept inline in this
// header so that the kernels inline them (always_inline where measured).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

#include "stages/droplet/droplet_model.hpp"
#include "stages/droplet/erosion_brush.hpp"

namespace landform::droplet {

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
  // What the cells gave, as (before - after): with large heights a share
  // can round away, and the droplet must carry only what the map lost.
  float8 taken8 = zero8;
  float4 taken4 = zero4;
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
      const float8 take = room < want ? room : want;
      const float8 after = cells - take;
      const float8 gave = cells - after;
      taken8 += gave;
      std::memcpy(dst + k, &after, sizeof after);
      if constexpr (k_maps) {
        float* out = f.erosion + (dst - f.height) + k;
        std::memcpy(&cells, out, sizeof cells);
        cells += gave;
        std::memcpy(out, &cells, sizeof cells);
      }
    }
    if (k < width) {
      const float4 before = load4(dst + k);
      const float4 want = a4 * load4(wt + k), excess = before - f4;
      const float4 room = excess > zero4 ? excess : zero4;
      const float4 take = room < want ? room : want;
      const float4 after = before - take;
      const float4 gave = before - after;
      store4(dst + k, after);
      taken4 += gave;
      if constexpr (k_maps) store4(f.erosion + (dst - f.height) + k, load4(f.erosion + (dst - f.height) + k) + gave);
    }
  }
  // The lanes' sum, in a fixed order whatever the CPU's vector width.
  float sum = 0.0f;
  for (int k = 0; k < 8; ++k) sum += taken8[k];
  for (int k = 0; k < 4; ++k) sum += taken4[k];
  return sum;
}

// Index i reflected into [0, n) about the map's edges (-1 -> 0, -2 -> 1,
// n -> n - 1), clamped where the disc is wider than the map.
inline int mirrored(int i, int n) {
  if (i < 0) i = -1 - i;
  if (i >= n) i = 2 * n - 1 - i;
  return std::clamp(i, 0, n - 1);
}

// Takes up to `amount` (>= 0) from the cells of the erosion disc around a
// droplet in cell (node_x, node_y) at offset (u, v) in that cell, and returns
// the amount actually taken. No cell is cut below `floor`, the height the
// droplet moves to: a cell at or below it gives nothing, one above it at most
// its excess. That is what keeps the model bounded (no cell sinks below the
// lowest ground there was, as `floor` is an interpolation of the map), and
// it stops a droplet from digging the pits it would then fall into. The
// whole map erodes, its outer ring included (a fixed ring left a frame in
// hillshades); at the map's edge the part of the disc outside the map is
// reflected back onto the cells mirrored about the edge, as the droplets of
// a mirrored continuation of the map would erode them (clipped, the outer
// row was lowered 0.94 times as much as the rows inside and stood as a
// raised rim at heavy rain; renormalised, the disc would concentrate on the
// edge and dig grooves).
template <bool k_maps>
[[gnu::always_inline]] inline cell_change apply_brush(const field_view& f, const erosion_brush& brush, int node_x,
                                                      int node_y, float u, float v, float amount, float floor) {
  const int w = f.width, ht = f.height_cells;
  const std::ptrdiff_t stride = w;
  const float* stencil = brush.stencil_at(u, v);
  const int x0 = node_x + brush.origin, y0 = node_y + brush.origin;
  // The vector path needs the disc's padded rows inside the map, and all
  // or none of them counted: only a disc across the margin's edge needs each
  // cell's share (the span path), so the margin's droplets (a sixteenth of
  // all at 2048^2) keep the vector path.
  if (x0 >= 0 && x0 + brush.width <= w && y0 >= 0 && y0 + brush.side <= ht) {
    const bool all = f.counts_all(x0, y0, x0 + brush.width, y0 + brush.side);
    if (all || f.counts_none(x0, y0, x0 + brush.width, y0 + brush.side)) {
      float* first = f.height + y0 * stride + x0;
      const float taken = brush_interior<k_maps>(f, stencil, brush.side, brush.width, first, amount, floor);
      return {taken, all ? taken : 0.0f};
    }
  }
  const brush_span* spans = brush.spans_at(u, v);
  cell_change applied;
  for (int row = 0; row < brush.side; ++row) {
    const int y = mirrored(y0 + row, ht);
    for (int col = spans[row].begin; col < spans[row].end; ++col) {
      const int x = mirrored(x0 + col, w);
      const std::ptrdiff_t c = y * stride + x;
      const float before = f.height[c];
      f.height[c] = before - std::min(amount * stencil[row * brush.width + col], std::max(0.0f, before - floor));
      applied.total += before - f.height[c];
      if (f.in_core(x, y)) applied.counted += before - f.height[c];
      if constexpr (k_maps) f.erosion[c] += before - f.height[c];
    }
  }
  if (!f.margin) applied.counted = applied.total;
  return applied;
}

// The part of the changes `added` of the 2 x 2 cells from cell (x, y)
// ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)) in the cells the budget
// counts. (From the cell's coordinates, not by dividing its index, on every
// deposit step.)
[[gnu::always_inline]] inline float counted_corners(const field_view& f, int x, int y, const float (&added)[4]) {
  if (f.counts_all(x, y, x + 2, y + 2)) return (added[0] + added[1]) + (added[2] + added[3]);
  if (f.counts_none(x, y, x + 2, y + 2)) return 0.0f;
  float counted = 0.0f;
  for (int k = 0; k < 4; ++k)
    if (f.in_core(x + (k & 1), y + (k >> 1))) counted += added[k];
  return counted;
}

// Adds up to `amount` (>= 0) bilinearly, weights from the offset (u, v), on
// the four cells from cell (x, y) (Beyer), never raising a cell above `ceiling`:
// a cell at or above it gets nothing. Returns the amount added.
template <bool k_maps>
[[gnu::always_inline]] inline cell_change deposit_bilinear(const field_view& f, int x, int y, float u, float v,
                                                           float amount, float ceiling) {
  const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(y) * f.width + x;
  const std::ptrdiff_t stride = f.width;
  amount = std::max(0.0f, amount);  // the sediment can round to a hair below 0
  const std::ptrdiff_t cells[4] = {n, n + 1, n + stride, n + stride + 1};
  const float shares[4] = {amount * (1.0f - u) * (1.0f - v), amount * u * (1.0f - v), amount * (1.0f - u) * v,
                           amount * u * v};
  float added[4];
  for (int k = 0; k < 4; ++k) {
    float& cell = f.height[cells[k]];
    const float before = cell;
    cell = before + std::min(shares[k], std::max(0.0f, ceiling - before));
    added[k] = cell - before;
    if constexpr (k_maps) f.deposition[cells[k]] += added[k];
  }
  const float total = (added[0] + added[1]) + (added[2] + added[3]);
  return {total, f.margin ? counted_corners(f, x, y, added) : total};
}

// The level `amount` (>= 0) brings the lowest of `n` cells (heights
// `sorted`, ascending) up to when poured over them like water: the first k
// cells rise to one common level, k the most cells the amount can bring up
// to the next cell's height; never above `ceiling`. The pit fill
// (deposit_settled) and a dying droplet's last load (deposit_level) both
// settle this way.
inline float water_level(const float* sorted, int n, float amount, float ceiling) {
  float level = sorted[0];
  float left = std::max(0.0f, amount);
  for (int k = 1; k <= n && left > 0.0f; ++k) {
    const float next = k < n ? std::min(sorted[k], ceiling) : ceiling;
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
  return std::min(level, ceiling);
}

// Lays up to `amount` (>= 0) on the four cells from cell (x, y) (the droplet's
// cell corners), settling it like water: the lowest corners fill first, to
// one common level, never above `ceiling`. Returns the amount laid down.
// Used for the pit fill: spreading it bilinearly (Beyer) left one corner
// lower than the others it filled, which made most single-cell pits. With
// `ceiling` an interpolation of the map, no cell rises above the highest
// ground there was.
template <bool k_maps>
[[gnu::always_inline]] inline cell_change deposit_settled(const field_view& f, int x, int y, float amount,
                                                          float ceiling) {
  const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(y) * f.width + x;
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
  const float level = water_level(sorted, 4, amount, ceiling);
  float added = 0.0f;
  float each[4];
  for (int k = 0; k < 4; ++k) {
    const std::ptrdiff_t c = cells[k];
    const float before = f.height[c];
    f.height[c] = before + std::max(0.0f, level - before);
    each[k] = f.height[c] - before;
    added += each[k];
    if constexpr (k_maps) f.deposition[c] += each[k];
  }
  return {added, f.margin ? counted_corners(f, x, y, each) : added};
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
inline cell_change deposit_disc(const field_view& f, const erosion_brush& brush, int node_x, int node_y, float u,
                                float v, float amount) {
  const int w = f.width, ht = f.height_cells;
  const std::ptrdiff_t stride = w;
  const float* stencil = brush.stencil_at(u, v);
  // Only the disc's positive weights: a zero-weight cell gets nothing and
  // does not count for the ceiling, so skipping it changes no bit.
  const brush_span* spans = brush.spans_at(u, v);
  const int x0 = node_x + brush.origin, y0 = node_y + brush.origin;
  const int row0 = std::max(0, -y0), row1 = std::min(brush.side, ht - y0);
  const int col0 = std::max(0, -x0), col1 = std::min(brush.side, w - x0);
  const bool inside = x0 >= 1 && x0 + brush.side < w && y0 >= 1 && y0 + brush.side < ht;  // and every neighbour
  float ceiling = -std::numeric_limits<float>::infinity();
  for (int row = row0; row < row1; ++row) {
    const float* cells = f.height + (y0 + row) * stride + x0;
    for (int col = std::max(col0, spans[row].begin); col < std::min(col1, spans[row].end); ++col)
      ceiling = std::max(ceiling, cells[col]);
  }
  cell_change added;
  for (int row = row0; row < row1; ++row) {
    for (int col = std::max(col0, spans[row].begin); col < std::min(col1, spans[row].end); ++col) {
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
      const float before = cell;
      cell = before + a;
      added.total += cell - before;
      if (f.margin && f.in_core(cx, cy)) added.counted += cell - before;
      if constexpr (k_maps) f.deposition[cy * stride + cx] += cell - before;
    }
  }
  if (!f.margin) added.counted = added.total;
  return added;
}

// Lays `amount` (>= 0) on the 4 x 4 cells around a droplet in cell (node_x,
// node_y) (its cell's corners and their ring, clipped to the erosion disc's
// rows and columns, so the droplet's reach stays the disc's, and to the map),
// settling it like water: the lowest cells fill first, to one common level,
// at most the highest cell the map started from (so heights stay in their
// starting range, as the other bounds keep them). This takes what deposit_disc's bounds refused (about
// 1.5 % of the eroded material, mostly where a droplet dies in a pit whose
// disc already stands at its ceiling), so material leaves the map only across
// its edge. A level over several cells is no single-cell spike: a raised
// cell's neighbours in the block stand at or above it. (Over the 2 x 2
// corners alone, heavy rain left more single-cell knobs; over wider blocks,
// no fewer, at up to 3x the cost.) Returns the amount laid down (`amount` up
// to float rounding).
template <bool k_maps>
inline cell_change deposit_level(const field_view& f, const erosion_brush& brush, int node_x, int node_y,
                                 float amount) {
  constexpr int k_side = 4, k_cells = k_side * k_side;
  float* cells[k_cells];
  float heights[k_cells];
  bool counts[k_cells];
  int n = 0;
  const int lo = std::max(-1, brush.origin), hi = std::min(2, brush.origin + brush.side - 1);
  for (int y = std::max(0, node_y + lo); y <= std::min(f.height_cells - 1, node_y + hi); ++y)
    for (int x = std::max(0, node_x + lo); x <= std::min(f.width - 1, node_x + hi); ++x) {
      cells[n] = f.height + static_cast<std::ptrdiff_t>(y) * f.width + x;
      heights[n] = *cells[n];
      counts[n] = !f.margin || f.in_core(x, y);
      ++n;
    }
  // Sorted by rank counting: branch-free, where std::sort's branches
  // mispredicted on most calls (equal heights ordered by index).
  float sorted[k_cells] = {};  // (only the first n are read; zeroed for -O1 -Wmaybe-uninitialized)
  for (int i = 0; i < n; ++i) {
    int rank = 0;
    for (int j = 0; j < n; ++j)
      rank += static_cast<int>(heights[j] < heights[i]) | static_cast<int>(heights[j] == heights[i] && j < i);
    sorted[rank] = heights[i];
  }
  const float level = water_level(sorted, n, amount, f.top);
  cell_change added;
  for (int i = 0; i < n; ++i) {
    *cells[i] = heights[i] + std::max(0.0f, level - heights[i]);
    added.total += *cells[i] - heights[i];
    if (counts[i]) added.counted += *cells[i] - heights[i];
    if constexpr (k_maps) f.deposition[cells[i] - f.height] += *cells[i] - heights[i];
  }
  return added;
}

// Where and how a droplet ended.
struct droplet_end {
  int node_x = 0, node_y = 0;  // its cell
  float u = 0.0f, v = 0.0f;    // its offset in that cell, each in [0, 1)
  float sediment = 0.0f;       // what it still carries
  bool left = false;           // it left the map (or reached the sea)
  int life = 0;                // steps it moved
};

// A droplet's end: unless it left the map, it lays down the sediment it
// still carries where it stands; then its eroded and deposited amounts (in
// double, summed over its steps) go into `t`.
template <bool k_maps>
inline void end_droplet(const field_view& f, const erosion_brush& brush, droplet_end end, double eroded,
                        double deposited, droplet_totals& t) {
  if (!end.left && end.sediment > 0.0f) {
    const cell_change added = deposit_disc<k_maps>(f, brush, end.node_x, end.node_y, end.u, end.v, end.sediment);
    end.sediment -= added.total;
    if (end.sediment > 0.0f) {
      const cell_change settled = deposit_level<k_maps>(f, brush, end.node_x, end.node_y, end.sediment);
      end.sediment = std::max(0.0f, end.sediment - settled.total);
      deposited += static_cast<double>(added.counted) + static_cast<double>(settled.counted);
    } else {
      deposited += static_cast<double>(added.counted);
    }
  }
  t.end_droplet(eroded, deposited, end.sediment, end.left, end.life);
}

}  // namespace landform::droplet
