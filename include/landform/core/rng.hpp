#pragma once
/// @file
/// Counter-based random numbers: every draw is a pure hash of its inputs.
///
/// No engine carries state between draws, so a value depends only on
/// (seed, stream, coordinates) and never on thread count, region or the order
/// in which cells are visited. Mixing follows SplitMix64 (Steele, Lea and
/// Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014).

#include <cstdint>
#include <string_view>

namespace landform {

/// SplitMix64 finaliser: a bijective 64-bit mix with full avalanche.
constexpr std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// Combines a running hash with one more 64-bit word.
constexpr std::uint64_t hash_combine(std::uint64_t h, std::uint64_t v) {
  return mix64(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)));
}

/// hash(seed, a, b, c) -> 64 uniformly distributed bits.
constexpr std::uint64_t hash64(std::uint64_t seed, std::uint64_t a, std::uint64_t b = 0, std::uint64_t c = 0) {
  return hash_combine(hash_combine(hash_combine(mix64(seed), a), b), c);
}

/// 64-bit FNV-1a of a string, for turning stage keys into stream numbers.
constexpr std::uint64_t hash_string(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (char ch : s) {
    h ^= static_cast<unsigned char>(ch);
    h *= 0x100000001b3ULL;
  }
  return h;
}

/// The top 24 bits of `bits` as a float in [0, 1).
constexpr float unit_float(std::uint64_t bits) {
  return static_cast<float>(bits >> 40) * (1.0f / 16777216.0f);
}

/// The top 53 bits of `bits` as a double in [0, 1).
constexpr double unit_double(std::uint64_t bits) {
  return static_cast<double>(bits >> 11) * (1.0 / 9007199254740992.0);
}

}  // namespace landform
