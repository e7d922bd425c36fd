// The scalar reference of improved Perlin noise; the SIMD kernels
// (noise_simd.cpp) must equal it bit for bit.

#include "landform/noise/perlin.hpp"

#include <cmath>

#include "noise/fractal_row_scalar.hpp"
#include "noise/perlin_detail.hpp"

namespace landform::noise {

namespace {

constexpr float k_gx[8] = {1, -1, 1, -1, perlin_detail::k_sqrt2, -perlin_detail::k_sqrt2, 0, 0};
constexpr float k_gy[8] = {1, 1, -1, -1, 0, 0, perlin_detail::k_sqrt2, -perlin_detail::k_sqrt2};

float dot(std::uint32_t seed, std::uint32_t hx, std::uint32_t hy, float dx, float dy) {
  const std::uint32_t k = ((seed ^ hx ^ hy) * perlin_detail::k_multiplier) >> 29;
  return k_gx[k] * dx + k_gy[k] * dy;
}

float fade(float t) {
  return t * t * t * (t * (t * 6.0f - 15.0f) + 10.0f);
}

}  // namespace

float perlin_noise2(std::int64_t seed64, double x, double y) {
  const double xf = std::floor(x), yf = std::floor(y);
  const auto tx = static_cast<float>(x - xf), ty = static_cast<float>(y - yf);
  const auto ix = static_cast<std::int32_t>(xf), iy = static_cast<std::int32_t>(yf);
  const std::uint32_t hx0 = static_cast<std::uint32_t>(ix) * perlin_detail::k_prime_x,
                      hx1 = hx0 + perlin_detail::k_prime_x;
  const std::uint32_t hy0 = static_cast<std::uint32_t>(iy) * perlin_detail::k_prime_y,
                      hy1 = hy0 + perlin_detail::k_prime_y;
  const std::uint32_t seed = perlin_detail::seed32(seed64);
  const float tx1 = tx - 1.0f, ty1 = ty - 1.0f;
  const float n00 = dot(seed, hx0, hy0, tx, ty);
  const float n10 = dot(seed, hx1, hy0, tx1, ty);
  const float n01 = dot(seed, hx0, hy1, tx, ty1);
  const float n11 = dot(seed, hx1, hy1, tx1, ty1);
  const float u = fade(tx), v = fade(ty);
  const float nx0 = n00 + u * (n10 - n00);
  const float nx1 = n01 + u * (n11 - n01);
  return nx0 + v * (nx1 - nx0);
}

void perlin_fractal_row_scalar(const fractal_plan& plan, std::int64_t x0, int n, double cell_size, double wy,
                               float* out) {
  fractal_row_scalar(&perlin_noise2, plan, x0, n, cell_size, wy, out);
}

}  // namespace landform::noise
