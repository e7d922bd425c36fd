#include "lake_flood.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "landform/core/parallel.hpp"
#include "priority_flood.hpp"
#include "row_bands.hpp"

namespace landform::detail {

namespace {

constexpr std::uint8_t k_no_shard = 0xff;

// The cells one shard may flood: flagged cells whose basin is dealt to the
// shard. The region flag doubles as the closed flag (2), so a shard writes
// only bytes of its own cells: from a flagged cell every flagged neighbour is
// in the same group, and from a seed the shard is checked before the flag is
// read.
struct lake_cells {
  std::uint8_t* region;
  const std::uint32_t* basin;
  const std::uint8_t* shard_of_basin;
  std::uint8_t shard;

  [[nodiscard]] bool reaches(std::uint32_t c, std::uint32_t m) const {
    if (region[c] != 0) return region[m] != 0;
    return shard_of_basin[basin[m]] == shard && region[m] != 0;
  }
  [[nodiscard]] bool closed(std::uint32_t m) const { return region[m] == 2; }
  bool close(std::uint32_t m) {
    if (region[m] == 2) return false;
    region[m] = 2;
    return true;
  }
  void prefetch(std::size_t c) const { __builtin_prefetch(&region[c]); }
};

// Pairs of basins whose flagged cells touch, found in rows of `rows` (each
// cell pair once: the neighbours after a cell in index order). A boundary
// repeats its pair along its length: a small table of recent pairs drops most
// repeats.
void touching_basins(const std::uint8_t* region, const std::vector<std::uint32_t>& basin, int width, int height,
                     row_band rows, std::vector<std::pair<std::uint32_t, std::uint32_t>>& out) {
  constexpr std::size_t k_slots = 1024;
  std::array<std::uint64_t, k_slots> recent{};
  const auto w = static_cast<std::size_t>(width);
  const auto n = static_cast<std::size_t>(height) * w;
  for (std::size_t c = rows.begin; c < rows.end; ++c) {
    if (region[c] == 0) continue;
    const std::size_t x = c % w;
    const auto visit = [&](std::size_t m) {
      if (region[m] == 0 || basin[m] == basin[c]) return;
      const std::uint32_t lo = std::min(basin[c], basin[m]), hi = std::max(basin[c], basin[m]);
      const std::uint64_t key = (std::uint64_t{lo} << 32 | hi) + 1;
      std::uint64_t& slot = recent[(key * 0x9e3779b97f4a7c15ull) >> 54];
      if (slot == key) return;
      slot = key;
      out.emplace_back(lo, hi);
    };
    if (x + 1 < w) visit(c + 1);
    if (c + w >= n) continue;
    if (x > 0) visit(c + w - 1);
    visit(c + w);
    if (x + 1 < w) visit(c + w + 1);
  }
}

// Each basin's shard: basins joined by `pairs` form groups (union-find, the
// smallest basin of a group its root), and group g goes to shard g mod
// `shards`.
std::vector<std::uint8_t> deal_shards(const std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>>& pairs,
                                      std::uint32_t basins, int shards) {
  std::vector<std::uint32_t> parent(static_cast<std::size_t>(basins) + 1);
  std::iota(parent.begin(), parent.end(), 0u);
  const auto find = [&parent](std::uint32_t b) {
    while (parent[b] != b) b = parent[b] = parent[parent[b]];
    return b;
  };
  for (const auto& band : pairs) {
    for (const auto& [a, b] : band) {
      const std::uint32_t ra = find(a), rb = find(b);
      if (ra < rb)
        parent[rb] = ra;
      else
        parent[ra] = rb;
    }
  }
  std::vector<std::uint8_t> shard(parent.size(), k_no_shard);
  for (std::uint32_t b = 1; b <= basins; ++b)
    shard[b] = static_cast<std::uint8_t>(find(b) % static_cast<std::uint32_t>(shards));
  return shard;
}

using shard_seeds = std::vector<std::vector<std::uint32_t>>;  // per shard

// The seeds met in rows of `rows`, per shard, in the order of a scan of the
// whole grid: unflagged neighbours of flagged cells, each at the first
// flagged cell (in index order) next to it, added to the shard of every
// flagged neighbour.
void collect_seeds(const std::uint8_t* region, const std::vector<std::uint32_t>& basin,
                   const std::vector<std::uint8_t>& shard_of_basin, int width, int height, row_band rows,
                   shard_seeds& out) {
  const auto off = neighbour_offsets(width);
  for (std::size_t c = rows.begin; c < rows.end; ++c) {
    if (region[c] == 0) continue;
    for_each_neighbour(static_cast<std::uint32_t>(c), width, height, off, [&](std::uint32_t m) {
      if (region[m] != 0) return;
      // The first flagged neighbour of m in index order is c, or m was met
      // before (most shore cells touch several lake cells: the shards are
      // gathered at the first only).
      bool first = true;
      for_each_neighbour(m, width, height, off, [&](std::uint32_t k) { first = first && (k >= c || region[k] == 0); });
      if (!first) return;
      std::array<std::uint8_t, 8> shards{};
      std::size_t count = 0;
      for_each_neighbour(m, width, height, off, [&](std::uint32_t k) {
        if (region[k] == 0) return;
        const std::uint8_t s = shard_of_basin[basin[k]];
        if (std::find(shards.begin(), shards.begin() + static_cast<std::ptrdiff_t>(count), s) ==
            shards.begin() + static_cast<std::ptrdiff_t>(count))
          shards[count++] = s;
      });
      for (std::size_t k = 0; k < count; ++k) out[shards[k]].push_back(m);
    });
  }
}

}  // namespace

std::size_t flood_lakes(std::vector<double>& z, int width, int height, std::uint8_t* region,
                        const std::vector<std::uint32_t>& basin, std::uint32_t basins, int nthreads, int shards) {
  if (shards < 1 || shards > 255) throw std::invalid_argument("flood_lakes: shards must be 1 .. 255");
  const auto count = static_cast<std::size_t>(shards);
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> pairs(k_bands);
  parallel_tasks(k_bands, nthreads, [&](int band) {
    touching_basins(region, basin, width, height, band_nodes(width, height, band),
                    pairs[static_cast<std::size_t>(band)]);
  });
  const std::vector<std::uint8_t> shard_of_basin = deal_shards(pairs, basins, shards);
  std::vector<shard_seeds> seeds(k_bands, shard_seeds(count));
  parallel_tasks(k_bands, nthreads, [&](int band) {
    collect_seeds(region, basin, shard_of_basin, width, height, band_nodes(width, height, band),
                  seeds[static_cast<std::size_t>(band)]);
  });
  // The shards with the most seeds (the longest shores) start first, so the
  // largest lakes do not run alone at the end.
  std::vector<std::size_t> size(count, 0);
  for (const shard_seeds& band : seeds)
    for (std::size_t s = 0; s < count; ++s) size[s] += band[s].size();
  std::vector<std::uint8_t> order(count);
  std::iota(order.begin(), order.end(), std::uint8_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::uint8_t a, std::uint8_t b) { return size[a] > size[b]; });
  std::vector<std::size_t> raised(count, 0);
  parallel_tasks(shards, nthreads, [&](int k) {
    const std::uint8_t shard = order[static_cast<std::size_t>(k)];
    if (size[shard] == 0) return;
    flood_queue open;
    for (const shard_seeds& band : seeds)
      for (const std::uint32_t m : band[shard]) open.push({ordered_bits(z[m]), m});
    lake_cells cells{region, basin.data(), shard_of_basin.data(), shard};
    raised[shard] = flood_epsilon_loop(
        z, width, height, cells, [&z](std::uint32_t c) { return ordered_bits(z[c]); }, open, nullptr);
  });
  return std::accumulate(raised.begin(), raised.end(), std::size_t{0});
}

}  // namespace landform::detail
