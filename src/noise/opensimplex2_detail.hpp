#pragma once
// Constants and the gradient table of OpenSimplex2 2D (K.jpg, public domain),
// shared by the scalar reference (opensimplex2.cpp) and the SIMD kernels
// (noise_simd.cpp). Values as published in java/OpenSimplex2.java.

#include <array>
#include <cstdint>

namespace landform::noise::os2 {

inline constexpr std::uint64_t k_prime_x = 0x5205402B9270C86FULL;
inline constexpr std::uint64_t k_prime_y = 0x598CD327003817B5ULL;
inline constexpr std::uint64_t k_hash_multiplier = 0x53A3F72DEEC546F5ULL;
inline constexpr double k_skew = 0.366025403784439;
inline constexpr double k_unskew = -0.21132486540518713;
inline constexpr double k_normalizer = 0.01001634121365712;
inline constexpr float k_r_squared = 0.5f;

// Float constants exactly as the Java casts them from double expressions.
inline constexpr float k_unskew_f = static_cast<float>(k_unskew);
inline constexpr float k_unskew_plus_1_f = static_cast<float>(k_unskew + 1);
inline constexpr float k_second_offset_f = static_cast<float>(1 + 2 * k_unskew);
inline constexpr float k_a1_t_factor_f = static_cast<float>(2 * (1 + 2 * k_unskew) * (1 / k_unskew + 2));
inline constexpr float k_a1_constant_f = static_cast<float>(-2 * (1 + 2 * k_unskew) * (1 + 2 * k_unskew));

// The 24 unit gradients (8 at 22.5 deg + k 45 deg, 16 at 7.5 deg + k 22.5 deg), as float literals.
inline constexpr std::array<float, 48> k_unit_gradients = {
    0.38268343236509f,   0.923879532511287f,  0.923879532511287f,  0.38268343236509f,  0.923879532511287f,
    -0.38268343236509f,  0.38268343236509f,   -0.923879532511287f, -0.38268343236509f, -0.923879532511287f,
    -0.923879532511287f, -0.38268343236509f,  -0.923879532511287f, 0.38268343236509f,  -0.38268343236509f,
    0.923879532511287f,  0.130526192220052f,  0.99144486137381f,   0.608761429008721f, 0.793353340291235f,
    0.793353340291235f,  0.608761429008721f,  0.99144486137381f,   0.130526192220051f, 0.99144486137381f,
    -0.130526192220051f, 0.793353340291235f,  -0.60876142900872f,  0.608761429008721f, -0.793353340291235f,
    0.130526192220052f,  -0.99144486137381f,  -0.130526192220052f, -0.99144486137381f, -0.608761429008721f,
    -0.793353340291235f, -0.793353340291235f, -0.608761429008721f, -0.99144486137381f, -0.130526192220052f,
    -0.99144486137381f,  0.130526192220051f,  -0.793353340291235f, 0.608761429008721f, -0.608761429008721f,
    0.793353340291235f,  -0.130526192220052f, 0.99144486137381f,
};

// 128 gradients (x, y interleaved): the 24 above divided by the normaliser
// (in double, rounded to float) and repeated cyclically.
constexpr std::array<float, 256> make_gradients() {
  std::array<float, 256> g{};
  for (std::size_t i = 0; i < g.size(); ++i) {
    g[i] = static_cast<float>(static_cast<double>(k_unit_gradients[i % k_unit_gradients.size()]) / k_normalizer);
  }
  return g;
}
alignas(64) inline constexpr std::array<float, 256> k_gradients = make_gradients();

// The 24 distinct gradients as x and y columns (k_gradients[2 g] and
// k_gradients[2 g + 1] for g % 24), padded with zeros to 32 entries so SIMD
// code can load them in whole vectors of up to 16 lanes.
constexpr std::array<float, 32> make_gradient_column(std::size_t component) {
  std::array<float, 32> c{};
  for (std::size_t j = 0; j < 24; ++j) c[j] = k_gradients[2 * j + component];
  return c;
}
alignas(64) inline constexpr std::array<float, 32> k_gradient_x = make_gradient_column(0);
alignas(64) inline constexpr std::array<float, 32> k_gradient_y = make_gradient_column(1);

}  // namespace landform::noise::os2
