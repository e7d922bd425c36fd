// The SIMD rows of the legacy OpenSimplex noise (eval_row) against the scalar
// eval, bit for bit, on every Highway target this CPU allows: random rows,
// negative coordinates, row lengths that leave a scalar tail, and points on
// lattice and region boundaries (coordinates in sixths and thirds, where the
// stretched coordinates are exact integers and the region tests tie).

#include <catch2/catch.hpp>

#include <hwy/targets.h>

#include <bit>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "landform/noise/open_simplex_legacy.hpp"
#include "landform/noise/opensimplex2.hpp"

namespace {

using landform::open_simplex_legacy;

// Restores runtime dispatch to the CPU's own choice when a test ends.
struct target_mock_reset {
  ~target_mock_reset() { hwy::SetSupportedTargetsForTest(0); }
};

struct row {
  std::vector<double> x;
  double y = 0, z = 0;
};

// Rows of every kind, reproducible (fixed engine seed).
std::vector<row> test_rows() {
  std::mt19937_64 rng(20141201);
  std::uniform_real_distribution<double> any(-400.0, 400.0);
  std::vector<row> rows;
  for (int r = 0; r < 60; ++r) {
    row w;
    const int n = r % 37;  // 0 .. 36: empty rows, tails of every length
    const double y = any(rng), z = any(rng), x0 = any(rng);
    switch (r % 4) {
      case 0:  // random points
        for (int i = 0; i < n; ++i) w.x.push_back(any(rng));
        w.y = y;
        w.z = z;
        break;
      case 1:  // a stage row: consecutive cells at a coarse frequency
        for (int i = 0; i < n; ++i) w.x.push_back((x0 + i) / 64.0);
        w.y = y / 64.0;
        w.z = 0.0;
        break;
      case 2:  // sixths and thirds: exact lattice points and region ties
        for (int i = 0; i < n; ++i) w.x.push_back(static_cast<double>(i - 18) / 6.0);
        w.y = static_cast<double>(r % 7 - 3) / 3.0;
        w.z = static_cast<double>(r % 5 - 2) / 6.0;
        break;
      default:  // a fine octave: cells one noise unit apart, negative
        for (int i = 0; i < n; ++i) w.x.push_back(-x0 - 0.5 * i);
        w.y = -y;
        w.z = z;
        break;
    }
    rows.push_back(w);
  }
  row zeros;  // the origin, with a signed zero
  zeros.x = {0.0, -0.0, 0.0, -0.0, 0.0, -0.0, 0.0, -0.0, 1.0, -1.0};
  rows.push_back(zeros);
  return rows;
}

// Counts the lanes that differ from the scalar eval (3D, or 2D if !three).
int mismatches(const open_simplex_legacy& noise, const row& w, bool three, int& nonzero) {
  const auto n = static_cast<int>(w.x.size());
  std::vector<double> out(w.x.size(), 99.0);
  if (three) {
    noise.eval_row(w.x.data(), w.y, w.z, n, out.data());
  } else {
    noise.eval_row(w.x.data(), w.y, n, out.data());
  }
  int bad = 0;
  for (std::size_t i = 0; i < w.x.size(); ++i) {
    const double expected = three ? noise.eval(w.x[i], w.y, w.z) : noise.eval(w.x[i], w.y);
    if (std::bit_cast<std::uint64_t>(out[i]) != std::bit_cast<std::uint64_t>(expected)) {
      UNSCOPED_INFO((three ? "3D" : "2D")
                    << " x " << w.x[i] << " y " << w.y << " z " << w.z << " row " << out[i] << " eval " << expected);
      ++bad;
    }
    nonzero += expected != 0.0;
  }
  return bad;
}

}  // namespace

TEST_CASE("open_simplex_legacy: eval_row equals eval bit for bit on every dispatch target",
          "[noise][opensimplex][simd]") {
  const target_mock_reset reset;
  const std::vector<std::int64_t> targets = hwy::SupportedAndGeneratedTargets();
  const std::vector<row> rows = test_rows();
  std::string tested;
  for (const std::int64_t target : targets) {
    hwy::SetSupportedTargetsForTest(target);
    REQUIRE(landform::noise::simd_target_name() == hwy::TargetName(target));
    tested += std::string(hwy::TargetName(target)) + " ";
    for (const std::int64_t seed : {std::int64_t{0}, std::int64_t{1234}, std::int64_t{-987654321}}) {
      const open_simplex_legacy noise(seed);
      int nonzero = 0, bad = 0;
      for (const row& w : rows) bad += mismatches(noise, w, true, nonzero) + mismatches(noise, w, false, nonzero);
      INFO("target " << hwy::TargetName(target) << " seed " << seed);
      CHECK(bad == 0);
      CHECK(nonzero > 1500);  // not a comparison of zeros
    }
  }
  INFO("targets tested: " << tested);
  CHECK(targets.size() >= 2);  // at least the emulated fallback and one SIMD target on x86-64
  WARN("legacy opensimplex eval_row bit-identity checked on: " << tested);
}

TEST_CASE("open_simplex_legacy: long 3D rows whose samples wait in region queues equal eval on every target",
          "[noise][opensimplex][simd]") {
  // At fine octaves most vectors span several regions of their cells; the
  // kernel queues their samples by region and evaluates them later, in other
  // vectors, carrying partial queues across the row. Stage-like rows of
  // every octave of a 6-octave fBm (period 64 down to 2), with lengths that
  // leave partial queues and a scalar tail.
  const target_mock_reset reset;
  const open_simplex_legacy noise(77);
  for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    for (const double period : {64.0, 16.0, 4.0, 2.0, 1.5}) {
      for (const int n : {1000, 1003}) {
        row w;
        for (int i = 0; i < n; ++i) w.x.push_back((i - 300) / period);
        w.y = 417.0 / period;
        w.z = 0.25;
        int nonzero = 0;
        INFO("target " << hwy::TargetName(target) << " period " << period << " n " << n);
        CHECK(mismatches(noise, w, true, nonzero) == 0);
        CHECK(nonzero > n / 2);
      }
    }
  }
}
