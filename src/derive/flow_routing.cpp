#include "landform/derive/flow_routing.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <numeric>
#include <queue>
#include <stdexcept>
#include <string>

#include "core/huge_pages.hpp"
#include "lake_flood.hpp"
#include "landform/core/parallel.hpp"
#include "landform/derive/flow.hpp"
#include "priority_flood.hpp"
#include "row_bands.hpp"

namespace landform {

namespace {

void check_grid(std::size_t n, int width, int height, const char* what) {
  if (width < 1 || height < 1 || n != static_cast<std::size_t>(width) * static_cast<std::size_t>(height)) {
    throw std::invalid_argument(std::string(what) + ": " + std::to_string(n) + " values for a " +
                                std::to_string(width) + " x " + std::to_string(height) + " grid");
  }
}

void check_cell_size(double cell_size, const char* what) {
  if (!(cell_size > 0.0) || !std::isfinite(cell_size)) {
    throw std::invalid_argument(std::string(what) + ": cell_size " + std::to_string(cell_size) + ", must be > 0");
  }
}

std::array<std::ptrdiff_t, 8> neighbour_offsets(int width) {
  return detail::neighbour_offsets(width);
}

using detail::band_nodes;
using detail::k_bands;
using detail::row_band;

// Throws for the first non-finite height in index order (bands of rows in
// parallel).
void check_finite(const std::vector<double>& z, int width, int height, int nthreads, const char* what) {
  constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
  std::array<std::size_t, k_bands> first_bad{};
  parallel_tasks(k_bands, nthreads, [&](int band) {
    const row_band rows = band_nodes(width, height, band);
    std::size_t bad = none;
    for (std::size_t c = rows.begin; c < rows.end && bad == none; ++c) bad = std::isfinite(z[c]) ? none : c;
    first_bad[static_cast<std::size_t>(band)] = bad;
  });
  const std::size_t k = *std::min_element(first_bad.begin(), first_bad.end());
  if (k == none) return;
  const auto w = static_cast<std::size_t>(width);
  throw std::invalid_argument(std::string(what) + ": height at node (" + std::to_string(k % w) + ", " +
                              std::to_string(k / w) + ") is not finite");
}

}  // namespace

std::size_t priority_flood_fill(std::vector<double>& z, int width, int height) {
  check_grid(z.size(), width, height, "priority_flood_fill");
  check_finite(z, width, height, 1, "priority_flood_fill");
  const std::size_t raised = detail::priority_flood_epsilon(z, width, height, detail::flood_ties::last_in_first_out);
  // A node raised one ulp above the largest double became infinity: no
  // longer a height to hand back.
  if (raised > 0)
    check_finite(z, width, height, 1, "priority_flood_fill: filling the depressions overflowed the largest double");
  return raised;
}

namespace {

// The D8 receiver of one node (see compute_receivers_d8()): a function of
// the node's and its neighbours' heights only.
struct d8_kernel {
  const std::vector<double>& z;
  int width, height;
  std::array<std::ptrdiff_t, 8> off;
  double inv_sqrt2;
  const std::uint8_t* outlets;

  // The steepest strictly downhill neighbour of interior node c (the first
  // on a tie), or c. Compare and select instead of a branch per neighbour:
  // which neighbour is steeper is a coin toss on rough ground, and the
  // mispredicted branches cost more than the arithmetic (4096^2: 2x).
  [[nodiscard]] std::uint32_t steepest(std::size_t c) const {
    const double zc = z[c];
    double best = 0.0;  // drop per cell length; only strictly downhill wins
    std::size_t to = c;
    for (std::size_t k = 0; k < 8; ++k) {
      const auto m = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(c) + off[k]);
      const double drop = zc - z[m];
      const double s = (k % 2 == 0) ? drop : drop * inv_sqrt2;
      const bool steeper = s > best;
      best = steeper ? s : best;
      to = steeper ? m : to;
    }
    return static_cast<std::uint32_t>(to);
  }

  // The receiver of interior node c: itself at an outlet, else the steepest.
  [[nodiscard]] std::uint32_t interior(std::size_t c) const {
    return (outlets && outlets[c]) ? static_cast<std::uint32_t>(c) : steepest(c);
  }

  // The nodes of row y with a flagged node among themselves and their
  // neighbours (the others' heights and their neighbours' are unchanged).
  // Border nodes are outlets whatever their heights: never computed again.
  void update_row(int y, const std::uint8_t* flagged, flow_graph& graph) const {
    if (y == 0 || y == height - 1 || width < 3) return;
    const auto w = static_cast<std::ptrdiff_t>(width);
    const std::size_t begin = static_cast<std::size_t>(y) * static_cast<std::size_t>(width);
    for (std::size_t c = begin + 1; c + 1 < begin + static_cast<std::size_t>(width); ++c) {
      const std::uint8_t* f = flagged + c;
      const unsigned touched = f[-w - 1] | f[-w] | f[-w + 1] | f[-1] | f[0] | f[1] | f[w - 1] | f[w] | f[w + 1];
      if (touched != 0) graph.receiver[c] = interior(c);
    }
  }

  // Every node of row y: the border rows and columns are outlets.
  void row(int y, flow_graph& graph) const {
    const std::size_t begin = static_cast<std::size_t>(y) * static_cast<std::size_t>(width);
    std::uint32_t* out = graph.receiver.data();
    const auto self = [&](std::size_t c) { out[c] = static_cast<std::uint32_t>(c); };
    if (y == 0 || y == height - 1 || width < 3) {
      for (std::size_t c = begin; c < begin + static_cast<std::size_t>(width); ++c) self(c);
      return;
    }
    const std::size_t end = begin + static_cast<std::size_t>(width) - 1;
    self(begin);
    self(end);
    // (Without outlets, the loop tests no flag: every node of a full pass.)
    if (outlets) {
      for (std::size_t c = begin + 1; c < end; ++c) out[c] = interior(c);
    } else {
      for (std::size_t c = begin + 1; c < end; ++c) out[c] = steepest(c);
    }
  }
};

d8_kernel make_d8_kernel(const std::vector<double>& z, int width, int height, const std::uint8_t* outlets) {
  return {z, width, height, neighbour_offsets(width), 1.0 / std::numbers::sqrt2, outlets};
}

}  // namespace

void compute_receivers_d8(const std::vector<double>& z, int width, int height, double cell_size, flow_graph& graph,
                          int nthreads, const std::uint8_t* outlets) {
  check_grid(z.size(), width, height, "compute_receivers_d8");
  check_cell_size(cell_size, "compute_receivers_d8");
  graph.width = width;
  graph.height = height;
  graph.cell_size = cell_size;
  graph.diagonal = cell_size * std::numbers::sqrt2;
  graph.receiver.resize(z.size());
  const d8_kernel receiver_of = make_d8_kernel(z, width, height, outlets);
  parallel_rows(height, nthreads, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y) receiver_of.row(y, graph);
  });
}

namespace {

// Parts of the stack: fixed, so the parts (and the work in each) do not
// depend on the thread count. The parts split the base nodes by count, and a
// few drainage trees hold most of a map (4096^2 fBm: 22, 20 and 18 %), so
// most parts are tiny and a few are large: 64 parts keep the large trees
// apart, and largest_first() deals them out so that the threads finish
// together.
constexpr std::size_t k_stack_parts = 64;

// The parts [bounds[k], bounds[k + 1]) in the order to hand them to the
// threads: largest first (ties by index), so the parts left for the end are
// small and no thread waits long for the others (longest processing time
// first). Only the schedule: each part's work and output are the same in
// any order.
std::vector<int> largest_first(const std::vector<std::uint32_t>& bounds) {
  std::vector<int> order(bounds.size() - 1);
  std::iota(order.begin(), order.end(), 0);
  const auto size = [&](int k) {
    return bounds[static_cast<std::size_t>(k) + 1] - bounds[static_cast<std::size_t>(k)];
  };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return size(a) > size(b); });
  return order;
}

// graph.base_nodes: the nodes that are their own receivers, in index order
// (bands of rows in parallel, joined in order).
void collect_base_nodes(flow_graph& graph, int nthreads) {
  graph.band_bases.resize(k_bands);
  parallel_tasks(k_bands, nthreads, [&](int band) {
    const row_band rows = band_nodes(graph.width, graph.height, band);
    std::vector<std::uint32_t>& out = graph.band_bases[static_cast<std::size_t>(band)];
    out.clear();
    for (std::size_t c = rows.begin; c < rows.end; ++c) {
      if (graph.receiver[c] == c) out.push_back(static_cast<std::uint32_t>(c));
    }
  });
  graph.base_nodes.clear();
  for (const auto& band : graph.band_bases) graph.base_nodes.insert(graph.base_nodes.end(), band.begin(), band.end());
}

// graph.donor_mask: bit k of node c set when neighbour k of c (the order of
// derive/flow.hpp) has c as its receiver. One raster pass over the receivers
// (rows in parallel) instead of eight receiver reads per node in the
// depth-first walk, whose order jumps about the map.
void collect_donor_masks(flow_graph& graph, int nthreads) {
  const int width = graph.width, height = graph.height;
  const auto off = neighbour_offsets(width);
  graph.donor_mask.resize(graph.receiver.size());
  const std::uint32_t* receiver = graph.receiver.data();
  std::uint8_t* mask = graph.donor_mask.data();
  const auto edge_node = [&](std::size_t c) {
    unsigned bits = 0;
    detail::for_each_neighbour(static_cast<std::uint32_t>(c), width, height, off,
                               [&](std::uint32_t m, std::size_t k) { bits |= (receiver[m] == c ? 1u : 0u) << k; });
    mask[c] = static_cast<std::uint8_t>(bits);
  };
  parallel_rows(height, nthreads, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y) {
      const std::size_t begin = static_cast<std::size_t>(y) * static_cast<std::size_t>(width);
      const std::size_t end = begin + static_cast<std::size_t>(width);
      if (y == 0 || y == height - 1 || width < 3) {
        for (std::size_t c = begin; c < end; ++c) edge_node(c);
        continue;
      }
      edge_node(begin);
      edge_node(end - 1);
      for (std::size_t c = begin + 1; c + 1 < end; ++c) {
        unsigned bits = 0;
        for (std::size_t k = 0; k < 8; ++k) {
          bits |= (receiver[static_cast<std::ptrdiff_t>(c) + off[k]] == c ? 1u : 0u) << k;
        }
        mask[c] = static_cast<std::uint8_t>(bits);
      }
    }
  });
}

// Appends the depth-first walk over the donors from each base node of
// `bases` to `out` (graph.donor_mask current).
void walk_donors(const flow_graph& graph, const std::uint32_t* bases, std::size_t count,
                 std::vector<std::uint32_t>& out) {
  const auto off = neighbour_offsets(graph.width);
  const std::uint8_t* mask = graph.donor_mask.data();
  std::vector<std::uint32_t> todo;
  for (std::size_t b = 0; b < count; ++b) {
    todo.push_back(bases[b]);
    while (!todo.empty()) {
      const std::uint32_t c = todo.back();
      todo.pop_back();
      out.push_back(c);
      // Donors in neighbour order (an outlet has none from outside the map).
      for (unsigned bits = mask[c]; bits != 0; bits &= bits - 1) {
        const auto k = static_cast<std::size_t>(std::countr_zero(bits));
        todo.push_back(static_cast<std::uint32_t>(static_cast<std::ptrdiff_t>(c) + off[k]));
      }
    }
  }
}

}  // namespace

namespace {

// The stack from graph.base_nodes (current for graph.receiver): the trees of
// fixed parts of the base nodes walked in parallel, joined in order.
void stack_from_bases(flow_graph& graph, int nthreads) {
  const std::size_t n = graph.receiver.size();
  const std::vector<std::uint32_t>& bases = graph.base_nodes;
  collect_donor_masks(graph, nthreads);
  graph.base_part.resize(k_stack_parts + 1);
  for (std::size_t part = 0; part <= k_stack_parts; ++part)
    graph.base_part[part] = static_cast<std::uint32_t>(bases.size() * part / k_stack_parts);
  if (resolve_threads(nthreads) == 1) {
    // One thread walks the parts in order straight into the stack: the same
    // order and parts, without a second map-sized buffer and its copy.
    graph.stack.clear();
    graph.stack.reserve(n);
    graph.stack_part.assign(1, 0);
    for (std::size_t part = 0; part < k_stack_parts; ++part) {
      const std::uint32_t b0 = graph.base_part[part], b1 = graph.base_part[part + 1];
      walk_donors(graph, bases.data() + b0, b1 - b0, graph.stack);
      graph.stack_part.push_back(static_cast<std::uint32_t>(graph.stack.size()));
    }
    if (graph.stack.size() != n) throw std::logic_error("compute_stack: the receivers contain a cycle");
    return;
  }
  // The trees change little from one routing to the next (the steps of an
  // evolving landscape): the last stack's part sizes predict this one's.
  std::vector<int> order(k_stack_parts);
  if (graph.stack_part.size() == k_stack_parts + 1) {
    order = largest_first(graph.stack_part);
  } else {
    std::iota(order.begin(), order.end(), 0);
  }
  graph.stack_work.resize(k_stack_parts);
  parallel_tasks(static_cast<int>(k_stack_parts), nthreads, [&](int k) {
    const auto part = static_cast<std::size_t>(order[static_cast<std::size_t>(k)]);
    const std::uint32_t b0 = graph.base_part[part], b1 = graph.base_part[part + 1];
    graph.stack_work[part].clear();
    walk_donors(graph, bases.data() + b0, b1 - b0, graph.stack_work[part]);
  });
  graph.stack_part.assign(1, 0);
  for (const auto& part : graph.stack_work)
    graph.stack_part.push_back(graph.stack_part.back() + static_cast<std::uint32_t>(part.size()));
  if (graph.stack_part.back() != n) throw std::logic_error("compute_stack: the receivers contain a cycle");
  graph.stack.resize(n);
  parallel_tasks(static_cast<int>(k_stack_parts), nthreads, [&](int k) {
    const auto part = static_cast<std::size_t>(k);
    std::copy(graph.stack_work[part].begin(), graph.stack_work[part].end(),
              graph.stack.begin() + graph.stack_part[part]);
  });
}

}  // namespace

void compute_stack(flow_graph& graph, int nthreads) {
  check_grid(graph.receiver.size(), graph.width, graph.height, "compute_stack");
  collect_base_nodes(graph, nthreads);
  stack_from_bases(graph, nthreads);
}

void for_each_stack_part(const flow_graph& graph, int nthreads,
                         const std::function<void(std::size_t, std::size_t)>& fn) {
  if (graph.stack_part.size() < 2) {
    fn(0, graph.stack.size());
    return;
  }
  const std::vector<int> order = largest_first(graph.stack_part);
  parallel_tasks(static_cast<int>(order.size()), nthreads, [&](int k) {
    const auto part = static_cast<std::size_t>(order[static_cast<std::size_t>(k)]);
    fn(graph.stack_part[part], graph.stack_part[part + 1]);
  });
}

namespace {

// The passes between basins found in rows [y0, y1): for each pair of
// 8-neighbours in different basins (basin 0 = drains to the border), the
// pair's basins, lower number first, and the higher of the two heights. Each
// node pair is seen once (the neighbour after the node in raster order). A
// boundary between two basins crosses many node pairs, rows after rows: a
// small table of recent basin pairs merges most repeats into one pass,
// keeping the lower height, so the basin graph stays a few times smaller
// than the boundary.
void collect_passes(const std::vector<double>& z, int width, int height, const std::vector<std::uint32_t>& basin,
                    int y0, int y1, std::vector<basin_pass>& out) {
  out.clear();
  constexpr std::size_t k_slots = 4096;
  constexpr std::uint32_t k_empty = std::numeric_limits<std::uint32_t>::max();
  std::array<std::uint32_t, k_slots> recent;
  recent.fill(k_empty);
  const auto w = static_cast<std::size_t>(width);
  const auto add = [&](std::uint32_t a, std::uint32_t b, double pass) {
    const std::uint32_t lo = std::min(a, b), hi = std::max(a, b);
    const std::size_t slot = (static_cast<std::size_t>(lo) * 0x9e3779b1u + hi) & (k_slots - 1);
    const std::uint32_t k = recent[slot];
    if (k != k_empty && out[k].from == lo && out[k].to == hi) {
      out[k].height = std::min(out[k].height, pass);
      return;
    }
    recent[slot] = static_cast<std::uint32_t>(out.size());
    out.push_back({lo, hi, pass});
  };
  for (int y = y0; y < y1; ++y) {
    const bool below = y + 1 < height;
    for (int x = 0; x < width; ++x) {
      const std::size_t c = static_cast<std::size_t>(y) * w + static_cast<std::size_t>(x);
      const std::uint32_t bc = basin[c];
      const auto visit = [&](std::size_t m) {
        if (basin[m] != bc) add(bc, basin[m], std::max(z[c], z[m]));
      };
      if (x + 1 < width) visit(c + 1);
      if (!below) continue;
      if (x > 0) visit(c + w - 1);
      visit(c + w);
      if (x + 1 < width) visit(c + w + 1);
    }
  }
}

// Lake levels of the pit basins: the minimax pass height on the graph of
// basins (0 = everything that drains to the border), by Dijkstra from basin
// 0, into graph.lake_level. The levels are exact minimax values, so neither
// the order of the passes nor repeated passes change them.
void basin_levels(const std::vector<double>& z, int width, int height, std::uint32_t basins, int nthreads,
                  flow_graph& graph) {
  graph.band_passes.resize(k_bands);
  parallel_tasks(k_bands, nthreads, [&](int band) {
    const row_band rows = band_nodes(width, height, band);
    const auto w = static_cast<std::size_t>(width);
    collect_passes(z, width, height, graph.basin, static_cast<int>(rows.begin / w), static_cast<int>(rows.end / w),
                   graph.band_passes[static_cast<std::size_t>(band)]);
  });
  // Compressed rows, each pass in both directions.
  std::vector<std::uint32_t>& first = graph.pass_first;
  first.assign(static_cast<std::size_t>(basins) + 2, 0);
  for (const auto& band : graph.band_passes) {
    for (const basin_pass& p : band) {
      ++first[p.from + 1];
      ++first[p.to + 1];
    }
  }
  for (std::size_t b = 1; b < first.size(); ++b) first[b] += first[b - 1];
  graph.passes.resize(first.back());
  std::vector<std::uint32_t> fill(first.begin(), first.end() - 1);
  for (const auto& band : graph.band_passes) {
    for (const basin_pass& p : band) {
      graph.passes[fill[p.from]++] = p;
      graph.passes[fill[p.to]++] = {p.to, p.from, p.height};
    }
  }
  std::vector<double>& level = graph.lake_level;
  level.assign(static_cast<std::size_t>(basins) + 1, std::numeric_limits<double>::infinity());
  level[0] = -std::numeric_limits<double>::infinity();
  using entry = std::pair<double, std::uint32_t>;
  std::priority_queue<entry, std::vector<entry>, std::greater<>> queue;
  queue.push({level[0], 0});
  while (!queue.empty()) {
    const auto [l, b] = queue.top();
    queue.pop();
    if (l > level[b]) continue;
    for (std::uint32_t k = first[b]; k < first[b + 1]; ++k) {
      const basin_pass& e = graph.passes[k];
      const double candidate = std::max(l, e.height);
      if (candidate < level[e.to]) {
        level[e.to] = candidate;
        queue.push({candidate, e.to});
      }
    }
  }
}

// How far the epsilon fill can lift a node above its lake's level: each
// raised node sits one ulp above the node that reached it, so a chain of k
// raised nodes ends at most k ulps (of the largest height) above where it
// started, and no chain is longer than the lake nodes. A basin node above its
// lake by less than that could end up below the filled lake, with no lower
// neighbour: such nodes join the lakes (and keep their heights unless they
// must rise). Without them the routing had to be repeated on most steps of an
// evolving landscape, whose diffused lake floors leave many nodes a few ulps
// above the level (4096^2: 3 passes over 16 million basin nodes, 4.7 s,
// against one pass, 1.6 s).
double epsilon_rise_bound(double top, std::size_t basin_nodes) {
  const double ulp = std::nextafter(top, std::numeric_limits<double>::infinity()) - top;
  return 2.0 * static_cast<double>(basin_nodes) * ulp;
}

// A base node that is not on the border and not an outlet: a pit.
bool interior_pit(const flow_graph& graph, const std::uint8_t* outlets, std::uint32_t c) {
  const auto w = static_cast<std::uint32_t>(graph.width), h = static_cast<std::uint32_t>(graph.height);
  const std::uint32_t x = c % w, y = c / w;
  return graph.receiver[c] == c && x > 0 && y > 0 && x + 1 < w && y + 1 < h && !(outlets && outlets[c]);
}

struct basin_count {
  std::uint32_t basins = 0;  // pit basins, labelled 1..basins
  std::size_t nodes = 0;     // nodes in them
  double highest = 0.0;      // largest |height| among them
};

// graph.basin: every node's pit basin (0 = drains to the border or an
// outlet), the pits numbered 1.. in index order; graph.base_nodes collected
// afresh. A node's basin is that of the base node its receivers lead to:
// each node follows its receivers until a node already labelled and labels
// the path (rows in parallel; two threads meeting on a path write the same
// label, so the labels do not depend on the thread count). Leaves
// graph.basin as it was when there is no pit.
basin_count label_basins(const std::vector<double>& z, const std::uint8_t* outlets, int nthreads, flow_graph& graph) {
  collect_base_nodes(graph, nthreads);
  basin_count count;
  for (const std::uint32_t b : graph.base_nodes) count.basins += interior_pit(graph, outlets, b) ? 1 : 0;
  if (count.basins == 0) return count;
  constexpr std::uint32_t unknown = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t>& basin = graph.basin;
  parallel_rows(graph.height, nthreads, [&](int y0, int y1) {
    const auto w = static_cast<std::size_t>(graph.width);
    std::fill(basin.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(y0) * w),
              basin.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(y1) * w), unknown);
  });
  std::uint32_t pits = 0;
  for (const std::uint32_t b : graph.base_nodes) basin[b] = interior_pit(graph, outlets, b) ? ++pits : 0;
  std::array<basin_count, k_bands> bands{};
  parallel_tasks(k_bands, nthreads, [&](int band) {
    const row_band rows = band_nodes(graph.width, graph.height, band);
    std::vector<std::uint32_t> path;
    basin_count& mine = bands[static_cast<std::size_t>(band)];
    for (std::size_t c = rows.begin; c < rows.end; ++c) {
      std::uint32_t node = static_cast<std::uint32_t>(c), label = 0;
      while ((label = std::atomic_ref<std::uint32_t>(basin[node]).load(std::memory_order_relaxed)) == unknown) {
        path.push_back(node);
        node = graph.receiver[node];
      }
      for (const std::uint32_t p : path)
        std::atomic_ref<std::uint32_t>(basin[p]).store(label, std::memory_order_relaxed);
      path.clear();
      if (label != 0) {
        ++mine.nodes;
        mine.highest = std::max(mine.highest, std::abs(z[c]));
      }
    }
  });
  for (const basin_count& band : bands) {
    count.nodes += band.nodes;
    count.highest = std::max(count.highest, band.highest);
  }
  return count;
}

}  // namespace

namespace {

// A map-sized working array: when it has less room than `n`, emptied and
// given `n` on transparent huge pages (see reserve_huge_pages()); kept
// otherwise, so the steps of an evolving landscape reuse it.
template <class T>
void room_for(std::vector<T>& v, std::size_t n) {
  if (v.capacity() >= n) return;
  v = {};
  detail::reserve_huge_pages(v, n);
}

// The graph's map-sized arrays, before route_depression_free_d8() resizes
// them. The stack's parts grow by push_back: each gets room for a sixteenth
// of the map (address space only; the few larger parts grow once more, on a
// model's first step).
void room_for_graph(flow_graph& graph, std::size_t n) {
  room_for(graph.receiver, n);
  room_for(graph.stack, n);
  room_for(graph.basin, n);
  room_for(graph.flood_region, n);
  room_for(graph.donor_mask, n);
  graph.stack_work.resize(k_stack_parts);
  for (auto& part : graph.stack_work) room_for(part, n / 16);
}

}  // namespace

std::size_t route_depression_free_d8(std::vector<double>& z, int width, int height, double cell_size, flow_graph& graph,
                                     int nthreads, const std::uint8_t* outlets) {
  check_grid(z.size(), width, height, "route_depression_free_d8");
  check_finite(z, width, height, nthreads, "route_depression_free_d8");
  room_for_graph(graph, z.size());
  compute_receivers_d8(z, width, height, cell_size, graph, nthreads, outlets);
  const std::size_t n = z.size();
  std::size_t raised = 0;
  // basin: every node's pit basin from the last labelling; region: the
  // flags of the nodes to flood. Both are written whole on each pass (rows
  // in parallel), as the basin graph, the flood's seeds and the receiver
  // update scan the whole grid.
  std::vector<std::uint32_t>& basin = graph.basin;
  std::vector<std::uint8_t>& region = graph.flood_region;
  basin.resize(n);
  region.resize(n);
  const d8_kernel receiver_of = make_d8_kernel(z, width, height, outlets);
  const auto w = static_cast<std::size_t>(width);
  constexpr const char* k_overflow = "route_depression_free_d8: filling the depressions overflowed the largest double";
  for (int attempt = 0;; ++attempt) {
    if (attempt == 3) {
      // The third attempt floods whole basins, which drains every node
      // unless a raised height overflowed to infinity (heights within a few
      // ulps of the largest double): refused, where looping on would never end.
      check_finite(z, width, height, nthreads, k_overflow);
      throw std::logic_error("route_depression_free_d8: pits remain after flooding whole basins");
    }
    // A surface that drains (the usual case between two steps) has no pit
    // among its base nodes.
    const basin_count basins = label_basins(z, outlets, nthreads, graph);
    if (basins.basins == 0) {
      // A node raised past the largest double drains too (towards lower
      // ones), but its height is no longer a number to pass on.
      if (raised > 0) check_finite(z, width, height, nthreads, k_overflow);
      stack_from_bases(graph, nthreads);
      return raised;
    }
    // The lakes: basin nodes at or below their basin's spill level, or
    // above it by less than the fill can lift a node; on the last attempt
    // whole catchments, which always leaves every node draining.
    double margin = std::numeric_limits<double>::infinity();
    if (attempt < 2) {
      basin_levels(z, width, height, basins.basins, nthreads, graph);
      margin = epsilon_rise_bound(basins.highest, basins.nodes);
    } else {
      graph.lake_level.assign(static_cast<std::size_t>(basins.basins) + 1, 0.0);
    }
    const std::vector<double>& level = graph.lake_level;
    parallel_rows(height, nthreads, [&](int y0, int y1) {
      for (std::size_t c = static_cast<std::size_t>(y0) * w; c < static_cast<std::size_t>(y1) * w; ++c) {
        region[c] = basin[c] != 0 && z[c] <= level[basin[c]] + margin ? 1 : 0;
      }
    });
    raised += detail::flood_lakes(z, width, height, region.data(), basin, basins.basins, nthreads);
    // Only flooded nodes changed height: the receivers of them and of their
    // neighbours are computed again (the same kernel, so the same values as
    // a whole pass; each row writes only its own nodes); the stack is built
    // once they drain.
    parallel_rows(height, nthreads, [&](int y0, int y1) {
      for (int y = y0; y < y1; ++y) receiver_of.update_row(y, region.data(), graph);
    });
  }
}

std::vector<double> drainage_area_d8(const flow_graph& graph, double cell_size) {
  std::vector<double> area;
  drainage_area_d8(graph, cell_size, area);
  return area;
}

void drainage_area_d8(const flow_graph& graph, double cell_size, std::vector<double>& area, int nthreads) {
  check_cell_size(cell_size, "drainage_area_d8");
  area.assign(graph.receiver.size(), cell_size * cell_size);
  for_each_stack_part(graph, nthreads, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = end; i-- > begin;) {
      const std::uint32_t c = graph.stack[i];
      const std::uint32_t r = graph.receiver[c];
      if (r != c) area[r] += area[c];
    }
  });
}

namespace {

// What an MFD node passes to each lower neighbour k: area x share[k], or,
// on a channel node of the hybrid routing, area x steep_share to neighbour
// `steepest` alone. Computed before the node's area is known (the weights
// depend on the heights only), so many nodes' shares can be computed at once.
struct mfd_shares {
  std::array<double, 8> share;
  double steep_share;
  std::uint8_t steepest;
};

// Freeman's shares of node c, whose lower neighbours are the bits of
// `lower`: weight_k = (drop_k / distance_k)^p, share_k = weight_k / total.
// On a channel node all the weight goes to the steepest lower neighbour
// (the largest weight; the first on a tie), whose share is then its weight
// over itself. Zero total: nothing passed on.
mfd_shares freeman_shares(const std::vector<double>& z, std::size_t c, unsigned lower,
                          const std::array<std::ptrdiff_t, 8>& off, double exponent) {
  constexpr double inv_sqrt2 = 1.0 / std::numbers::sqrt2;
  std::array<double, 8> weight{};
  double total = 0.0;
  for (std::size_t k = 0; k < 8; ++k) {
    if (!(lower >> k & 1u)) continue;
    const double drop = z[c] - z[static_cast<std::size_t>(static_cast<std::ptrdiff_t>(c) + off[k])];
    weight[k] = std::pow((k % 2 == 0) ? drop : drop * inv_sqrt2, exponent);
    total += weight[k];
  }
  mfd_shares out{};
  std::size_t best = 0;
  for (std::size_t k = 0; k < 8; ++k) {
    out.share[k] = total > 0.0 ? weight[k] / total : 0.0;
    if (weight[k] > weight[best]) best = k;
  }
  out.steepest = static_cast<std::uint8_t>(best);
  out.steep_share = weight[best] > 0.0 ? weight[best] / weight[best] : 0.0;
  return out;
}

// Calls visit(c) for every node that passes area on (a bit in `lower`), each
// once all its donors have: Kahn's topological order over the graph of
// lower neighbours, sources in index order, then the last made ready
// first. It depends on the heights alone. `pending` holds each node's count
// of donors; 0xff marks a node taken.
template <class Visit>
void in_flow_order(const std::vector<std::uint8_t>& lower, std::vector<std::uint8_t>& pending,
                   const std::array<std::ptrdiff_t, 8>& off, Visit&& visit) {
  std::vector<std::uint32_t> ready;
  for (std::size_t source = 0; source < pending.size(); ++source) {
    if (pending[source] != 0) continue;
    pending[source] = 0xff;
    ready.push_back(static_cast<std::uint32_t>(source));
    while (!ready.empty()) {
      const std::uint32_t c = ready.back();
      ready.pop_back();
      const unsigned bits = lower[c];
      if (bits == 0) continue;
      visit(c);
      for (std::size_t k = 0; k < 8; ++k) {
        if (!(bits >> k & 1u)) continue;
        const auto m = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(c) + off[k]);
        if (--pending[m] == 0) {
          pending[m] = 0xff;
          ready.push_back(static_cast<std::uint32_t>(m));
        }
      }
    }
  }
}

// Nodes whose shares are computed together (in parallel) before their
// areas are passed on in order: 21 MB of shares, a 512^2 map in one chunk.
// Few chunks, because each costs a wait for all threads, and a thread that
// shares its core with another program makes each wait last a time slice
// (with 32768 nodes a chunk, a 512^2 landscape evolution on 2 threads
// beside a busy core took 1.1 to 1.3x the time it took with 2^18).
constexpr std::size_t k_mfd_chunk = std::size_t{1} << 18;
// Nodes per task within a chunk: enough work to dwarf the task's dispatch.
constexpr std::size_t k_mfd_task = 1024;

}  // namespace

std::vector<double> drainage_area_mfd(const std::vector<double>& z, int width, int height, double cell_size,
                                      double exponent, const std::uint8_t* outlets, double channel_area, int nthreads) {
  check_grid(z.size(), width, height, "drainage_area_mfd");
  check_cell_size(cell_size, "drainage_area_mfd");
  if (!(exponent > 0.0)) {
    throw std::invalid_argument("drainage_area_mfd: exponent " + std::to_string(exponent) + ", must be > 0");
  }
  const std::size_t n = z.size();
  const auto off = neighbour_offsets(width);
  // Each interior node's strictly lower neighbours (bits in neighbour
  // order; border nodes and outlets pass nothing on and keep 0) and each
  // node's count of higher interior neighbours not yet passed on.
  std::vector<std::uint8_t> lower(n, 0);
  std::vector<std::uint8_t> pending(n, 0);
  for (int y = 1; y < height - 1; ++y) {
    for (int x = 1; x < width - 1; ++x) {
      const std::size_t c = static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x);
      if (outlets && outlets[c]) continue;
      unsigned bits = 0;
      for (std::size_t k = 0; k < 8; ++k) {
        const auto m = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(c) + off[k]);
        if (z[m] < z[c]) {
          ++pending[m];
          bits |= 1u << k;
        }
      }
      if (bits == 0) {
        throw std::logic_error("drainage_area_mfd: interior node (" + std::to_string(x) + ", " + std::to_string(y) +
                               ") has no lower neighbour; fill depressions first");
      }
      lower[c] = static_cast<std::uint8_t>(bits);
    }
  }
  std::vector<double> area(n, cell_size * cell_size);
  const auto pass_on = [&](std::uint32_t c, const mfd_shares& s) {
    if (channel_area > 0.0 && area[c] >= channel_area) {
      area[static_cast<std::size_t>(static_cast<std::ptrdiff_t>(c) + off[s.steepest])] += area[c] * s.steep_share;
      return;
    }
    const unsigned bits = lower[c];
    for (std::size_t k = 0; k < 8; ++k) {
      if (bits >> k & 1u)
        area[static_cast<std::size_t>(static_cast<std::ptrdiff_t>(c) + off[k])] += area[c] * s.share[k];
    }
  };
  if (resolve_threads(nthreads) == 1) {
    // One thread: each node's shares as it comes, no order kept.
    in_flow_order(lower, pending, off,
                  [&](std::uint32_t c) { pass_on(c, freeman_shares(z, c, lower[c], off, exponent)); });
    return area;
  }
  // The shares of a chunk of the order in parallel (most of the work: a
  // pow per lower neighbour), then the chunk's areas passed on in order:
  // every sum is made in the same order as on one thread.
  std::vector<std::uint32_t> order;
  order.reserve(n);
  in_flow_order(lower, pending, off, [&](std::uint32_t c) { order.push_back(c); });
  std::vector<mfd_shares> shares(std::min(order.size(), k_mfd_chunk));
  for (std::size_t begin = 0; begin < order.size(); begin += k_mfd_chunk) {
    const std::size_t count = std::min(k_mfd_chunk, order.size() - begin);
    const auto tasks = static_cast<int>((count + k_mfd_task - 1) / k_mfd_task);
    parallel_tasks(tasks, nthreads, [&](int task) {
      const std::size_t i0 = static_cast<std::size_t>(task) * k_mfd_task;
      for (std::size_t i = i0; i < std::min(count, i0 + k_mfd_task); ++i) {
        const std::uint32_t c = order[begin + i];
        shares[i] = freeman_shares(z, c, lower[c], off, exponent);
      }
    });
    for (std::size_t i = 0; i < count; ++i) pass_on(order[begin + i], shares[i]);
  }
  return area;
}

}  // namespace landform
