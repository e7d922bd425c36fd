#include "landform/core/particle_scheduler.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "landform/core/parallel.hpp"
#include "landform/core/rng.hpp"

namespace landform {

namespace {

constexpr int k_max_reach = 1 << 29;  // 2 reach and the grid offsets stay within int
constexpr int k_colours = 4;

// One round's particles grouped by tile: a stable counting sort, so each
// tile keeps index order.
struct round_tiles {
  int tiles_x = 0;
  std::size_t count = 0;
  std::vector<particle_start> by_tile;  // the round's starts, grouped by tile
  std::vector<std::size_t> begin;       // by_tile range of tile t: [begin[t], begin[t + 1])

  void group(std::span<const particle_start> starts, int tile, int off_x, int off_y) {
    std::vector<std::size_t> tile_of(starts.size());
    begin.assign(count + 1, 0);
    for (std::size_t k = 0; k < starts.size(); ++k) {
      const int tx = (static_cast<int>(starts[k].x) + off_x) / tile;
      const int ty = (static_cast<int>(starts[k].y) + off_y) / tile;
      tile_of[k] = static_cast<std::size_t>(ty) * static_cast<std::size_t>(tiles_x) + static_cast<std::size_t>(tx);
      ++begin[tile_of[k] + 1];
    }
    for (std::size_t t = 0; t < count; ++t) begin[t + 1] += begin[t];
    std::vector<std::size_t> cursor(begin.begin(), begin.end() - 1);
    by_tile.resize(starts.size());
    for (std::size_t k = 0; k < starts.size(); ++k) by_tile[cursor[tile_of[k]]++] = starts[k];
  }

  // The tiles of one colour, largest first (stable: then in tile order), so
  // that the phase ends evenly.
  [[nodiscard]] std::vector<particle_tile> phase(int colour) const {
    std::vector<particle_tile> work;
    for (std::size_t t = 0; t < count; ++t) {
      const auto tx = static_cast<int>(t % static_cast<std::size_t>(tiles_x));
      const auto ty = static_cast<int>(t / static_cast<std::size_t>(tiles_x));
      if ((tx & 1) + 2 * (ty & 1) != colour) continue;
      work.push_back(particle_tile{by_tile.data() + begin[t], by_tile.data() + begin[t + 1], t});
    }
    std::stable_sort(work.begin(), work.end(), [](const particle_tile& a, const particle_tile& b) {
      return (a.end - a.begin) > (b.end - b.begin);
    });
    return work;
  }
};

void check_starts(std::span<const particle_start> starts, int width, int height) {
  for (const particle_start& s : starts) {
    if (!(s.x >= 0.0f && s.x < static_cast<float>(width) && s.y >= 0.0f && s.y < static_cast<float>(height))) {
      throw std::invalid_argument("particle_scheduler: a particle starts at (" + std::to_string(s.x) + ", " +
                                  std::to_string(s.y) + "), outside the " + std::to_string(width) + " x " +
                                  std::to_string(height) + " grid");
    }
  }
}

}  // namespace

particle_scheduler::particle_scheduler(const particle_schedule& schedule) : m_schedule(schedule) {
  const auto fail = [](const std::string& what) { throw std::invalid_argument("particle_scheduler: " + what); };
  if (schedule.width < 1 || schedule.height < 1) {
    fail("grid " + std::to_string(schedule.width) + " x " + std::to_string(schedule.height) +
         ", must be at least 1 x 1");
  }
  if (schedule.per_round == 0) fail("per_round 0, must be >= 1");
  if (schedule.reach < 1 || schedule.reach > k_max_reach) {
    fail("reach " + std::to_string(schedule.reach) + ", must be in [1, 2^29]");
  }
  m_tile = 2 * schedule.reach;
}

std::uint64_t particle_scheduler::rounds() const {
  const std::uint64_t n = m_schedule.particles, r = m_schedule.per_round;
  return n / r + (n % r != 0 ? 1 : 0);
}

std::pair<int, int> particle_scheduler::grid_offset(std::uint64_t round) const {
  const std::uint64_t bits = hash64(m_schedule.seed, m_schedule.grid_stream, round);
  const auto tile = static_cast<std::uint64_t>(m_tile);
  return {static_cast<int>((bits & 0xffffffffULL) % tile), static_cast<int>((bits >> 32) % tile)};
}

void particle_scheduler::run(const particle_hooks& hooks) const {
  const particle_schedule& s = m_schedule;
  const std::uint64_t total_rounds = rounds();
  const int threads = resolve_threads(s.nthreads);
  std::vector<particle_start> starts;
  round_tiles tiles;
  for (std::uint64_t round = 0; round < total_rounds; ++round) {
    const std::uint64_t first = round * s.per_round;
    const auto n = static_cast<std::size_t>(std::min(s.per_round, s.particles - first));
    starts.resize(n);
    hooks.spawn(first, starts);
    check_starts(starts, s.width, s.height);

    const auto [off_x, off_y] = grid_offset(round);
    const int tiles_y = (s.height - 1 + off_y) / m_tile + 1;
    tiles.tiles_x = (s.width - 1 + off_x) / m_tile + 1;
    tiles.count = static_cast<std::size_t>(tiles.tiles_x) * static_cast<std::size_t>(tiles_y);
    tiles.group(starts, m_tile, off_x, off_y);
    if (hooks.begin_round) hooks.begin_round(tiles.count);

    // Small rounds run serially: waking threads would cost more than it
    // saves. (The result is the same either way.)
    const int phase_threads = n < s.min_parallel_round ? 1 : s.nthreads;
    const int workers = phase_threads == 1 ? 1 : threads;
    for (int colour = 0; colour < k_colours; ++colour) {
      const std::vector<particle_tile> work = tiles.phase(colour);
      particle_tile_queue queue(work, hooks.stop, colour);
      parallel_tasks(workers, phase_threads, [&](int) { hooks.work(queue); });
      if (hooks.progress) {
        hooks.progress((static_cast<double>(round) + (colour + 1) / static_cast<double>(k_colours)) /
                       static_cast<double>(total_rounds));
      }
    }
    if (hooks.end_round) hooks.end_round();
  }
}

}  // namespace landform
