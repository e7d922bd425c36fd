// Unit tests for the `value_noise` generator: seed 001's multi-resolution passes against a literal transcription of the
// original loop, the automatic pass count, ranges over millions of points
// (negative and ~1e6 coordinates), fBm ranges for every interpolation,
// continuity, determinism across thread counts, seed sensitivity, region
// consistency and parameter errors.

#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <vector>

#include "landform/core/rng.hpp"
#include "landform/noise/value.hpp"
#include "landform/stages/value_noise.hpp"
#include "unit/stage_checks.hpp"

namespace {

using namespace landform;
using namespace landform_test;
using P = value_noise_params;

// The lattice contract: layer k's value at (ix, iy) is the top 24 bits of
// xxHash32(iy, ix) (test_value_lattice.cpp checks noise::value_hash against
// the specification) under the 32-bit fold of hash64(seed, k), in [0, 1)
// (multiresolution) or [-1, 1) (fbm).
std::uint32_t lattice_hash(std::uint64_t seed, int k, std::int64_t ix, std::int64_t iy) {
  return noise::value_hash(noise::value_seed32(static_cast<std::int64_t>(hash64(seed, static_cast<std::uint64_t>(k)))),
                           static_cast<std::int32_t>(ix), static_cast<std::int32_t>(iy));
}

double lattice_value(std::uint64_t seed, int k, std::int64_t ix, std::int64_t iy) {
  return static_cast<double>(lattice_hash(seed, k, ix, iy) >> 8) / 16777216.0;
}

double signed_lattice_value(std::uint64_t seed, int k, std::int64_t ix, std::int64_t iy) {
  const auto h = static_cast<std::int32_t>(lattice_hash(seed, k, ix, iy));
  return static_cast<double>(h >> 8) / 8388608.0;
}

// Seed document 001's Generate_Heightmap(), transcribed loop for loop
// (including its float step accumulation), with Rnd#(0, Max) replaced by
// Max * lattice value.
std::vector<double> seed_001_reference(int size, double scale, double multiplier, std::uint64_t seed) {
  std::vector<double> height(static_cast<std::size_t>(size) * size);
  double max_height = scale;
  for (int y = 0; y < size; ++y)
    for (int x = 0; x < size; ++x)
      height[static_cast<std::size_t>(y) * size + x] = max_height * lattice_value(seed, 0, x, y);
  int noise_size = size / 2;
  max_height *= multiplier;
  int pass = 1;
  do {
    const int diff = size / noise_size;
    const float step = 1.0f / static_cast<float>(diff);
    for (int ny = 0; ny < noise_size; ++ny) {
      for (int nx = 0; nx < noise_size; ++nx) {
        const double n1 = max_height * lattice_value(seed, pass, nx, ny);
        const double n2 = max_height * lattice_value(seed, pass, nx + 1, ny);
        const double n3 = max_height * lattice_value(seed, pass, nx, ny + 1);
        const double n4 = max_height * lattice_value(seed, pass, nx + 1, ny + 1);
        float iy = 0.0f;
        for (int hy = 0; hy < diff; ++hy) {
          const double icy = 1.0 - ((std::cos(iy * std::numbers::pi) + 1.0) / 2.0);
          float ix = 0.0f;
          for (int hx = 0; hx < diff; ++hx) {
            const double icx = 1.0 - ((std::cos(ix * std::numbers::pi) + 1.0) / 2.0);
            const double na = n1 * (1.0 - icx), nb = n2 * icx, nc = n3 * (1.0 - icx), nd = n4 * icx;
            height[static_cast<std::size_t>(ny * diff + hy) * size + static_cast<std::size_t>(nx * diff + hx)] +=
                (na + nb) * (1.0 - icy) + (nc + nd) * icy;
            ix += step;
          }
          iy += step;
        }
      }
    }
    noise_size /= 2;
    max_height *= multiplier;
    ++pass;
  } while (noise_size > 1);
  return height;
}

}  // namespace

TEST_CASE("value_noise: multiresolution reproduces seed 001's loop", "[stages][value_noise]") {
  const int size = 64;
  const double multiplier = GENERATE(2.0, 1.5);
  heightfield h = field_at(size, size, 0, 0);
  P p;
  p.multiplier = multiplier;
  const std::uint64_t seed = 2003;
  apply_value_noise(h, p, context_for(h, seed));
  REQUIRE(value_noise_passes(p, context_for(h, seed).world, 1.0) == 6);
  const std::vector<double> expected = seed_001_reference(size, 0.25, multiplier, seed);
  double worst = 0.0;
  for (std::size_t k = 0; k < expected.size(); ++k) worst = std::max(worst, std::abs(h.values()[k] - expected[k]));
  // The original accumulates its interpolation position in float.
  CHECK(worst < 1e-4);
}

TEST_CASE("value_noise: automatic pass count follows the world", "[stages][value_noise]") {
  P p;
  CHECK(value_noise_passes(p, {0, 0, 1024, 1024}, 1.0) == 10);  // the seed's 1024 map: 10 passes
  CHECK(value_noise_passes(p, {0, 0, 1000, 600}, 1.0) == 9);
  CHECK(value_noise_passes(p, {0, 0, 256, 256}, 2.0) == 9);  // 512 world units
  CHECK(value_noise_passes(p, {0, 0, 1, 1}, 1.0) == 1);
  p.spacing = 4.0;
  CHECK(value_noise_passes(p, {0, 0, 1024, 1024}, 1.0) == 8);
  p.passes = 3;
  CHECK(value_noise_passes(p, {0, 0, 1024, 1024}, 1.0) == 3);
}

TEST_CASE("value_noise: the seed's defaults span [0, 255.75] in a 1024 world", "[stages][value_noise]") {
  // Sample a 1024-cell world (10 passes) in strips: mean near the middle.
  P p;
  heightfield h = field_at(1024, 64, 0, 480);
  stage_context ctx = context_for(h, 5);
  ctx.world = {0, 0, 1024, 1024};
  apply_value_noise(h, p, ctx);
  const auto [lo, hi] = finite_range(h);
  CHECK(lo >= 0.0f);
  CHECK(hi <= 255.75f);
  double mean = 0.0;
  for (float v : h.values()) mean += v;
  mean /= static_cast<double>(h.size());
  CHECK(mean > 60.0);
  CHECK(mean < 200.0);
}

TEST_CASE("value_noise: documented ranges hold over millions of points", "[stages][value_noise]") {
  const auto interp =
      GENERATE(P::interpolation_kind::linear, P::interpolation_kind::cosine, P::interpolation_kind::cubic,
               P::interpolation_kind::quintic, P::interpolation_kind::catmull_rom);
  for (const auto& [ox, oy] : range_origins()) {
    INFO("origin " << ox << ", " << oy);
    heightfield h = field_at(192, 192, ox, oy, 0.75);
    P p;
    p.interpolation = interp;
    p.passes = 7;
    apply_value_noise(h, p, context_for(h, 11));
    auto [lo, hi] = finite_range(h);
    CHECK(lo >= 0.0f);
    CHECK(hi <= static_cast<float>(0.25 * 127));
    p.normalize = true;
    apply_value_noise(h, p, context_for(h, 11));
    std::tie(lo, hi) = finite_range(h);
    CHECK(lo >= 0.0f);
    CHECK(hi <= 1.0f);
    CHECK(hi - lo > 0.2f);

    P f;
    f.mode = P::mode_kind::fbm;
    f.interpolation = interp;
    f.feature_size = 40.0;
    f.octaves = 5;
    f.gain = 0.6;
    f.amplitude = 2.0;
    apply_value_noise(h, f, context_for(h, 12));
    std::tie(lo, hi) = finite_range(h);
    const double bound = 2.0 * (1.0 - std::pow(0.6, 5)) / (1.0 - 0.6);
    CHECK(lo >= -bound);
    CHECK(hi <= bound);
    CHECK(hi - lo > 0.5);
  }
}

TEST_CASE("value_noise: fbm octave 1 interpolates lattice values exactly at lattice points", "[stages][value_noise]") {
  heightfield h = field_at(64, 64, -32, -32);
  P p;
  p.mode = P::mode_kind::fbm;
  p.octaves = 1;
  p.feature_size = 8.0;
  p.interpolation = P::interpolation_kind::quintic;
  apply_value_noise(h, p, context_for(h, 99));
  for (int j = 0; j < 64; j += 8)
    for (int i = 0; i < 64; i += 8) {
      const std::int64_t ix = (-32 + i) / 8, iy = (-32 + j) / 8;
      REQUIRE(h.at(i, j) == static_cast<float>(signed_lattice_value(99, 0, ix, iy)));
    }
}

TEST_CASE("value_noise: deterministic, seed-sensitive and region-consistent", "[stages][value_noise][determinism]") {
  const json stage =
      GENERATE(json{{"type", "value_noise"}},
               json{{"type", "value_noise"}, {"mode", "fbm"}, {"feature_size", 30}, {"interpolation", "catmull_rom"}},
               json{{"type", "value_noise"}, {"mode", "fbm"}, {"feature_size", 7}, {"octaves", 9}},
               json{{"type", "value_noise"}, {"spacing", 3.5}, {"interpolation", "quintic"}});
  INFO(stage.dump());
  const json stages = json::array({stage});
  require_thread_independent(stages);
  require_seed_sensitive(stages);
  require_region_consistent(stages);
}

TEST_CASE("value_noise: out-of-range parameters name their JSON path", "[stages][value_noise][errors]") {
  require_rejected({{"type", "value_noise"}, {"scale", 0}}, "stages[0] (value_noise).scale: 0 must be greater than 0");
  require_rejected({{"type", "value_noise"}, {"passes", 41}},
                   "stages[0] (value_noise).passes: 41 is above the maximum 40");
  require_rejected({{"type", "value_noise"}, {"gain", -0.1}},
                   "stages[0] (value_noise).gain: -0.1 is below the minimum 0");
  require_rejected({{"type", "value_noise"}, {"interpolation", "cubc"}},
                   "stages[0] (value_noise).interpolation: \"cubc\" is not one of cosine | linear | cubic | quintic | "
                   "catmull_rom; did you mean \"cubic\"?");
}

TEST_CASE("value_noise: fbm is continuous: neighbours within the Lipschitz bound", "[stages][value_noise]") {
  // Per noise unit along x a sample moves by at most max fade' * |c1 - c0|
  // with |c1 - c0| <= 2: 2 (linear), 3 (cubic), 15/8 * 2 (quintic), pi
  // (cosine). Octave k adds a_k f_k times that per world unit.
  const auto [interp, fade_slope] =
      GENERATE(std::pair{P::interpolation_kind::linear, 2.0}, std::pair{P::interpolation_kind::cubic, 3.0},
               std::pair{P::interpolation_kind::quintic, 3.75}, std::pair{P::interpolation_kind::cosine, 3.1416});
  P p;
  p.mode = P::mode_kind::fbm;
  p.interpolation = interp;
  p.feature_size = 256.0;
  double slope = 0.0;
  for (int k = 0; k < p.octaves; ++k) slope += std::pow(0.5, k) * std::pow(2.0, k) / 256.0;
  const double step_bound = fade_slope * slope * 2.0 + 1e-5;  // cell size 2
  double largest = 0.0;
  for (const auto& [ox, oy] : range_origins()) {
    heightfield h = field_at(300, 40, ox, oy, 2.0);
    apply_value_noise(h, p, context_for(h, 31));
    for (int j = 0; j < h.height(); ++j)
      for (int i = 1; i < h.width(); ++i) largest = std::max(largest, std::abs(double(h.at(i, j)) - h.at(i - 1, j)));
  }
  CHECK(largest <= step_bound);
  CHECK(largest > step_bound / 20.0);  // not flat
}

TEST_CASE("value_noise: lattice coordinates beyond the 32-bit lattice are refused", "[stages][value_noise][errors]") {
  heightfield h = field_at(8, 8, 2000000000, 0);
  P p;
  p.mode = P::mode_kind::fbm;
  p.feature_size = 1.0;
  CHECK_THROWS_WITH(apply_value_noise(h, p, context_for(h, 1)),
                    Catch::Contains("value noise lattice coordinates reach 2e+09, beyond the 1e9"));
}
