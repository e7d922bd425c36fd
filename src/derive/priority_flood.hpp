#pragma once
// Internal: the one Priority-Flood of landform (Barnes, Lehman and Mulla 2014,
// "Priority-Flood: An optimal depression-filling and watershed-labeling
// algorithm for digital elevation models", Computers & Geosciences 62),
// used by derive/flow (flow and wetness outputs), derive/flow_routing
// (stream-power erosion: full fill and per-basin fill) and derive/water
// (sea, lakes, rivers).

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "landform/derive/flow.hpp"

namespace landform::detail {

/// Offsets of the 8 neighbours in the order of derive/flow.hpp (E, NE, N, ...).
inline std::array<std::ptrdiff_t, 8> neighbour_offsets(int width) {
  std::array<std::ptrdiff_t, 8> off{};
  for (std::size_t k = 0; k < 8; ++k) off[k] = k_flow_dx[k] + static_cast<std::ptrdiff_t>(k_flow_dy[k]) * width;
  return off;
}

/// Calls fn(m) for each neighbour m of cell c inside the width x height grid,
/// in neighbour-code order; `off` from neighbour_offsets(width).
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
    fn(static_cast<std::uint32_t>(static_cast<std::ptrdiff_t>(c) + off[k]));
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

/// Priority-Flood+epsilon (Barnes et al. 2014, algorithm 3 with the plain
/// queue of algorithm 2 for pit cells, and Zhou et al. 2016's tracing of
/// slope cells past the priority queue) in place on `z` (width x height,
/// row-major, finite).
///
/// - region == nullptr: the whole grid, seeded from the border cells (top and
///   bottom row interleaved by column, then the left and right columns).
/// - region != nullptr (width x height flags): only the cells flagged, seeded
///   from their unflagged neighbours in index order; those are never raised.
///
/// A cell not higher than the cell that reaches it is raised to the next
/// double above that cell's height, so afterwards every flooded cell has a
/// strictly lower neighbour on its way to a seed.
/// @return the number of cells raised
std::size_t priority_flood_epsilon(std::vector<double>& z, int width, int height, flood_ties ties,
                                   const std::uint8_t* region = nullptr, const flood_labels& labels = {});

}  // namespace landform::detail
