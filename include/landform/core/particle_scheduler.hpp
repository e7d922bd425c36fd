#pragma once
/// @file
/// A deterministic scheduler for particles that wander over a grid (droplet
/// erosion): rounds, a moving tile grid, four colour phases and a tile queue.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <utility>

namespace landform {

/// Where a particle starts, in cells: x in [0, width), y in [0, height) of
/// the grid (column x + 0.5 is the middle of cell x). Its start cell is
/// (int(x), int(y)).
struct particle_start {
  float x = 0.0f;
  float y = 0.0f;
};

/// One tile's particles of a round, in particle index order, and the tile's
/// number in that round's grid (row-major, in [0, tile_count)), for results
/// kept per tile.
struct particle_tile {
  const particle_start* begin = nullptr;
  const particle_start* end = nullptr;
  std::size_t id = 0;
};

/// The tiles of one colour phase, handed out one at a time to whichever
/// worker (or vector lane of a worker) is free. Tiles of one phase touch
/// disjoint cells and each runs whole where it is taken, so who takes which
/// tile changes no result: taking them on demand only balances the load.
/// Thread-safe: any number of workers may take() at once.
class particle_tile_queue {
 public:
  /// `tiles` must outlive the queue; `stop`, if given, is the pipeline's
  /// cancellation flag (thread-safe), polled by stop_requested().
  explicit particle_tile_queue(std::span<const particle_tile> tiles, const std::function<bool()>* stop = nullptr,
                               int colour = 0)
      : m_tiles(tiles), m_stop(stop), m_colour(colour) {}

  /// The next tile, or null once all are taken.
  const particle_tile* take() {
    const std::size_t k = m_next.fetch_add(1, std::memory_order_relaxed);
    return k < m_tiles.size() ? &m_tiles[k] : nullptr;
  }
  /// True once the run should stop (a worker then throws cancelled_error).
  [[nodiscard]] bool stop_requested() const { return m_stop != nullptr && (*m_stop)(); }
  /// The phase, 0 to 3: tile (tx, ty) of the round's grid has colour (tx & 1) + 2 (ty & 1).
  [[nodiscard]] int colour() const { return m_colour; }

 private:
  std::span<const particle_tile> m_tiles;
  std::atomic<std::size_t> m_next{0};
  const std::function<bool()>* m_stop = nullptr;
  int m_colour = 0;
};

/// What to schedule. Sizes in cells, counts in particles.
struct particle_schedule {
  int width = 0;                ///< grid columns, >= 1
  int height = 0;               ///< grid rows, >= 1
  std::uint64_t particles = 0;  ///< particles in total, indices [0, particles)
  std::uint64_t per_round = 1;  ///< particles per round, >= 1 (the last round may have fewer)
  int reach = 1;           ///< cells, 1 to 2^29: farthest a particle reads or writes, in x or y, from its start cell
  std::uint64_t seed = 0;  ///< the run's seed: tile grid offsets are hashed from it
  std::uint64_t grid_stream = 0;       ///< hash stream of the grid offsets (one per simulation kind)
  int nthreads = 0;                    ///< as parallel_rows: 0 = all cores, 1 = serial
  std::size_t min_parallel_round = 0;  ///< rounds with fewer particles run on one thread
};

/// What the scheduler calls. `spawn` and `work` are required; the others may
/// be empty.
struct particle_hooks {
  /// Fills starts[k] with the start of particle `first` + k, k in
  /// [0, starts.size()); it may read the simulated state as the round finds
  /// it. Called on the calling thread (it may itself run parallel_tasks).
  std::function<void(std::uint64_t first, std::span<particle_start> starts)> spawn;
  /// Called before a round's phases with the round's number of tiles.
  std::function<void(std::size_t tile_count)> begin_round;
  /// Runs tiles taken from `queue` until take() returns null: each tile's
  /// particles in order, one tile at a time per lane. Called once per
  /// worker, concurrently, so it may only touch the cells its tiles reach and
  /// per-tile state.
  std::function<void(particle_tile_queue& queue)> work;
  /// Called after a round's four phases.
  std::function<void()> end_round;
  /// The share of the run done, in (0, 1], after each phase.
  std::function<void(double fraction)> progress;
  /// Cancellation flag handed to each phase's queue (see particle_tile_queue).
  const std::function<bool()>* stop = nullptr;
};

/// Runs particles in rounds over a grid of tiles, so that particles that
/// cannot touch the same cells run in parallel and the result is the same
/// for every thread count.
///
/// Round r holds particles [r per_round, (r + 1) per_round). Its tiles are
/// squares of side 2 reach, the grid offset by a hash of (seed, grid_stream,
/// r) so that tile seams move between rounds. Each particle belongs to the
/// tile of its start cell; tiles run in four colour phases of a 2 x 2
/// pattern. Two tiles of one colour are a whole tile apart, wider than two
/// reaches: their particles never read or write the same cell.
///
/// Why deterministic: the spawn, grid and grouping depend on the schedule
/// only; within a phase tiles are independent and each runs its particles in
/// index order, so the cells' history does not depend on which thread took
/// which tile; phases and rounds are sequential. Results kept per tile and
/// summed in tile order in end_round are therefore thread-count independent
/// too.
class particle_scheduler {
 public:
  /// @throws std::invalid_argument for width or height < 1, per_round 0, or
  ///         reach outside [1, 2^29], naming the value.
  explicit particle_scheduler(const particle_schedule& schedule);

  /// Number of rounds: particles / per_round, rounded up.
  [[nodiscard]] std::uint64_t rounds() const;
  /// Side of a tile in cells: 2 reach.
  [[nodiscard]] int tile_size() const { return m_tile; }
  /// Round `round`'s grid offset in cells, each in [0, tile_size()): tile
  /// (tx, ty) covers columns [tx tile - x, (tx + 1) tile - x), and rows alike.
  [[nodiscard]] std::pair<int, int> grid_offset(std::uint64_t round) const;

  /// Runs every round. Exceptions from the hooks (cancelled_error from a
  /// worker) end the run and are rethrown here once running workers end.
  /// @throws std::invalid_argument when `spawn` places a particle outside
  ///         the grid (or at NaN).
  void run(const particle_hooks& hooks) const;

 private:
  particle_schedule m_schedule;
  int m_tile = 0;
};

}  // namespace landform
