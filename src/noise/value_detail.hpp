#pragma once
// The pieces of value noise shared by the scalar reference (value.cpp) and
// the SIMD kernel (value_simd.cpp): the lattice hash, the conversion to a
// value, the fades and the Catmull-Rom sums, each written once so both
// perform the same float operations in the same order.

#include <cmath>
#include <cstdint>
#include <numbers>

#include "landform/noise/value.hpp"

namespace landform::noise::value_detail {

// xxHash32's primes (Collet, github.com/Cyan4973/xxHash, xxhash.h).
inline constexpr std::uint32_t k_prime2 = 0x85EBCA77u;
inline constexpr std::uint32_t k_prime3 = 0xC2B2AE3Du;
inline constexpr std::uint32_t k_prime4 = 0x27D4EB2Fu;
inline constexpr std::uint32_t k_prime5 = 0x165667B1u;

inline constexpr int k_taps_catmull = 4;
// Column tables are padded to a multiple of this many entries: at least the
// lanes of the widest target, so every vector load stays inside them.
inline constexpr int k_pad = 64;

constexpr std::uint32_t rotl(std::uint32_t v, int r) {
  return (v << r) | (v >> (32 - r));
}

// xxHash32 of an 8-byte message after its first word `iy`: the state a row
// shares between all its columns.
constexpr std::uint32_t prefix(std::uint32_t seed, std::int32_t iy) {
  return rotl(seed + k_prime5 + 8u + static_cast<std::uint32_t>(iy) * k_prime3, 17) * k_prime4;
}

// The second word `ix`, then xxHash32's avalanche.
constexpr std::uint32_t finish(std::uint32_t h, std::uint32_t ix) {
  h = rotl(h + ix * k_prime3, 17) * k_prime4;
  h ^= h >> 15;
  h *= k_prime2;
  h ^= h >> 13;
  h *= k_prime3;
  h ^= h >> 16;
  return h;
}

// The top 24 bits as k 2^-24 in [0, 1) or (signed) k 2^-23 in [-1, 1): exact.
inline float to_unit(std::uint32_t h, bool is_signed) {
  if (is_signed) return static_cast<float>(static_cast<std::int32_t>(h) >> 8) * (1.0f / 8388608.0f);
  return static_cast<float>(static_cast<std::int32_t>(h >> 8)) * (1.0f / 16777216.0f);
}

inline float fade_weight(value_fade kind, float t) {
  switch (kind) {
    case value_fade::cosine:
      // Seed 001's weight, in double as the original computes it.
      return static_cast<float>((1.0 - std::cos(std::numbers::pi * static_cast<double>(t))) / 2.0);
    case value_fade::cubic:
      return t * t * (3.0f - 2.0f * t);
    case value_fade::quintic:
      return t * t * t * (t * (t * 6.0f - 15.0f) + 10.0f);
    case value_fade::linear:
    case value_fade::catmull_rom:
      break;
  }
  return t;
}

// Catmull-Rom weights of the values at -1, 0, 1, 2 around t in [0, 1).
inline void catmull_rom_weights(float t, float w[4]) {
  const float t2 = t * t, t3 = t2 * t;
  w[0] = 0.5f * (2.0f * t2 - t3 - t);
  w[1] = 0.5f * (3.0f * t3 - 5.0f * t2 + 2.0f);
  w[2] = 0.5f * (4.0f * t2 - 3.0f * t3 + t);
  w[3] = 0.5f * (t3 - t2);
}

// ((w0 v0 + w1 v1) + w2 v2) + w3 v3 (value_simd.cpp repeats it in lanes).
inline float catmull_rom_sum(const float w[4], float v0, float v1, float v2, float v3) {
  return w[0] * v0 + w[1] * v1 + w[2] * v2 + w[3] * v3;
}

// |sum - middle| <= 1.25^2 |v - middle|: scale by 1/1.5625 so the range holds.
inline constexpr float k_catmull_gain = 0.64f;

inline float catmull_rom_finish(float s, bool is_signed) {
  const float middle = is_signed ? 0.0f : 0.5f, lo = is_signed ? -1.0f : 0.0f;
  const float r = (s - middle) * k_catmull_gain + middle;
  return std::fmin(std::fmax(r, lo), 1.0f);
}

// The SIMD row (value_simd.cpp), on the best target the CPU supports.
void simd_row(const value_plan& plan, const value_row_kernel::octave_columns* octaves, int n, double wy, float* out);

}  // namespace landform::noise::value_detail
