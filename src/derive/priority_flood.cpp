#include "priority_flood.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>

#include "radix_heap.hpp"

namespace landform::detail {

namespace {

// A double's bits as an unsigned integer with the same order.
std::uint64_t ordered_bits(double v) {
  const auto bits = std::bit_cast<std::uint64_t>(v);
  return (bits & 0x8000000000000000ull) ? ~bits : (bits | 0x8000000000000000ull);
}

// A float's bits as an unsigned integer with the same order.
std::uint32_t ordered_bits(float v) {
  const auto bits = std::bit_cast<std::uint32_t>(v);
  return (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
}

struct flood_item {
  std::uint64_t key;
  std::uint32_t node;
};
struct flood_key {
  std::uint64_t operator()(const flood_item& item) const { return item.key; }
};

}  // namespace

std::size_t priority_flood_epsilon(std::vector<double>& z, int width, int height, flood_ties ties,
                                   const std::uint8_t* region, const flood_labels& labels) {
  const std::size_t n = z.size();
  if (n == 0) return 0;
  const auto off = neighbour_offsets(width);
  // The flood visits cells in height order, i.e. all over the map: one bit of
  // state per cell keeps a step on few cache lines.
  std::vector<std::uint64_t> closed((n + 63) / 64, 0);
  const auto is_closed = [&closed](std::size_t c) { return (closed[c >> 6] >> (c & 63) & 1) != 0; };
  const auto close = [&closed](std::size_t c) {
    std::uint64_t& word = closed[c >> 6];
    const std::uint64_t bit = std::uint64_t{1} << (c & 63);
    const bool was = (word & bit) != 0;
    word |= bit;
    return !was;
  };
  const auto key = [&](std::size_t c) {
    // cell_index: (float height, cell) packed, so equal heights pop by index.
    return ties == flood_ties::cell_index
               ? (static_cast<std::uint64_t>(ordered_bits(static_cast<float>(z[c]))) << 32) | c
               : ordered_bits(z[c]);
  };
  const auto for_neighbours = [&](std::uint32_t c, auto&& fn) { for_each_neighbour(c, width, height, off, fn); };
  radix_heap<flood_item, flood_key> open;
  const auto seed = [&](std::size_t c) {
    if (close(c)) open.push({key(c), static_cast<std::uint32_t>(c)});
  };
  if (region == nullptr) {
    for (int x = 0; x < width; ++x) {
      seed(static_cast<std::size_t>(x));
      seed(static_cast<std::size_t>(height - 1) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x));
    }
    for (int y = 1; y < height - 1; ++y) {
      seed(static_cast<std::size_t>(y) * static_cast<std::size_t>(width));
      seed(static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(width - 1));
    }
  } else {
    for (std::uint32_t c = 0; c < n; ++c) {
      if (!region[c]) continue;
      for_neighbours(c, [&](std::uint32_t m) {
        if (!region[m]) seed(m);
      });
    }
  }
  if (labels.spill) std::fill(labels.spill, labels.spill + n, k_no_cell);
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
  const auto in_region = [region](std::uint32_t m) { return region == nullptr || region[m] != 0; };
  const auto trace_slopes = [&] {
    while (!slope.empty()) {
      const std::uint32_t t = slope.back();
      slope.pop_back();
      const double zt = z[t];
      bool lower = false;
      for_neighbours(t, [&](std::uint32_t m) { lower = lower || (in_region(m) && !is_closed(m) && z[m] <= zt); });
      if (lower) {
        open.push({key(t), t});
        continue;
      }
      for_neighbours(t, [&](std::uint32_t m) {
        if (in_region(m) && close(m)) slope.push_back(m);
      });
    }
  };
  // A cell popped from the queue lies anywhere on the map, and loading its
  // row and its neighbours' rows was half the flood's time: the next cell's
  // three rows are fetched while the current cell is processed.
  const auto prefetch_rows = [&z, &closed, width, n](std::uint32_t c) {
    const auto w = static_cast<std::size_t>(width);
    for (const std::size_t row : {c >= w ? c - w : c, std::size_t{c}, c + w < n ? c + w : c}) {
      __builtin_prefetch(&z[row]);
      __builtin_prefetch(&closed[row >> 6]);
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
    const double raised = std::nextafter(zc, std::numeric_limits<double>::infinity());
    const std::uint32_t spill = labels.spill && labels.spill[c] != k_no_cell ? labels.spill[c] : c;
    for_neighbours(c, [&](std::uint32_t m) {
      if (!in_region(m) || !close(m)) return;
      // Not yet reached, so still the original height.
      if (z[m] <= zc) {
        z[m] = raised;
        ++raised_count;
        if (labels.spill) labels.spill[m] = spill;
        pit.push_back(m);
      } else {
        slope.push_back(m);
      }
    });
    trace_slopes();
  }
  return raised_count;
}

}  // namespace landform::detail
