#pragma once
/// @file
/// Flow routing for landscape evolution and hydrology, in the field's terms:
/// depression resolution by Priority-Flood, steepest-descent (D8) receivers,
/// the donor / stack order of Braun and Willett (2013), and drainage area
/// accumulated along D8 receivers or by multiple flow direction (Freeman 1991).
///
/// All functions work on a width x height grid of float64 heights in metres
/// (row-major, row 0 = top, node (x, y) at index y * width + x) with square
/// cells of `cell_size` metres. The grid's border nodes are the **outlets**
/// (open boundary, base level): their receiver is themselves and water that
/// reaches them leaves the map. The routing functions take an optional
/// `outlets` mask (width x height flags, row-major; nonzero = outlet) that
/// adds interior outlets, e.g. the sea of find_ocean(): such a node receives
/// flow and passes none on, like fastscapelib's fixed-value boundary nodes;
/// null = the border only. Nothing here depends on the thread count.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace landform {

/// How drainage area is accumulated.
enum class routing_method {
  d8,   ///< all to the steepest-descent receiver (O'Callaghan and Mark 1984)
  mfd,  ///< split among all lower neighbours (Freeman 1991), see drainage_area_mfd()
};

/// A pass between two neighbouring pit basins of route_depression_free_d8()
/// (its working storage): the lowest height found so far at which water
/// crosses from one basin to the other, in metres.
struct basin_pass {
  std::uint32_t from = 0;
  std::uint32_t to = 0;
  double height = 0.0;
};

/// The single-receiver flow graph of a grid: every node's steepest-descent
/// receiver and the stack order (Braun and Willett 2013).
struct flow_graph {
  int width = 0;
  int height = 0;
  /// width x height: index of each node's receiver; an outlet (border node)
  /// or a pit is its own receiver.
  std::vector<std::uint32_t> receiver;
  /// Metres between neighbouring nodes along a row or column, and along a
  /// diagonal (cell_size * sqrt 2), as compute_receivers_d8() was given.
  double cell_size = 1.0;
  double diagonal = 1.0;
  /// All nodes, each after its receiver ("downstream to upstream": outlets
  /// first). Walk it forwards to solve from base level upwards (the implicit
  /// stream-power solver), backwards to accumulate downstream.
  std::vector<std::uint32_t> stack;
  /// The stack in independent parts: stack[stack_part[k] .. stack_part[k +
  /// 1]) holds whole drainage trees (base nodes and everything upstream of
  /// them), so a walk over the stack may run part by part on several threads
  /// and give the serial result. Empty: one part (a stack built elsewhere).
  std::vector<std::uint32_t> stack_part;
  /// Working storage of compute_stack(): each part's nodes.
  std::vector<std::vector<std::uint32_t>> stack_work;
  /// The base nodes (their own receivers) in index order, as compute_stack()
  /// found them; part k of the stack holds the trees of base_nodes[base_part[k]
  /// .. base_part[k + 1]).
  std::vector<std::uint32_t> base_nodes;
  std::vector<std::uint32_t> base_part;
  /// Working storage of compute_stack(): the base nodes found per band of rows.
  std::vector<std::vector<std::uint32_t>> band_bases;
  /// Working storage of compute_stack() (width x height): bit k of a node's
  /// byte is set when its neighbour k (derive/flow.hpp's order) is a donor.
  std::vector<std::uint8_t> donor_mask;
  /// Working storage of route_depression_free_d8() (width x height once
  /// used): the pit basin of each node at the last call (0 = drains to the
  /// border) and the flags of the nodes it flooded.
  std::vector<std::uint32_t> basin;
  std::vector<std::uint8_t> flood_region;
  /// Also working storage of route_depression_free_d8(), kept so that the
  /// steps of an evolving landscape reuse it: on a diffused landscape most
  /// nodes lie in pit basins each step (4096^2: 16 million basin nodes, about
  /// a million passes), and allocating afresh each step cost more in page
  /// faults than the work done in the storage.
  std::vector<std::vector<basin_pass>> band_passes;  ///< passes found per band of rows
  std::vector<std::uint32_t> pass_first;             ///< basin b's passes: pass_first[b] .. pass_first[b + 1]
  std::vector<basin_pass> passes;                    ///< the basin graph in compressed rows
  std::vector<double> lake_level;                    ///< spill level per basin (0: the border's)

  /// True for a node that is its own receiver.
  [[nodiscard]] bool is_base(std::uint32_t node) const { return receiver[node] == node; }

  /// Distance from `node` to its receiver in metres: cell_size along a row
  /// or column, diagonal along a diagonal, 0 for a base node. Computed from
  /// the index step (receivers are 8-neighbours of interior nodes, and on a
  /// grid of width >= 3 the steps +-1, +-width and +-(width +- 1) differ)
  /// rather than stored: a map-sized array of distances cost a write per node
  /// when routing and a read per node when solving (1 GB/s of page clearing
  /// on a virtual machine makes fresh memory dear).
  [[nodiscard]] double receiver_distance(std::size_t node) const {
    const std::size_t r = receiver[node];
    const std::size_t step = r > node ? r - node : node - r;
    if (step == 0) return 0.0;
    return step == 1 || step == static_cast<std::size_t>(width) ? cell_size : diagonal;
  }
};

/// Fills every closed depression in place by Priority-Flood+epsilon (Barnes,
/// Lehman and Mulla 2014, "Priority-Flood: An optimal depression-filling and
/// watershed-labeling algorithm for digital elevation models", Computers &
/// Geosciences 62): seeded from the border, a node not higher than the node
/// that reached it is raised to the next representable double above it, so
/// afterwards every interior node has a strictly lower neighbour and drains to
/// the border. Nodes above their spill level are unchanged.
///
/// @param z width x height heights (any unit), row-major; modified in place
/// @return the number of nodes raised
/// @throws std::invalid_argument for a size mismatch or a non-finite height,
///         and when filling raised a node past the largest double (heights
///         within a few ulps of 1.8e308; `z` is then left partly filled)
/// Determinism: the queue pops the lowest height first (equal heights last-in
/// first-out), so the result depends only on the heights. Serial, close to
/// linear time (radix heap).
std::size_t priority_flood_fill(std::vector<double>& z, int width, int height);

/// Steepest-descent (D8) receivers: each interior node's receiver is the
/// neighbour with the largest drop / distance (distances cell_size and
/// cell_size * sqrt 2), strictly downhill; ties go to the first in the
/// neighbour order of derive/flow.hpp (E, NE, N, NW, W, SW, S, SE). Border
/// nodes and interior nodes without a lower neighbour (none after
/// priority_flood_fill()) are their own receivers. Fills `graph.receiver` and
/// `graph.cell_size` / `graph.diagonal`, not the stack.
///
/// @param z         width x height heights in metres, row-major
/// @param cell_size metres, > 0
/// @param nthreads  0 = all cores, 1 = serial; rows are independent, so the
///                  result is identical for every thread count
/// @param outlets   null, or width x height flags: nodes that are their own
///                  receivers besides the border (see the file comment)
/// @throws std::invalid_argument for a size mismatch or cell_size <= 0
void compute_receivers_d8(const std::vector<double>& z, int width, int height, double cell_size, flow_graph& graph,
                          int nthreads = 1, const std::uint8_t* outlets = nullptr);

/// The stack order of Braun and Willett (2013, "A very efficient O(n),
/// implicit and parallel method to solve the stream power equation governing
/// fluvial incision and landscape evolution", Geomorphology 180-181): a
/// depth-first walk over the donors (the nodes whose receiver a node is) from
/// each base node in index order. O(n). The base nodes are split into a
/// fixed number of parts (by count, in index order), walked on up to
/// `nthreads` threads and joined in order, so the stack is the serial one for
/// every thread count; graph.stack_part records the parts.
/// @throws std::logic_error when the receivers contain a cycle
void compute_stack(flow_graph& graph, int nthreads = 1);

/// Calls fn(begin, end) for each part of graph's stack (see
/// flow_graph::stack_part) on up to `nthreads` threads: stack indices
/// [begin, end) hold whole drainage trees, so a walk that reads and writes
/// only a node and its receiver gives the serial result.
void for_each_stack_part(const flow_graph& graph, int nthreads,
                         const std::function<void(std::size_t, std::size_t)>& fn);

/// Depression-free D8 routing in one call: receivers and stack of `z` after
/// every closed depression is filled, where only the depressions are
/// visited. Receivers are computed on `z` (rows in parallel); the nodes whose
/// steepest-descent path ends in an interior pit (a node without a lower
/// neighbour) form the pits' basins, labelled by following the receivers
/// (rows in parallel; a path stops at the first node already labelled). Each basin's lake level is its minimax
/// pass height to the border over the graph of basins (Dijkstra; the basin
/// graph of fastscapelib and Cordonnier et al. 2019 in spirit); the basin
/// nodes at or below that level (the lakes), and those above it by less than
/// the epsilon rise can reach (basin nodes x 2 ulps of the highest one),
/// are filled by Priority-Flood+epsilon (Barnes et al. 2014) seeded from
/// their neighbours outside the lakes. Should a node still be left without a
/// lower neighbour, the routing is repeated, and the third time whole basins
/// are flooded, which always drains. On a surface that already drains this
/// costs one receiver pass and one stack pass; a diffused landscape usually
/// has pits again after every step (most nodes drain to one), and then the
/// basins cost one labelling pass, one raster pass for the basin graph (rows
/// in parallel), one Dijkstra over it and the flood of the lakes; the stack
/// is built once, after the flood.
///
/// @param z width x height heights in metres, row-major; closed depressions
///          are raised in place (every interior node then has a strictly
///          lower neighbour)
/// @param graph receives receivers, distances and stack of the filled `z`
/// @param outlets null, or width x height flags of interior outlets (the
///          sea): they are never raised, and a lake spills to them as to the
///          border
/// @return the number of nodes raised
/// @throws std::invalid_argument as compute_receivers_d8() and priority_flood_fill(),
///         and when filling would raise a node past the largest double
///         (heights within a few ulps of 1.8e308)
/// Determinism: the result depends only on `z`, not on `nthreads`.
std::size_t route_depression_free_d8(std::vector<double>& z, int width, int height, double cell_size, flow_graph& graph,
                                     int nthreads = 1, const std::uint8_t* outlets = nullptr);

/// D8 drainage area in m^2: each node's cell area plus the areas of all its
/// donors, accumulated in reverse stack order.
/// @return width x height areas (>= cell_size^2), row-major
std::vector<double> drainage_area_d8(const flow_graph& graph, double cell_size);

/// drainage_area_d8() into `area` (resized to width x height), reusing its
/// storage: the same values, without a new allocation per step, on up to
/// `nthreads` threads (one per stack part; the same values for any count).
void drainage_area_d8(const flow_graph& graph, double cell_size, std::vector<double>& area, int nthreads = 1);

/// Multiple-flow-direction drainage area in m^2 after Freeman (1991,
/// "Calculating catchment area with divergent flow based on a regular grid",
/// Computers & Geosciences 17(3)): an interior node passes its area to every
/// lower neighbour k in proportion to S_k^p (S_k = drop / distance, p =
/// `exponent`, Freeman's 1.1; Quinn et al. 1991 is p = 1 with contour-length
/// weights). Border nodes (and the nodes flagged in `outlets`, when not null)
/// are outlets and pass nothing on. The heights must be
/// depression-free (priority_flood_fill()) so that every interior node has a
/// lower neighbour; the order is Kahn's topological sort over the graph of
/// lower neighbours, sources in index order. The weights (a pow per lower
/// neighbour, most of the work) depend on the heights alone: they are
/// computed on up to `nthreads` threads for chunks of that order, and the
/// areas are then passed on serially in order, so every sum is made in the
/// same order and the result is the same for any thread count.
///
/// With `channel_area` > 0 the routing is Pelletier's (2010) hybrid: a node
/// whose accumulated area reaches it is a channel and passes everything to
/// its steepest lower neighbour (D8; the first in neighbour order on a tie),
/// so a valley's flow stays in one thread of cells instead of spreading over
/// its floor, which made MFD's channel area fall as cells shrink.
///
/// @param z width x height heights in metres, row-major, depression-free
/// @param channel_area m^2; 0 = MFD everywhere
/// @param nthreads 0 = all cores, 1 = serial
/// @return width x height areas (>= cell_size^2), row-major
/// @throws std::invalid_argument for a size mismatch, cell_size <= 0 or
///         exponent <= 0; std::logic_error for an interior pit
std::vector<double> drainage_area_mfd(const std::vector<double>& z, int width, int height, double cell_size,
                                      double exponent = 1.1, const std::uint8_t* outlets = nullptr,
                                      double channel_area = 0.0, int nthreads = 1);

}  // namespace landform
