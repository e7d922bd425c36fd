// The scalar reference of OpenSimplex2 2D and of the fractal row, and the
// fractal plan shared by the float noise stages. The SIMD kernels
// (noise_simd.cpp) must equal these bit for bit.

#include "landform/noise/opensimplex2.hpp"

#include <cmath>

#include "landform/core/rng.hpp"
#include "noise/fractal_row_scalar.hpp"
#include "noise/opensimplex2_detail.hpp"

namespace landform::noise {

double fractal_plan::bound() const {
  double total = 0.0;
  for (const auto& o : octaves) total += std::abs(static_cast<double>(o.amplitude));
  return total;
}

fractal_plan make_fractal_plan(const fractal_settings& s, std::uint64_t stage_seed) {
  fractal_plan plan;
  plan.kind = s.kind;
  double scale = 1.0, amplitude = s.amplitude;
  for (int k = 0; k < s.octaves; ++k) {
    octave o;
    o.frequency = scale / s.feature_size;
    o.amplitude = static_cast<float>(amplitude);
    o.seed = static_cast<std::int64_t>(hash64(stage_seed, static_cast<std::uint64_t>(k)));
    plan.octaves.push_back(o);
    scale *= s.lacunarity;
    amplitude *= s.gain;
  }
  plan.warp_amplitude = s.warp_amplitude;
  plan.warp_frequency = s.warp_frequency;
  plan.warp_seed_x = static_cast<std::int64_t>(hash64(stage_seed, hash_string("warp x")));
  plan.warp_seed_y = static_cast<std::int64_t>(hash64(stage_seed, hash_string("warp y")));
  return plan;
}

namespace {

// Java's fastFloor for |x| < 2^31.
int fast_floor(double x) {
  const int xi = static_cast<int>(x);
  return x < xi ? xi - 1 : xi;
}

// Java long arithmetic wraps: do it in uint64.
float grad(std::uint64_t seed, std::uint64_t xsvp, std::uint64_t ysvp, float dx, float dy) {
  std::uint64_t hash = seed ^ xsvp ^ ysvp;
  hash *= os2::k_hash_multiplier;
  hash ^= static_cast<std::uint64_t>(static_cast<std::int64_t>(hash) >> 58);  // arithmetic, as Java's >>
  const std::size_t gi = static_cast<std::uint32_t>(hash) & 0xFEu;
  return os2::k_gradients[gi] * dx + os2::k_gradients[gi | 1] * dy;
}

}  // namespace

float opensimplex2_noise2(std::int64_t seed_signed, double x, double y) {
  const auto seed = static_cast<std::uint64_t>(seed_signed);
  // Skew onto the A2* lattice (double).
  const double s = os2::k_skew * (x + y);
  const double xs = x + s, ys = y + s;
  // Base cell and offsets.
  const int xsb = fast_floor(xs), ysb = fast_floor(ys);
  const auto xi = static_cast<float>(xs - xsb), yi = static_cast<float>(ys - ysb);
  const std::uint64_t xsbp = static_cast<std::uint64_t>(static_cast<std::int64_t>(xsb)) * os2::k_prime_x;
  const std::uint64_t ysbp = static_cast<std::uint64_t>(static_cast<std::int64_t>(ysb)) * os2::k_prime_y;
  // Unskew.
  const float t = (xi + yi) * os2::k_unskew_f;
  const float dx0 = xi + t, dy0 = yi + t;
  // First vertex.
  float value = 0;
  const float a0 = os2::k_r_squared - dx0 * dx0 - dy0 * dy0;
  if (a0 > 0) value = (a0 * a0) * (a0 * a0) * grad(seed, xsbp, ysbp, dx0, dy0);
  // Second vertex.
  const float a1 = os2::k_a1_t_factor_f * t + (os2::k_a1_constant_f + a0);
  if (a1 > 0) {
    const float dx1 = dx0 - os2::k_second_offset_f, dy1 = dy0 - os2::k_second_offset_f;
    value += (a1 * a1) * (a1 * a1) * grad(seed, xsbp + os2::k_prime_x, ysbp + os2::k_prime_y, dx1, dy1);
  }
  // Third vertex.
  if (dy0 > dx0) {
    const float dx2 = dx0 - os2::k_unskew_f, dy2 = dy0 - os2::k_unskew_plus_1_f;
    const float a2 = os2::k_r_squared - dx2 * dx2 - dy2 * dy2;
    if (a2 > 0) value += (a2 * a2) * (a2 * a2) * grad(seed, xsbp, ysbp + os2::k_prime_y, dx2, dy2);
  } else {
    const float dx2 = dx0 - os2::k_unskew_plus_1_f, dy2 = dy0 - os2::k_unskew_f;
    const float a2 = os2::k_r_squared - dx2 * dx2 - dy2 * dy2;
    if (a2 > 0) value += (a2 * a2) * (a2 * a2) * grad(seed, xsbp + os2::k_prime_x, ysbp, dx2, dy2);
  }
  return value;
}

void opensimplex2_fractal_row_scalar(const fractal_plan& plan, std::int64_t x0, int n, double cell_size, double wy,
                                     float* out) {
  fractal_row_scalar(&opensimplex2_noise2, plan, x0, n, cell_size, wy, out);
}

}  // namespace landform::noise
