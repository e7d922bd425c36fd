// The scalar reference of value noise and the column tables of its SIMD row
// kernel (value_simd.cpp), which must equal the reference bit for bit.

#include "landform/noise/value.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "noise/fractal_row_scalar.hpp"
#include "noise/value_detail.hpp"

namespace landform::noise {

std::uint32_t value_hash(std::uint32_t seed, std::int32_t ix, std::int32_t iy) {
  return value_detail::finish(value_detail::prefix(seed, iy), static_cast<std::uint32_t>(ix));
}

namespace {

using value_detail::fade_weight;
using value_detail::k_taps_catmull;

float lattice(std::uint32_t seed, bool is_signed, std::int32_t ix, std::int32_t iy) {
  return value_detail::to_unit(value_hash(seed, ix, iy), is_signed);
}

}  // namespace

float value_noise2(std::uint32_t seed, value_fade fade, bool is_signed, double x, double y) {
  const double fx = std::floor(x), fy = std::floor(y);
  const auto ix = static_cast<std::int32_t>(fx), iy = static_cast<std::int32_t>(fy);
  const auto tx = static_cast<float>(x - fx), ty = static_cast<float>(y - fy);
  if (fade == value_fade::catmull_rom) {
    float wx[4], wy[4];
    value_detail::catmull_rom_weights(tx, wx);
    value_detail::catmull_rom_weights(ty, wy);
    float c[4];
    for (int a = 0; a < k_taps_catmull; ++a) {
      const std::int32_t cx = ix + a - 1;
      c[a] = value_detail::catmull_rom_sum(wy, lattice(seed, is_signed, cx, iy - 1), lattice(seed, is_signed, cx, iy),
                                           lattice(seed, is_signed, cx, iy + 1), lattice(seed, is_signed, cx, iy + 2));
    }
    return value_detail::catmull_rom_finish(value_detail::catmull_rom_sum(wx, c[0], c[1], c[2], c[3]), is_signed);
  }
  const float sx = fade_weight(fade, tx), sy = fade_weight(fade, ty);
  const float v00 = lattice(seed, is_signed, ix, iy), v01 = lattice(seed, is_signed, ix, iy + 1);
  const float v10 = lattice(seed, is_signed, ix + 1, iy), v11 = lattice(seed, is_signed, ix + 1, iy + 1);
  // Along y first (the column values the SIMD kernel shares), then along x.
  const float c0 = v00 + sy * (v01 - v00), c1 = v10 + sy * (v11 - v10);
  return c0 + sx * (c1 - c0);
}

void value_fractal_row_scalar(const value_plan& plan, std::int64_t x0, int n, double cell_size, double wy, float* out) {
  const auto noise2 = [&plan](std::int64_t seed, double x, double y) {
    return value_noise2(value_seed32(seed), plan.fade, plan.is_signed, x, y);
  };
  fractal_row_scalar(noise2, plan.fractal, x0, n, cell_size, wy, out);
}

value_row_kernel::value_row_kernel(const value_plan& plan, std::int64_t x0, int n, double cell_size)
    : m_plan(plan), m_n(n) {
  const bool catmull = plan.fade == value_fade::catmull_rom;
  const int padded = (n + value_detail::k_pad - 1) / value_detail::k_pad * value_detail::k_pad;
  for (const auto& o : plan.fractal.octaves) {
    octave_columns c;
    c.cell.resize(static_cast<std::size_t>(padded));
    for (auto& w : c.weight) w.resize(catmull || &w == &c.weight[0] ? static_cast<std::size_t>(padded) : 0);
    std::int32_t first = 0, last = 0;
    for (int i = 0; i < padded; ++i) {
      // Padding repeats the last column, so whole vectors stay in range.
      const double x = static_cast<double>(x0 + std::min(i, n - 1)) * cell_size * o.frequency;
      const double fx = std::floor(x);
      const auto ix = static_cast<std::int32_t>(fx);
      const auto tx = static_cast<float>(x - fx);
      if (i == 0) first = ix - (catmull ? 1 : 0);
      last = i == 0 ? ix : std::max(last, ix);
      c.cell[static_cast<std::size_t>(i)] = ix - first;
      if (catmull) {
        float w[4];
        value_detail::catmull_rom_weights(tx, w);
        for (int a = 0; a < 4; ++a) c.weight[a][static_cast<std::size_t>(i)] = w[a];
      } else {
        c.weight[0][static_cast<std::size_t>(i)] = fade_weight(plan.fade, tx);
      }
    }
    c.first_cell = first;
    // Columns first .. last + 1 (last + 2 for Catmull-Rom).
    const std::int64_t cells = static_cast<std::int64_t>(last) + (catmull ? 2 : 1) - first + 1;
    c.direct = cells > 2 * static_cast<std::int64_t>(n) + 64;
    c.cells = c.direct ? 0 : static_cast<int>(cells);
    m_octaves.push_back(std::move(c));
  }
}

void value_row_kernel::row(double wy, float* out) const {
  value_detail::simd_row(m_plan, m_octaves.data(), m_n, wy, out);
}

}  // namespace landform::noise
