// The lakes' flood of route_depression_free_d8 (derive/lake_flood): split
// into shards and run on several threads, it must give the heights of one
// flood with one queue (shards = 1), for any labelling of the lakes' basins.

#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "derive/lake_flood.hpp"
#include "derive/priority_flood.hpp"
#include "landform/core/rng.hpp"

namespace {

struct lakes {
  std::vector<double> z;
  std::vector<std::uint8_t> region;
  std::vector<std::uint32_t> basin;
  std::uint32_t basins = 0;
};

// Noise heights quantised to few levels (many ties, so the queue's order
// among equal heights matters); the lakes are the interior cells below
// `level`, their basins blocks of `block` x `block` cells (basin 0 elsewhere),
// so lakes of neighbouring blocks touch and must share a shard.
lakes make_lakes(int w, int h, std::uint64_t seed, double level, int block) {
  lakes l;
  const auto n = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
  l.z.resize(n);
  l.region.assign(n, 0);
  l.basin.assign(n, 0);
  const int blocks_x = (w + block - 1) / block;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const auto c = static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x);
      l.z[c] =
          static_cast<double>(landform::hash64(seed, static_cast<std::uint64_t>(x), static_cast<std::uint64_t>(y)) % 8);
      const bool interior = x > 0 && y > 0 && x < w - 1 && y < h - 1;
      if (interior && l.z[c] < level) {
        l.region[c] = 1;
        l.basin[c] = static_cast<std::uint32_t>(1 + (y / block) * blocks_x + x / block);
        l.basins = std::max(l.basins, l.basin[c]);
      }
    }
  }
  return l;
}

}  // namespace

TEST_CASE("flood_lakes: any shard count and thread count give the single-queue flood", "[flow][lake_flood]") {
  for (const int block : {3, 8, 64}) {
    for (const double level : {2.0, 5.0}) {
      INFO("block " << block << ", level " << level);
      lakes serial = make_lakes(61, 47, 9, level, block);
      const std::vector<double> before = serial.z;
      const std::size_t raised =
          landform::detail::flood_lakes(serial.z, 61, 47, serial.region.data(), serial.basin, serial.basins, 1, 1);
      REQUIRE(raised > 0);
      REQUIRE(serial.z != before);
      for (const int shards : {2, 5, 32, 255}) {
        for (const int threads : {1, 2, 8}) {
          INFO(shards << " shards, " << threads << " threads");
          lakes sharded = make_lakes(61, 47, 9, level, block);
          REQUIRE(landform::detail::flood_lakes(sharded.z, 61, 47, sharded.region.data(), sharded.basin, sharded.basins,
                                                threads, shards) == raised);
          REQUIRE(sharded.z == serial.z);
        }
      }
    }
  }
}

TEST_CASE("flood_lakes: a flooded cell has a strictly lower neighbour outside or inside the lake",
          "[flow][lake_flood]") {
  const int w = 40, h = 30;
  lakes l = make_lakes(w, h, 3, 5.0, 6);
  const std::vector<std::uint8_t> flagged = l.region;
  landform::detail::flood_lakes(l.z, w, h, l.region.data(), l.basin, l.basins, 2);
  for (int y = 1; y < h - 1; ++y) {
    for (int x = 1; x < w - 1; ++x) {
      const auto c = static_cast<std::size_t>(y * w + x);
      if (!flagged[c]) continue;
      REQUIRE(l.region[c] == 2);
      bool lower = false;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) lower = lower || l.z[static_cast<std::size_t>((y + dy) * w + x + dx)] < l.z[c];
      REQUIRE(lower);
    }
  }
}

TEST_CASE("priority flood: next_up is std::nextafter towards +infinity", "[flow]") {
  constexpr double inf = std::numeric_limits<double>::infinity();
  const double values[] = {0.0,
                           -0.0,
                           std::numeric_limits<double>::denorm_min(),
                           -std::numeric_limits<double>::denorm_min(),
                           std::numeric_limits<double>::min(),
                           -std::numeric_limits<double>::min(),
                           1.0,
                           -1.0,
                           0.1,
                           -1234.5678,
                           std::numeric_limits<double>::max(),
                           -std::numeric_limits<double>::max(),
                           inf,
                           -inf};
  for (const double x : values) {
    INFO(x);
    CHECK(std::bit_cast<std::uint64_t>(landform::detail::next_up(x)) ==
          std::bit_cast<std::uint64_t>(std::nextafter(x, inf)));
  }
}
