#pragma once
// Internal: the one Priority-Flood of landform (Barnes, Lehman and Mulla 2014,
// "Priority-Flood: An optimal depression-filling and watershed-labeling
// algorithm for digital elevation models", Computers & Geosciences 62),
// used by derive/flow (flow and wetness outputs), derive/flow_routing
// (stream-power erosion: full fill and per-basin fill) and derive/water
// (sea, lakes, rivers).

#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "landform/derive/flow.hpp"
#include "radix_heap.hpp"

namespace landform::detail {

/// std::nextafter(x, +infinity) for a finite or infinite x, inlined: the
/// next double up (-0 and +0 go to the smallest subnormal). The library call
/// was 1.6 % of a 4096^2 D8 routing, one call per flooded node.
inline double next_up(double x) {
  if (x == 0.0) return std::numeric_limits<double>::denorm_min();
  if (x == std::numeric_limits<double>::infinity()) return x;
  const auto bits = std::bit_cast<std::uint64_t>(x);
  return std::bit_cast<double>(x > 0.0 ? bits + 1 : bits - 1);
}

/// Offsets of the 8 neighbours in the order of derive/flow.hpp (E, NE, N, ...).
inline std::array<std::ptrdiff_t, 8> neighbour_offsets(int width) {
  std::array<std::ptrdiff_t, 8> off{};
  for (std::size_t k = 0; k < 8; ++k) off[k] = k_flow_dx[k] + static_cast<std::ptrdiff_t>(k_flow_dy[k]) * width;
  return off;
}

/// Calls fn(m) for each neighbour m of cell c inside the width x height grid,
/// in neighbour-code order, or fn(m, k) with k its neighbour code when fn
/// takes two arguments; `off` from neighbour_offsets(width).
template <class Fn>
void for_each_neighbour(std::uint32_t c, int width, int height, const std::array<std::ptrdiff_t, 8>& off, Fn&& fn) {
  const int x = static_cast<int>(c % static_cast<std::uint32_t>(width));
  const int y = static_cast<int>(c / static_cast<std::uint32_t>(width));
  const bool inner = x > 0 && y > 0 && x < width - 1 && y < height - 1;
  for (std::size_t k = 0; k < 8; ++k) {
    if (!inner) {
      const int nx = x + k_flow_dx[k], ny = y + k_flow_dy[k];
      if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
    }
    const auto m = static_cast<std::uint32_t>(static_cast<std::ptrdiff_t>(c) + off[k]);
    if constexpr (std::is_invocable_v<Fn&, std::uint32_t, std::size_t>) {
      fn(m, k);
    } else {
      fn(m);
    }
  }
}

/// How cells of equal height leave the priority queue. Both are
/// deterministic; they differ only in the epsilon gradients on flats.
enum class flood_ties {
  last_in_first_out,  ///< equal heights pop last-in first-out (the radix heap's order)
  cell_index,         ///< equal heights pop by ascending cell index; the heights must be float values
};

/// No cell (for flood_labels::spill of a cell that was not raised).
inline constexpr std::uint32_t k_no_cell = 0xffffffffu;

/// What a flood may record besides the filled heights.
struct flood_labels {
  /// Filled per cell when non-null (width x height): for a raised cell, the
  /// unraised cell whose level it took, i.e. the spill cell (outlet) of the
  /// depression it lies in (Barnes et al. 2014, section 2.5); k_no_cell for
  /// a cell that was not raised.
  std::uint32_t* spill = nullptr;
};

// A double's bits as an unsigned integer with the same order.
inline std::uint64_t ordered_bits(double v) {
  const auto bits = std::bit_cast<std::uint64_t>(v);
  return (bits & 0x8000000000000000ull) ? ~bits : (bits | 0x8000000000000000ull);
}

// A float's bits as an unsigned integer with the same order.
inline std::uint32_t ordered_bits(float v) {
  const auto bits = std::bit_cast<std::uint32_t>(v);
  return (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
}

/// An entry of the flood's priority queue: a cell and its key (its height's
/// ordered bits, or height and index for flood_ties::cell_index).
struct flood_item {
  std::uint64_t key;
  std::uint32_t node;
};
struct flood_key {
  std::uint64_t operator()(const flood_item& item) const { return item.key; }
};
using flood_queue = radix_heap<flood_item, flood_key>;

/// The loop of Priority-Flood+epsilon (Barnes et al. 2014, algorithm 3 with
/// the plain queue of algorithm 2 for pit cells, and Zhou et al. 2016's
/// tracing of slope cells past the priority queue), run from the seeds
/// already in `open` until it is empty. Shared by the whole-grid flood
/// (priority_flood_epsilon()) and the lakes' flood of flow_routing
/// (flood_lakes(), one region of lakes per queue).
///
/// `Cells` says which cells the flood may reach and keeps their closed flags:
/// - `bool reaches(c, m)`: whether popping cell c may process its neighbour m
///   (a cell of the flooded set; never a seed of another set);
/// - `bool closed(m)`, `bool close(m)` (true when m was open) for such m;
/// - `void prefetch(c)`: the state of c's rows, fetched ahead.
/// `key(c)` is cell c's queue key; `spill` as flood_labels::spill, or null.
/// @return the number of cells raised
template <class Cells, class Key>
std::size_t flood_epsilon_loop(std::vector<double>& z, int width, int height, Cells& cells, const Key& key,
                               flood_queue& open, std::uint32_t* spill) {
  const auto off = neighbour_offsets(width);
  const auto for_neighbours = [&](std::uint32_t c, auto&& fn) { for_each_neighbour(c, width, height, off, fn); };
  std::vector<std::uint32_t> pit;  // FIFO of raised cells, processed before `open`
  std::size_t pit_head = 0, raised_count = 0;
  // Slope tracing (Zhou, Sun and Fu 2016, "An efficient variant of the
  // Priority-Flood algorithm", Computers & Geosciences 90): a cell reached
  // from below keeps its own height whenever it is processed, and so do its
  // higher neighbours. Such a cell goes through the priority queue only when
  // it has a lower unreached neighbour (which it may have to raise, so it
  // must wait for its turn); otherwise it closes its neighbours at once and
  // they are traced in turn. Most cells of a landscape lie on slopes, and a
  // stack push costs far less than a queue push and pop.
  std::vector<std::uint32_t> slope;
  const auto trace_slopes = [&] {
    while (!slope.empty()) {
      const std::uint32_t t = slope.back();
      slope.pop_back();
      const double zt = z[t];
      bool lower = false;
      for_neighbours(
          t, [&](std::uint32_t m) { lower = lower || (cells.reaches(t, m) && !cells.closed(m) && z[m] <= zt); });
      if (lower) {
        open.push({key(t), t});
        continue;
      }
      for_neighbours(t, [&](std::uint32_t m) {
        if (cells.reaches(t, m) && cells.close(m)) slope.push_back(m);
      });
    }
  };
  // A cell popped from the queue lies anywhere on the map, and loading its
  // row and its neighbours' rows was half the flood's time: the next cell's
  // three rows are fetched while the current cell is processed.
  const std::size_t n = z.size();
  const auto prefetch_rows = [&](std::uint32_t c) {
    const auto w = static_cast<std::size_t>(width);
    for (const std::size_t row : {c >= w ? c - w : c, std::size_t{c}, c + w < n ? c + w : c}) {
      __builtin_prefetch(&z[row]);
      cells.prefetch(row);
    }
  };
  while (!open.empty() || pit_head < pit.size()) {
    std::uint32_t c = 0;
    if (pit_head < pit.size()) {
      c = pit[pit_head];
      if (++pit_head == pit.size()) {
        pit.clear();
        pit_head = 0;
      }
    } else {
      c = open.pop().node;
      if (const flood_item* next = open.next_without_redistribution()) prefetch_rows(next->node);
    }
    const double zc = z[c];
    const double raised = next_up(zc);
    const std::uint32_t spill_of_c = spill && spill[c] != k_no_cell ? spill[c] : c;
    for_neighbours(c, [&](std::uint32_t m) {
      if (!cells.reaches(c, m) || !cells.close(m)) return;
      // Not yet reached, so still the original height.
      if (z[m] <= zc) {
        z[m] = raised;
        ++raised_count;
        if (spill) spill[m] = spill_of_c;
        pit.push_back(m);
      } else {
        slope.push_back(m);
      }
    });
    trace_slopes();
  }
  return raised_count;
}

/// Priority-Flood+epsilon (Barnes et al. 2014, algorithm 3 with the plain
/// queue of algorithm 2 for pit cells, and Zhou et al. 2016's tracing of
/// slope cells past the priority queue) in place on `z` (width x height,
/// row-major, finite), seeded from the border cells (top and bottom row
/// interleaved by column, then the left and right columns).
///
/// A cell not higher than the cell that reaches it is raised to the next
/// double above that cell's height, so afterwards every cell has a strictly
/// lower neighbour on its way to the border.
/// @return the number of cells raised
std::size_t priority_flood_epsilon(std::vector<double>& z, int width, int height, flood_ties ties,
                                   const flood_labels& labels = {});

}  // namespace landform::detail
