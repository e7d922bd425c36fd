// Unit tests for the core: heightfield construction and crop, the
// counter-based RNG, and parallel_rows.

#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <set>
#include <stdexcept>
#include <vector>

#include "landform/core/heightfield.hpp"
#include "landform/core/parallel.hpp"
#include "landform/core/rng.hpp"

namespace {

using namespace landform;

region make_region(int w, int h, std::int64_t ox = 0, std::int64_t oy = 0, double cell = 1.0) {
  region r;
  r.width = w;
  r.height = h;
  r.origin_x = ox;
  r.origin_y = oy;
  r.cell_size = cell;
  return r;
}

}  // namespace

TEST_CASE("core: heightfield construction, layout and world coordinates", "[stages][core]") {
  heightfield h(make_region(5, 3, -10, 7, 2.5), 1.5f);
  CHECK(h.width() == 5);
  CHECK(h.height() == 3);
  CHECK(h.size() == 15);
  for (float v : h.values()) REQUIRE(v == 1.5f);
  h.at(3, 2) = 9.0f;
  CHECK(h.data()[2 * 5 + 3] == 9.0f);
  CHECK(h.row(2)[3] == 9.0f);
  CHECK(h.placement().world_x(0) == -25.0);
  CHECK(h.placement().world_x(4) == -15.0);
  CHECK(h.placement().world_y(2) == 22.5);
}

TEST_CASE("core: heightfield rejects non-positive sizes and cell sizes", "[stages][core]") {
  CHECK_THROWS_AS(heightfield(make_region(0, 4)), std::invalid_argument);
  CHECK_THROWS_AS(heightfield(make_region(4, 0)), std::invalid_argument);
  CHECK_THROWS_AS(heightfield(make_region(-3, 4)), std::invalid_argument);
  CHECK_THROWS_AS(heightfield(make_region(4, -1)), std::invalid_argument);
  CHECK_THROWS_AS(heightfield(make_region(4, 4, 0, 0, 0.0)), std::invalid_argument);
  CHECK_THROWS_AS(heightfield(make_region(4, 4, 0, 0, -1.0)), std::invalid_argument);
  CHECK_THROWS_AS(heightfield(make_region(4, 4, 0, 0, std::nan(""))), std::invalid_argument);
  CHECK_NOTHROW(heightfield(make_region(1, 1)));
}

TEST_CASE("core: heightfield crop copies the window and places it in the world", "[stages][core]") {
  heightfield h(make_region(8, 6, 100, -20, 0.5));
  for (int j = 0; j < 6; ++j)
    for (int i = 0; i < 8; ++i) h.at(i, j) = static_cast<float>(10 * j + i);
  const heightfield c = h.crop(3, 2, 4, 3);
  CHECK(c.width() == 4);
  CHECK(c.height() == 3);
  CHECK(c.placement().origin_x == 103);
  CHECK(c.placement().origin_y == -18);
  CHECK(c.placement().cell_size == 0.5);
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 4; ++i) REQUIRE(c.at(i, j) == static_cast<float>(10 * (j + 2) + (i + 3)));
  // World coordinates of a cell are the same in the crop and in the original.
  CHECK(c.placement().world_x(1) == h.placement().world_x(4));
  CHECK(c.placement().world_y(2) == h.placement().world_y(4));
  // The whole field and single cells are valid windows.
  CHECK(h.crop(0, 0, 8, 6).values() == h.values());
  CHECK(h.crop(7, 5, 1, 1).at(0, 0) == 57.0f);
}

TEST_CASE("core: heightfield crop rejects windows that do not fit", "[stages][core]") {
  const heightfield h(make_region(8, 6));
  CHECK_THROWS_AS(h.crop(-1, 0, 2, 2), std::out_of_range);
  CHECK_THROWS_AS(h.crop(0, -1, 2, 2), std::out_of_range);
  CHECK_THROWS_AS(h.crop(7, 0, 2, 2), std::out_of_range);
  CHECK_THROWS_AS(h.crop(0, 5, 2, 2), std::out_of_range);
  CHECK_THROWS_AS(h.crop(0, 0, 9, 6), std::out_of_range);
  CHECK_THROWS_AS(h.crop(0, 0, 8, 7), std::out_of_range);
  CHECK_THROWS_AS(h.crop(2, 2, 0, 2), std::out_of_range);
  CHECK_THROWS_AS(h.crop(2, 2, 2, 0), std::out_of_range);
  CHECK_THROWS_AS(h.crop(2, 2, -1, 2), std::out_of_range);
}

TEST_CASE("core: hash64 is deterministic and sensitive to every input", "[stages][core]") {
  constexpr std::uint64_t h = hash64(1, 2, 3, 4);
  static_assert(h == hash64(1, 2, 3, 4));
  CHECK(hash64(1, 2, 3, 4) == h);
  CHECK(hash64(0, 2, 3, 4) != h);
  CHECK(hash64(1, 0, 3, 4) != h);
  CHECK(hash64(1, 2, 0, 4) != h);
  CHECK(hash64(1, 2, 3, 0) != h);
  CHECK(hash64(1, 3, 2, 4) != h);  // order matters
  CHECK(hash64(7, 5) == hash64(7, 5, 0, 0));
  // No collisions over a small grid of inputs.
  std::set<std::uint64_t> seen;
  for (std::uint64_t s = 0; s < 8; ++s)
    for (std::uint64_t a = 0; a < 32; ++a)
      for (std::uint64_t b = 0; b < 32; ++b) seen.insert(hash64(s, a, b));
  CHECK(seen.size() == 8u * 32u * 32u);
  // mix64 is the SplitMix64 finaliser: known value for input 0 after one
  // golden-ratio increment (the first output of SplitMix64 seeded with 0).
  CHECK(mix64(0x9e3779b97f4a7c15ULL) == 0xe220a8397b1dcdafULL);
  CHECK(hash_string("opensimplex#0") != hash_string("opensimplex#1"));
  CHECK(hash_string("") == 0xcbf29ce484222325ULL);
  CHECK(hash_string("a") == 0xaf63dc4c8601ec8cULL);  // FNV-1a 64 test vector
}

TEST_CASE("core: unit_float and unit_double are uniform in [0, 1)", "[stages][core]") {
  CHECK(unit_float(0) == 0.0f);
  CHECK(unit_float(~std::uint64_t{0}) < 1.0f);
  CHECK(unit_float(~std::uint64_t{0}) == 1.0f - 1.0f / 16777216.0f);
  CHECK(unit_double(~std::uint64_t{0}) < 1.0);
  const int n = 200000;
  double sum = 0.0, sum2 = 0.0;
  int buckets[10] = {};
  for (int k = 0; k < n; ++k) {
    const float u = unit_float(hash64(42, static_cast<std::uint64_t>(k)));
    REQUIRE(u >= 0.0f);
    REQUIRE(u < 1.0f);
    sum += u;
    sum2 += static_cast<double>(u) * u;
    ++buckets[static_cast<int>(u * 10.0f)];
    const double d = unit_double(hash64(43, static_cast<std::uint64_t>(k)));
    REQUIRE(d >= 0.0);
    REQUIRE(d < 1.0);
  }
  const double mean = sum / n;
  CHECK(mean == Approx(0.5).margin(0.005));
  CHECK(sum2 / n - mean * mean == Approx(1.0 / 12.0).margin(0.002));
  for (int b : buckets) CHECK(std::abs(b - n / 10) < n / 100);
}

TEST_CASE("core: parallel_rows covers every row exactly once", "[stages][core]") {
  const int nthreads = GENERATE(0, 1, 2, 8);
  for (int rows = 1; rows <= 100; ++rows) {
    std::vector<std::atomic<int>> visits(static_cast<std::size_t>(rows));
    std::atomic<int> bad_blocks{0};
    parallel_rows(rows, nthreads, [&](int begin, int end) {
      if (begin < 0 || end > rows || begin >= end) ++bad_blocks;
      for (int r = begin; r < end; ++r) visits[static_cast<std::size_t>(r)]++;
    });
    INFO("rows " << rows << " nthreads " << nthreads);
    REQUIRE(bad_blocks == 0);
    for (int r = 0; r < rows; ++r) REQUIRE(visits[static_cast<std::size_t>(r)] == 1);
  }
}

TEST_CASE("core: parallel_rows blocks do not depend on the thread count", "[stages][core]") {
  auto blocks_for = [](int rows, int nthreads) {
    std::mutex m;
    std::set<std::pair<int, int>> blocks;
    parallel_rows(rows, nthreads, [&](int b, int e) {
      std::lock_guard lock(m);
      blocks.insert({b, e});
    });
    return blocks;
  };
  // Parallel runs use the same blocks for any thread count, and they tile
  // [0, rows) in order without gaps or overlaps.
  for (int rows : {9, 37, 100}) {
    const auto b2 = blocks_for(rows, 2);
    CHECK(b2 == blocks_for(rows, 3));
    CHECK(b2 == blocks_for(rows, 8));
    CHECK(b2.size() > 1);
    int next = 0;
    for (const auto& [b, e] : b2) {
      CHECK(b == next);
      next = e;
    }
    CHECK(next == rows);
  }
}

TEST_CASE("core: parallel_rows with no rows does nothing", "[stages][core]") {
  int calls = 0;
  parallel_rows(0, 4, [&](int, int) { ++calls; });
  parallel_rows(-5, 1, [&](int, int) { ++calls; });
  CHECK(calls == 0);
}

TEST_CASE("core: parallel_rows rethrows an exception thrown in a block", "[stages][core]") {
  const int nthreads = GENERATE(0, 1, 2, 8);
  const int rows = GENERATE(1, 9, 64);
  std::atomic<int> after{0};
  INFO("nthreads " << nthreads << " rows " << rows);
  CHECK_THROWS_WITH(parallel_rows(rows, nthreads,
                                  [&](int begin, int end) {
                                    if (begin <= rows / 2 && rows / 2 < end) throw std::runtime_error("row failed");
                                    ++after;
                                  }),
                    "row failed");
  // The caller can go on using parallel_rows afterwards.
  int total = 0;
  parallel_rows(rows, nthreads, [&](int b, int e) {
    static std::mutex m;
    std::lock_guard lock(m);
    total += e - b;
  });
  CHECK(total == rows);
}

TEST_CASE("core: set_default_threads caps what 0 threads means", "[core]") {
  const int all = resolve_threads(0);
  REQUIRE(all >= 1);
  set_default_threads(3);
  CHECK(resolve_threads(0) == 3);
  CHECK(resolve_threads(5) == 5);  // an explicit request still wins
  CHECK(resolve_threads(1) == 1);
  set_default_threads(0);
  CHECK(resolve_threads(0) == all);
}
