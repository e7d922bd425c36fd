// The normal map's SIMD row kernel (issue 11): the same bytes as its scalar
// reference on every Highway target this machine can run, and the scalar
// reference the same bytes as the formula with std::lround.

#include <catch2/catch.hpp>

#include <hwy/highway.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "outputs/normal_row.hpp"

namespace {

struct target_reset {
  ~target_reset() { hwy::SetSupportedTargetsForTest(0); }
};

// Gradients from flat to cliffs, both signs, with exact zeros and ties.
std::vector<float> gradients(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> small(-2.0f, 2.0f), wide(-3000.0f, 3000.0f);
  std::vector<float> g(n);
  for (std::size_t i = 0; i < n; ++i) g[i] = i % 7 == 0 ? 0.0f : (i % 5 == 0 ? wide(rng) : small(rng));
  return g;
}

}  // namespace

TEST_CASE("normal_row: the scalar reference is (n + 1) / 2 rounded with std::lround", "[surface][simd]") {
  const std::vector<float> east = gradients(4099, 1), north = gradients(4099, 2);
  std::vector<std::uint8_t> out(3 * east.size());
  for (const double strength : {1.0, 0.37, 12.0}) {
    for (const float flip : {1.0f, -1.0f}) {
      landform::detail::normal_row_u8_scalar(east.data(), north.data(), static_cast<int>(east.size()), strength, flip,
                                             out.data());
      std::size_t mismatches = 0;
      for (std::size_t i = 0; i < east.size(); ++i) {
        const double nx = -strength * east[i], ny = -strength * north[i];
        const double inv = 1.0 / std::sqrt(nx * nx + ny * ny + 1.0);
        const float c[3] = {static_cast<float>(nx * inv * 0.5 + 0.5), static_cast<float>(flip * ny * inv * 0.5 + 0.5),
                            static_cast<float>(inv * 0.5 + 0.5)};
        for (int k = 0; k < 3; ++k) {
          mismatches += out[3 * i + static_cast<std::size_t>(k)] != std::lround(static_cast<double>(c[k]) * 255.0);
        }
      }
      CHECK(mismatches == 0);
    }
  }
}

TEST_CASE("normal_row: SIMD rows equal the scalar reference on every dispatch target", "[surface][simd]") {
  const target_reset reset;
  const std::vector<float> east = gradients(1037, 3), north = gradients(1037, 4);
  std::vector<std::string> tested;
  for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    const std::string name = landform::detail::normal_row_target();
    REQUIRE(name == hwy::TargetName(target));
    tested.push_back(name);
    // Every length up to a few vectors, so each tail is covered.
    for (int n : {0, 1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 33, 1037}) {
      for (const float flip : {1.0f, -1.0f}) {
        std::vector<std::uint8_t> simd(3 * static_cast<std::size_t>(n) + 1, 7), scalar(simd);
        landform::detail::normal_row_u8(east.data(), north.data(), n, 2.5, flip, simd.data());
        landform::detail::normal_row_u8_scalar(east.data(), north.data(), n, 2.5, flip, scalar.data());
        INFO("target " << name << ", " << n << " cells");
        REQUIRE(simd == scalar);  // including the untouched guard byte
      }
    }
  }
  CHECK(tested.size() >= 2);
}
