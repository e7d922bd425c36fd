#include "stages/droplet/droplet_spawn.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "landform/core/parallel.hpp"
#include "landform/core/rng.hpp"

namespace landform::droplet {

namespace {

// Streams of the stage's hash: droplet starts, high-ground acceptance.
constexpr std::uint64_t k_stream_start = 0x5354415254ULL;     // "START"
constexpr std::uint64_t k_stream_accept = 0x414343455054ULL;  // "ACCEPT"
constexpr int k_max_spawn_attempts = 8;
// Starts per parallel task, and map rows per task of the height range.
constexpr std::size_t k_spawn_block = 4096;
constexpr int k_range_rows = 64;

// A float in [0, limit), from 24 random bits.
float scaled(std::uint64_t bits, int limit) {
  const auto f = static_cast<float>(static_cast<double>(unit_float(bits)) * limit);
  return std::min(f, std::nextafter(static_cast<float>(limit), 0.0f));
}

particle_start uniform_start(std::uint64_t seed, std::uint64_t index, int w, int ht) {
  const std::uint64_t bits = hash64(seed, k_stream_start, index);
  return {scaled(bits, w - 1), scaled(bits << 32, ht - 1)};
}

// Calls fill(k) for every k in [0, n), in blocks of k_spawn_block on up to
// `nthreads` threads: each start is independent of the others.
template <class F>
void for_each_start(std::size_t n, int nthreads, F&& fill) {
  const auto blocks = static_cast<int>((n + k_spawn_block - 1) / k_spawn_block);
  parallel_tasks(blocks, nthreads, [&](int b) {
    const std::size_t k1 = std::min(n, static_cast<std::size_t>(b + 1) * k_spawn_block);
    for (std::size_t k = static_cast<std::size_t>(b) * k_spawn_block; k < k1; ++k) fill(k);
  });
}

// The map's lowest and highest height, by blocks of rows in parallel.
std::pair<float, float> height_range(const heightfield& h, int nthreads) {
  const int blocks = (h.height() + k_range_rows - 1) / k_range_rows;
  std::vector<float> block_min(static_cast<std::size_t>(blocks), std::numeric_limits<float>::infinity());
  std::vector<float> block_max(static_cast<std::size_t>(blocks), -std::numeric_limits<float>::infinity());
  const std::size_t block_cells = static_cast<std::size_t>(k_range_rows) * static_cast<std::size_t>(h.width());
  parallel_tasks(blocks, nthreads, [&](int b) {
    const std::size_t lo = static_cast<std::size_t>(b) * block_cells;
    const std::size_t hi = std::min(h.size(), lo + block_cells);
    const auto [mn, mx] = std::minmax_element(h.data() + lo, h.data() + hi);
    block_min[static_cast<std::size_t>(b)] = *mn;
    block_max[static_cast<std::size_t>(b)] = *mx;
  });
  return {*std::min_element(block_min.begin(), block_min.end()), *std::max_element(block_max.begin(), block_max.end())};
}

}  // namespace

void spawn_uniform(std::uint64_t seed, std::uint64_t first, std::span<particle_start> starts, int width, int height,
                   int nthreads) {
  for_each_start(starts.size(), nthreads,
                 [&](std::size_t k) { starts[k] = uniform_start(seed, first + k, width, height); });
}

void spawn_high_ground(const heightfield& h, std::uint64_t seed, std::uint64_t first, std::span<particle_start> starts,
                       int nthreads) {
  const int w = h.width(), ht = h.height();
  // Named copies, not a structured binding: the lambda below captures them.
  const std::pair<float, float> range = height_range(h, nthreads);
  const float lo = range.first, hi = range.second;
  const float inv_range = hi > lo ? 1.0f / (hi - lo) : 0.0f;
  for_each_start(starts.size(), nthreads, [&](std::size_t k) {
    const std::uint64_t index = first + k;
    particle_start s{};
    for (int attempt = 0; attempt < k_max_spawn_attempts; ++attempt) {
      s = uniform_start(seed, index * k_max_spawn_attempts + static_cast<std::uint64_t>(attempt), w, ht);
      const float level =
          inv_range > 0.0f ? (h.at(static_cast<int>(s.x + 0.5f), static_cast<int>(s.y + 0.5f)) - lo) * inv_range : 1.0f;
      if (unit_float(hash64(seed, k_stream_accept, index, static_cast<std::uint64_t>(attempt))) < level) break;
    }
    starts[k] = s;
  });
}

}  // namespace landform::droplet
