#include "priority_flood.hpp"

#include <algorithm>
#include <vector>

namespace landform::detail {

namespace {

// The whole grid, closed flags one bit per cell: the flood visits cells in
// height order, i.e. all over the map, and one bit of state per cell keeps a
// step on few cache lines.
struct grid_cells {
  std::vector<std::uint64_t> bits;

  [[nodiscard]] static bool reaches(std::uint32_t /*c*/, std::uint32_t /*m*/) { return true; }
  [[nodiscard]] bool closed(std::size_t c) const { return (bits[c >> 6] >> (c & 63) & 1) != 0; }
  bool close(std::size_t c) {
    std::uint64_t& word = bits[c >> 6];
    const std::uint64_t bit = std::uint64_t{1} << (c & 63);
    const bool was = (word & bit) != 0;
    word |= bit;
    return !was;
  }
  void prefetch(std::size_t c) const { __builtin_prefetch(&bits[c >> 6]); }
};

}  // namespace

std::size_t priority_flood_epsilon(std::vector<double>& z, int width, int height, flood_ties ties,
                                   const flood_labels& labels) {
  const std::size_t n = z.size();
  if (n == 0) return 0;
  grid_cells cells{std::vector<std::uint64_t>((n + 63) / 64, 0)};
  const auto key = [&](std::size_t c) {
    // cell_index: (float height, cell) packed, so equal heights pop by index.
    return ties == flood_ties::cell_index
               ? (static_cast<std::uint64_t>(ordered_bits(static_cast<float>(z[c]))) << 32) | c
               : ordered_bits(z[c]);
  };
  flood_queue open;
  const auto seed = [&](std::size_t c) {
    if (cells.close(c)) open.push({key(c), static_cast<std::uint32_t>(c)});
  };
  for (int x = 0; x < width; ++x) {
    seed(static_cast<std::size_t>(x));
    seed(static_cast<std::size_t>(height - 1) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x));
  }
  for (int y = 1; y < height - 1; ++y) {
    seed(static_cast<std::size_t>(y) * static_cast<std::size_t>(width));
    seed(static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(width - 1));
  }
  if (labels.spill) std::fill(labels.spill, labels.spill + n, k_no_cell);
  return flood_epsilon_loop(z, width, height, cells, key, open, labels.spill);
}

}  // namespace landform::detail
