// The normal map's row kernel, compiled once per Highway target
// (foreach_target) and chosen at run time (HWY_DYNAMIC_DISPATCH). Exact
// like the noise kernels: separate Mul and Add (the project compiles with
// -ffp-contract=off), exactly rounded Div and Sqrt, float rounding by
// DemoteTo, and the final rounding as lround_nonnegative does it (an exact
// floor and compare).

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "outputs/normal_row.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cmath>
#include <cstdint>

#include "landform/io/quantize.hpp"
#include "outputs/normal_row.hpp"

#ifndef LANDFORM_NORMAL_ROW_ONCE
#define LANDFORM_NORMAL_ROW_ONCE
namespace landform::detail {
namespace {

// One encoded channel value, (n + 1) / 2 as float, to 0..255.
inline std::uint8_t to_u8(float v) {
  return static_cast<std::uint8_t>(lround_nonnegative(static_cast<double>(v) * 255.0));
}

}  // namespace

void normal_row_u8_scalar(const float* east, const float* north, int n, double strength, float flip,
                          std::uint8_t* out) {
  for (int i = 0; i < n; ++i) {
    const double nx = -strength * east[i];
    const double ny = -strength * north[i];
    const double inv = 1.0 / std::sqrt(nx * nx + ny * ny + 1.0);
    out[3 * i + 0] = to_u8(static_cast<float>(nx * inv * 0.5 + 0.5));
    out[3 * i + 1] = to_u8(static_cast<float>(flip * ny * inv * 0.5 + 0.5));
    out[3 * i + 2] = to_u8(static_cast<float>(inv * 0.5 + 0.5));
  }
}

}  // namespace landform::detail
#endif

HWY_BEFORE_NAMESPACE();
namespace landform::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void row_u8(const float* HWY_RESTRICT east, const float* HWY_RESTRICT north, int n, double strength, float flip,
            std::uint8_t* HWY_RESTRICT out) {
  const hn::ScalableTag<double> dd;
  const hn::Rebind<float, decltype(dd)> df;  // as many float lanes as double lanes
  const auto lanes = static_cast<int>(hn::Lanes(dd));
  const auto neg_s = hn::Set(dd, -strength), one = hn::Set(dd, 1.0), half = hn::Set(dd, 0.5);
  const auto vflip = hn::Set(dd, static_cast<double>(flip));
  const hn::Rebind<std::int32_t, decltype(dd)> di;
  const auto scale = hn::Set(dd, 255.0);
  // lround(v x 255) for v >= 0 as lround_nonnegative does it: floor, plus 1
  // when the fraction is at least a half (floor and the difference are exact).
  const auto quantise = [&](auto channel) {
    const auto v = hn::Mul(hn::PromoteTo(dd, hn::DemoteTo(df, channel)), scale);
    const auto f = hn::Floor(v);
    return hn::DemoteTo(di, hn::Add(f, hn::IfThenElseZero(hn::Ge(hn::Sub(v, f), half), one)));
  };
  constexpr int k_max_lanes = 16;
  HWY_ALIGN std::int32_t c[3][k_max_lanes];
  int i = 0;
  if (lanes <= k_max_lanes) {
    for (; i + lanes <= n; i += lanes) {
      const auto nx = hn::Mul(neg_s, hn::PromoteTo(dd, hn::LoadU(df, east + i)));
      const auto ny = hn::Mul(neg_s, hn::PromoteTo(dd, hn::LoadU(df, north + i)));
      const auto inv = hn::Div(one, hn::Sqrt(hn::Add(hn::Add(hn::Mul(nx, nx), hn::Mul(ny, ny)), one)));
      hn::Store(quantise(hn::Add(hn::Mul(hn::Mul(nx, inv), half), half)), di, c[0]);
      hn::Store(quantise(hn::Add(hn::Mul(hn::Mul(hn::Mul(vflip, ny), inv), half), half)), di, c[1]);
      hn::Store(quantise(hn::Add(hn::Mul(inv, half), half)), di, c[2]);
      std::uint8_t* px = out + 3 * i;
      for (int k = 0; k < lanes; ++k) {
        px[3 * k + 0] = static_cast<std::uint8_t>(c[0][k]);
        px[3 * k + 1] = static_cast<std::uint8_t>(c[1][k]);
        px[3 * k + 2] = static_cast<std::uint8_t>(c[2][k]);
      }
    }
  }
  normal_row_u8_scalar(east + i, north + i, n - i, strength, flip, out + 3 * i);
}

const char* target_name() {
  return hwy::TargetName(HWY_TARGET);
}

}  // namespace landform::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace landform::detail {

HWY_EXPORT(row_u8);
HWY_EXPORT(target_name);

void normal_row_u8(const float* east, const float* north, int n, double strength, float flip, std::uint8_t* out) {
  HWY_DYNAMIC_DISPATCH(row_u8)(east, north, n, strength, flip, out);
}

std::string normal_row_target() {
  return HWY_DYNAMIC_DISPATCH(target_name)();
}

}  // namespace landform::detail
#endif
