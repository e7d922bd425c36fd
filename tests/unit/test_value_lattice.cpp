// Unit tests of the value-noise lattice and row kernel (noise/value.hpp):
// the hash against xxHash32 written from its specification, and the SIMD
// rows against the scalar reference bit for bit on every Highway target
// this CPU can run, at every tail length.

#include <hwy/targets.h>
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

#include "landform/noise/opensimplex2.hpp"
#include "landform/noise/value.hpp"
#include "unit/bit_equal.hpp"

namespace {

using namespace landform;
using landform_test::bit_equal;

// xxHash32 of a short message (under 16 bytes), written from the
// specification (github.com/Cyan4973/xxHash, doc/xxhash_spec.md) byte by
// byte, independently of the library's two-word form.
std::uint32_t xxh32_short(const unsigned char* p, std::size_t len, std::uint32_t seed) {
  constexpr std::uint32_t p1 = 0x9E3779B1u, p2 = 0x85EBCA77u, p3 = 0xC2B2AE3Du, p4 = 0x27D4EB2Fu, p5 = 0x165667B1u;
  const auto rotl = [](std::uint32_t v, int r) { return (v << r) | (v >> (32 - r)); };
  std::uint32_t h = seed + p5 + static_cast<std::uint32_t>(len);
  std::size_t i = 0;
  for (; i + 4 <= len; i += 4) {
    const std::uint32_t w = p[i] | (p[i + 1] << 8) | (p[i + 2] << 16) | (static_cast<std::uint32_t>(p[i + 3]) << 24);
    h = rotl(h + w * p3, 17) * p4;
  }
  for (; i < len; ++i) h = rotl(h + p[i] * p5, 11) * p1;
  h ^= h >> 15;
  h *= p2;
  h ^= h >> 13;
  h *= p3;
  h ^= h >> 16;
  return h;
}

}  // namespace

TEST_CASE("value noise lattice: the lattice hash is xxHash32 of (iy, ix)", "[noise][value_noise]") {
  // The specification's test values for the byte-by-byte reference.
  const auto text = [](const char* t) { return reinterpret_cast<const unsigned char*>(t); };
  CHECK(xxh32_short(text(""), 0, 0) == 0x02CC5D05u);
  CHECK(xxh32_short(text("abc"), 3, 0) == 0x32D153FFu);
  for (const std::uint32_t seed : {0u, 1u, 0xDEADBEEFu})
    for (const std::int32_t ix : {0, 1, -1, 123456, -987654321})
      for (const std::int32_t iy : {0, 7, -2, 2147483647}) {
        unsigned char message[8];
        std::memcpy(message, &iy, 4);  // little-endian x86, as xxHash reads words
        std::memcpy(message + 4, &ix, 4);
        REQUIRE(noise::value_hash(seed, ix, iy) == xxh32_short(message, 8, seed));
      }
}

TEST_CASE("value noise lattice: SIMD rows equal the scalar reference bit for bit on every dispatch target",
          "[noise][value_noise][simd]") {
  struct reset {
    ~reset() { hwy::SetSupportedTargetsForTest(0); }
  } const restore;
  using F = noise::value_fade;
  std::vector<noise::value_plan> plans;
  for (const F fade : {F::linear, F::cosine, F::cubic, F::quintic, F::catmull_rom})
    for (const bool is_signed : {true, false}) {
      noise::fractal_settings s;
      s.kind = is_signed ? noise::fractal_kind::fbm : noise::fractal_kind::billow;
      // Octave frequencies 1/37 .. 3.2 per cell at cell size 0.75: lane
      // permutes, gathers and (for long rows) hashing per sample.
      s.feature_size = 27.75;
      s.octaves = 8;
      s.lacunarity = 2.3;
      noise::value_plan plan;
      plan.fractal = noise::make_fractal_plan(s, 17);
      plan.fade = fade;
      plan.is_signed = is_signed;
      plans.push_back(plan);
    }
  int targets = 0;
  for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    REQUIRE(noise::simd_target_name() == hwy::TargetName(target));
    ++targets;
    for (const auto& plan : plans)
      for (const std::int64_t x0 : {std::int64_t{0}, std::int64_t{-77}, std::int64_t{1000001}}) {
        // Every tail length of the widest vectors, and rows long enough for
        // the per-sample path of the finest octaves.
        std::vector<int> lengths;
        for (int n = 1; n <= 35; ++n) lengths.push_back(n);
        lengths.push_back(200);
        for (const int n : lengths) {
          const noise::value_row_kernel kernel(plan, x0, n, 0.75);
          for (int row = 0; row < 3; ++row) {
            std::vector<float> simd(static_cast<std::size_t>(n)), scalar(simd.size());
            const double wy = -500.0 + 7.3 * row;
            kernel.row(wy, simd.data());
            noise::value_fractal_row_scalar(plan, x0, n, 0.75, wy, scalar.data());
            INFO("target " << hwy::TargetName(target) << " fade " << static_cast<int>(plan.fade) << " signed "
                           << plan.is_signed << " x0 " << x0 << " n " << n << " row " << row);
            REQUIRE(bit_equal(simd, scalar));
          }
        }
      }
  }
  CHECK(targets >= 2);
}
