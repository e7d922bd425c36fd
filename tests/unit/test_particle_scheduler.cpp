// Tests for the particle scheduler (include/landform/core/particle_scheduler.hpp):
// tiles of one colour phase never reach the same cells, every particle runs
// exactly once and in index order within its tile, a toy simulation whose
// updates do not commute gives the same bytes on 1, 2 and 8 threads, and bad
// schedules are rejected with a message.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "landform/core/error.hpp"
#include "landform/core/particle_scheduler.hpp"
#include "landform/core/rng.hpp"

namespace {

using namespace landform;

constexpr int k_width = 200, k_height = 150;
constexpr int k_reach = 7;

// Particle k of a round starts in its own cell: cells visited in a stride
// coprime with the cell count, so a start names its particle.
constexpr int k_cell_stride = 7919;

int start_cell(std::uint64_t index) {
  return static_cast<int>((index * k_cell_stride) % (k_width * k_height));
}

void spawn_cells(std::uint64_t first, std::span<particle_start> starts) {
  for (std::size_t k = 0; k < starts.size(); ++k) {
    const int cell = start_cell(first + k);
    starts[k] = {static_cast<float>(cell % k_width) + 0.25f, static_cast<float>(cell / k_width) + 0.75f};
  }
}

particle_schedule schedule(std::uint64_t particles, int threads) {
  particle_schedule s;
  s.width = k_width;
  s.height = k_height;
  s.particles = particles;
  s.per_round = 3000;
  s.reach = k_reach;
  s.seed = 42;
  s.grid_stream = 0x54455354;
  s.nthreads = threads;
  return s;
}

// The cells a tile's particles may touch: their start cells +- reach.
struct box {
  int x0 = k_width, y0 = k_height, x1 = -1, y1 = -1;
  void add(int x, int y) {
    x0 = std::min(x0, x - k_reach);
    y0 = std::min(y0, y - k_reach);
    x1 = std::max(x1, x + k_reach);
    y1 = std::max(y1, y + k_reach);
  }
  [[nodiscard]] bool meets(const box& o) const { return x0 <= o.x1 && o.x0 <= x1 && y0 <= o.y1 && o.y0 <= y1; }
};

// A toy particle: a walk of k_reach steps from its start cell, each step
// hashed from the cell it stands on, multiplying and adding into the cells
// (an order-dependent history), never beyond its reach or the grid.
void walk(std::vector<float>& grid, const particle_start& s) {
  int x = static_cast<int>(s.x), y = static_cast<int>(s.y);
  for (int step = 0; step < k_reach; ++step) {
    float& cell = grid[static_cast<std::size_t>(y * k_width + x)];
    cell = cell * 0.75f + 1.0f;
    const std::uint64_t bits = hash64(static_cast<std::uint64_t>(cell * 1000.0f), static_cast<std::uint64_t>(x),
                                      static_cast<std::uint64_t>(y));
    x = std::clamp(x + static_cast<int>(bits % 3) - 1, 0, k_width - 1);
    y = std::clamp(y + static_cast<int>((bits >> 8) % 3) - 1, 0, k_height - 1);
  }
}

std::vector<float> walk_all(int threads) {
  std::vector<float> grid(static_cast<std::size_t>(k_width * k_height), 0.0f);
  particle_hooks hooks;
  hooks.spawn = [](std::uint64_t first, std::span<particle_start> starts) {
    for (std::size_t k = 0; k < starts.size(); ++k) {
      // Starts that crowd into the same cells, so that particles collide.
      const std::uint64_t bits = hash64(9, first + k);
      starts[k] = {static_cast<float>(bits % 40) + 80.5f, static_cast<float>((bits >> 20) % 40) + 50.5f};
    }
  };
  hooks.work = [&](particle_tile_queue& queue) {
    while (const particle_tile* tile = queue.take())
      for (const particle_start* s = tile->begin; s != tile->end; ++s) walk(grid, *s);
  };
  particle_scheduler(schedule(20000, threads)).run(hooks);
  return grid;
}

}  // namespace

TEST_CASE("particle_scheduler: tiles of one colour never reach the same cells", "[core][particle_scheduler]") {
  std::mutex mutex;
  std::vector<box> boxes;  // this phase's tiles
  int phases = 0;
  particle_hooks hooks;
  hooks.spawn = spawn_cells;
  hooks.work = [&](particle_tile_queue& queue) {
    while (const particle_tile* tile = queue.take()) {
      if (tile->begin == tile->end) continue;
      box b;
      for (const particle_start* s = tile->begin; s != tile->end; ++s)
        b.add(static_cast<int>(s->x), static_cast<int>(s->y));
      const std::lock_guard lock(mutex);
      boxes.push_back(b);
    }
  };
  hooks.progress = [&](double) {
    for (std::size_t i = 0; i < boxes.size(); ++i)
      for (std::size_t j = i + 1; j < boxes.size(); ++j) REQUIRE_FALSE(boxes[i].meets(boxes[j]));
    CHECK(boxes.size() > 4);
    boxes.clear();
    ++phases;
  };
  const particle_scheduler scheduler(schedule(10000, 2));
  CHECK(scheduler.tile_size() == 2 * k_reach);
  CHECK(scheduler.rounds() == 4);
  scheduler.run(hooks);
  CHECK(phases == 16);
}

TEST_CASE("particle_scheduler: every particle runs once, in index order within its tile",
          "[core][particle_scheduler]") {
  const std::uint64_t total = 10000;
  std::vector<int> runs(total, 0);
  std::vector<std::uint64_t> index_of(static_cast<std::size_t>(k_width * k_height));
  std::uint64_t round_first = 0;
  std::mutex mutex;
  bool in_order = true;
  particle_hooks hooks;
  hooks.spawn = [&](std::uint64_t first, std::span<particle_start> starts) {
    spawn_cells(first, starts);
    round_first = first;
    for (std::size_t k = 0; k < starts.size(); ++k)
      index_of[static_cast<std::size_t>(start_cell(first + k))] = first + k;
  };
  hooks.work = [&](particle_tile_queue& queue) {
    while (const particle_tile* tile = queue.take()) {
      std::uint64_t previous = 0;
      for (const particle_start* s = tile->begin; s != tile->end; ++s) {
        const std::uint64_t k =
            index_of[static_cast<std::size_t>(static_cast<int>(s->y) * k_width + static_cast<int>(s->x))];
        const std::lock_guard lock(mutex);
        if (s != tile->begin && k <= previous) in_order = false;
        if (k < round_first) in_order = false;  // a particle of an earlier round
        previous = k;
        ++runs[k];
      }
    }
  };
  particle_scheduler(schedule(total, 8)).run(hooks);
  CHECK(in_order);
  CHECK(std::all_of(runs.begin(), runs.end(), [](int n) { return n == 1; }));
}

TEST_CASE("particle_scheduler: the same bytes on 1, 2 and 8 threads", "[core][particle_scheduler]") {
  const std::vector<float> serial = walk_all(1);
  CHECK(std::any_of(serial.begin(), serial.end(), [](float v) { return v > 1.0f; }));  // particles did collide
  for (const int threads : {2, 8}) {
    INFO("threads " << threads);
    const std::vector<float> parallel = walk_all(threads);
    CHECK(std::memcmp(serial.data(), parallel.data(), serial.size() * sizeof(float)) == 0);
  }
}

TEST_CASE("particle_scheduler: rejects bad schedules and starts off the grid", "[core][particle_scheduler]") {
  particle_schedule s = schedule(10, 1);
  s.reach = 0;
  CHECK_THROWS_WITH(particle_scheduler(s), "particle_scheduler: reach 0, must be in [1, 2^29]");
  s = schedule(10, 1);
  s.per_round = 0;
  CHECK_THROWS_WITH(particle_scheduler(s), "particle_scheduler: per_round 0, must be >= 1");
  s = schedule(10, 1);
  s.width = 0;
  CHECK_THROWS_WITH(particle_scheduler(s), "particle_scheduler: grid 0 x 150, must be at least 1 x 1");
  particle_hooks hooks;
  hooks.spawn = [](std::uint64_t, std::span<particle_start> starts) {
    std::fill(starts.begin(), starts.end(), particle_start{200.0f, 3.0f});
  };
  hooks.work = [](particle_tile_queue&) {};
  CHECK_THROWS_AS(particle_scheduler(schedule(10, 1)).run(hooks), std::invalid_argument);
}

TEST_CASE("particle_scheduler: a worker's cancelled_error ends the run", "[core][particle_scheduler]") {
  const std::function<bool()> stop = [] { return true; };
  int phases = 0;
  particle_hooks hooks;
  hooks.spawn = spawn_cells;
  hooks.work = [](particle_tile_queue& queue) {
    if (queue.stop_requested()) throw cancelled_error();
  };
  hooks.progress = [&](double) { ++phases; };
  hooks.stop = &stop;
  CHECK_THROWS_AS(particle_scheduler(schedule(10000, 2)).run(hooks), cancelled_error);
  CHECK(phases == 0);
}
