#pragma once
// Constants of the `perlin` lattice hash, shared by the scalar reference
// (perlin.cpp) and the SIMD kernels (noise_simd.cpp).

#include <cstdint>

namespace landform::noise::perlin_detail {

inline constexpr std::uint32_t k_prime_x = 0x9E3779B1u;  // odd multipliers spreading x and y
inline constexpr std::uint32_t k_prime_y = 0x85EBCA77u;
inline constexpr std::uint32_t k_multiplier = 0xC2B2AE3Du;
inline constexpr float k_sqrt2 = 1.41421356237309504880f;

// The 32-bit lattice seed of a 64-bit octave seed.
constexpr std::uint32_t seed32(std::int64_t seed) {
  const auto s = static_cast<std::uint64_t>(seed);
  return static_cast<std::uint32_t>(s ^ (s >> 32));
}

}  // namespace landform::noise::perlin_detail
