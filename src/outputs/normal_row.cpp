// The normal map's row kernel, compiled once per Highway target
// (foreach_target) and chosen at run time (HWY_DYNAMIC_DISPATCH). It reads
// three height rows and computes Horn's gradient, the normal and its samples
// in one pass, so no full-size gradient array is written and read back.
// Exact like the noise kernels: separate Mul and Add (the project compiles
// with -ffp-contract=off), exactly rounded Div and Sqrt, float rounding by
// DemoteTo, and the final rounding as lround_nonnegative does it (an exact
// floor and compare).

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "outputs/normal_row.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "derive/horn_row.hpp"
#include "landform/io/quantize.hpp"
#include "outputs/normal_row.hpp"

#ifndef LANDFORM_NORMAL_ROW_ONCE
#define LANDFORM_NORMAL_ROW_ONCE
namespace landform::detail {
namespace {

// One encoded channel value, (n + 1) / 2 as float, as a sample of each type.
inline void store_sample(float v, std::uint8_t& s) {
  s = static_cast<std::uint8_t>(lround_nonnegative(static_cast<double>(v) * 255.0));
}
inline void store_sample(float v, std::uint16_t& s) {
  s = static_cast<std::uint16_t>(lround_nonnegative(static_cast<double>(v) * 65535.0));
}
inline void store_sample(float v, float& s) {
  s = v;
}

// A gradient as the formula takes it: a slope that overflowed float32
// (heights near 1e38 a cell apart) as the largest float, so the kernel
// never makes inf x 0 = NaN (nor rounds NaN into an integer sample).
// Finite slopes pass unchanged. The normal output refuses such a map
// before it gets here (require_representable_gradient): with both
// components clamped, the direction would be a diagonal.
inline double finite_slope(float s) {
  constexpr double k_max = std::numeric_limits<float>::max();
  return std::clamp(static_cast<double>(s), -k_max, k_max);
}

template <class T>
void cells(const float* east, const float* north, int n, const normal_params& p, T* out) {
  for (int i = 0; i < n; ++i) {
    const double nx = -p.strength * finite_slope(east[i]);
    const double ny = -p.strength * finite_slope(north[i]);
    const double inv = 1.0 / std::sqrt(nx * nx + ny * ny + 1.0);
    store_sample(static_cast<float>(nx * inv * 0.5 + 0.5), out[3 * i + 0]);
    store_sample(static_cast<float>(p.flip * ny * inv * 0.5 + 0.5), out[3 * i + 1]);
    store_sample(static_cast<float>(inv * 0.5 + 0.5), out[3 * i + 2]);
  }
}

// The gradient of a block of cells at a time on the stack, then the normals.
template <class T>
void row_scalar(const float* up, const float* mid, const float* down, int n, const normal_params& p, T* out) {
  constexpr int k_block = 64;
  float east[k_block], north[k_block];
  for (int i = 0; i < n; i += k_block) {
    const int m = std::min(k_block, n - i);
    horn_row_interior(up + i, mid + i, down + i, m, p.height_scale, p.denom, east, north);
    cells(east, north, m, p, out + 3 * i);
  }
}

}  // namespace

void normal_cells(const float* east, const float* north, int n, const normal_params& p, std::uint8_t* out) {
  cells(east, north, n, p, out);
}
void normal_cells(const float* east, const float* north, int n, const normal_params& p, std::uint16_t* out) {
  cells(east, north, n, p, out);
}
void normal_cells(const float* east, const float* north, int n, const normal_params& p, float* out) {
  cells(east, north, n, p, out);
}

void normal_row_scalar(const float* up, const float* mid, const float* down, int n, const normal_params& p,
                       std::uint8_t* out) {
  row_scalar(up, mid, down, n, p, out);
}
void normal_row_scalar(const float* up, const float* mid, const float* down, int n, const normal_params& p,
                       std::uint16_t* out) {
  row_scalar(up, mid, down, n, p, out);
}
void normal_row_scalar(const float* up, const float* mid, const float* down, int n, const normal_params& p,
                       float* out) {
  row_scalar(up, mid, down, n, p, out);
}

}  // namespace landform::detail
#endif

HWY_BEFORE_NAMESPACE();
namespace landform::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// horn_row_interior and normal_cells fused, a vector of double lanes at a
// time, operation for operation as the scalar code; the tail goes to it.
template <class T>
void fused_row(const float* HWY_RESTRICT up, const float* HWY_RESTRICT mid, const float* HWY_RESTRICT down, int n,
               const normal_params& p, T* HWY_RESTRICT out) {
  constexpr bool k_float = std::is_same_v<T, float>;
  const hn::ScalableTag<double> dd;
  const hn::Rebind<float, decltype(dd)> df;  // as many float lanes as double lanes
  const hn::Rebind<std::int32_t, decltype(dd)> di;
  using sample_tag = std::conditional_t<k_float, decltype(df), decltype(di)>;
  const sample_tag ds;
  const auto lanes = static_cast<int>(hn::Lanes(dd));
  const auto scale = hn::Set(dd, p.height_scale), denom = hn::Set(dd, p.denom), two = hn::Set(dd, 2.0);
  const auto neg_s = hn::Set(dd, -p.strength), one = hn::Set(dd, 1.0), half = hn::Set(dd, 0.5);
  const auto flip = hn::Set(dd, static_cast<double>(p.flip));
  const auto slope_hi = hn::Set(dd, static_cast<double>(std::numeric_limits<float>::max()));
  const auto slope_lo = hn::Neg(slope_hi);
  const auto metres = [&](const float* heights) { return hn::Mul(hn::PromoteTo(dd, hn::LoadU(df, heights)), scale); };
  // A channel (n + 1) / 2 rounded to float; for integer samples then
  // lround(v x full) as lround_nonnegative does it for v >= 0: floor, plus 1
  // when the fraction is at least a half (floor and the difference are exact).
  const auto sample = [&](auto channel) {
    const auto v = hn::DemoteTo(df, channel);
    if constexpr (k_float) {
      return v;
    } else {
      const auto x = hn::Mul(hn::PromoteTo(dd, v), hn::Set(dd, std::is_same_v<T, std::uint8_t> ? 255.0 : 65535.0));
      const auto f = hn::Floor(x);
      return hn::DemoteTo(di, hn::Add(f, hn::IfThenElseZero(hn::Ge(hn::Sub(x, f), half), one)));
    }
  };
  constexpr int k_max_lanes = 16;
  HWY_ALIGN hn::TFromD<sample_tag> c[3][k_max_lanes];
  int i = 0;
  if (lanes <= k_max_lanes) {
    for (; i + lanes <= n; i += lanes) {
      const auto a = metres(up + i - 1), b = metres(up + i), cc = metres(up + i + 1);
      const auto d = metres(mid + i - 1), f = metres(mid + i + 1);
      const auto g = metres(down + i - 1), hh = metres(down + i), ii = metres(down + i + 1);
      // Horn's east and north, rounded to float as horn_gradient stores them.
      const auto east = hn::DemoteTo(
          df,
          hn::Div(hn::Sub(hn::Add(hn::Add(cc, hn::Mul(two, f)), ii), hn::Add(hn::Add(a, hn::Mul(two, d)), g)), denom));
      const auto north = hn::DemoteTo(
          df,
          hn::Div(hn::Sub(hn::Add(hn::Add(a, hn::Mul(two, b)), cc), hn::Add(hn::Add(g, hn::Mul(two, hh)), ii)), denom));
      // finite_slope: an overflowed slope as the largest float.
      const auto nx = hn::Mul(neg_s, hn::Min(hn::Max(hn::PromoteTo(dd, east), slope_lo), slope_hi));
      const auto ny = hn::Mul(neg_s, hn::Min(hn::Max(hn::PromoteTo(dd, north), slope_lo), slope_hi));
      const auto inv = hn::Div(one, hn::Sqrt(hn::Add(hn::Add(hn::Mul(nx, nx), hn::Mul(ny, ny)), one)));
      hn::Store(sample(hn::Add(hn::Mul(hn::Mul(nx, inv), half), half)), ds, c[0]);
      hn::Store(sample(hn::Add(hn::Mul(hn::Mul(hn::Mul(flip, ny), inv), half), half)), ds, c[1]);
      hn::Store(sample(hn::Add(hn::Mul(inv, half), half)), ds, c[2]);
      T* px = out + 3 * i;
      for (int k = 0; k < lanes; ++k) {
        px[3 * k + 0] = static_cast<T>(c[0][k]);
        px[3 * k + 1] = static_cast<T>(c[1][k]);
        px[3 * k + 2] = static_cast<T>(c[2][k]);
      }
    }
  }
  row_scalar(up + i, mid + i, down + i, n - i, p, out + 3 * i);
}

void row_u8(const float* up, const float* mid, const float* down, int n, const normal_params& p, std::uint8_t* out) {
  fused_row(up, mid, down, n, p, out);
}
void row_u16(const float* up, const float* mid, const float* down, int n, const normal_params& p, std::uint16_t* out) {
  fused_row(up, mid, down, n, p, out);
}
void row_f32(const float* up, const float* mid, const float* down, int n, const normal_params& p, float* out) {
  fused_row(up, mid, down, n, p, out);
}

const char* target_name() {
  return hwy::TargetName(HWY_TARGET);
}

}  // namespace landform::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace landform::detail {

HWY_EXPORT(row_u8);
HWY_EXPORT(row_u16);
HWY_EXPORT(row_f32);
HWY_EXPORT(target_name);

void normal_row(const float* up, const float* mid, const float* down, int n, const normal_params& p,
                std::uint8_t* out) {
  HWY_DYNAMIC_DISPATCH(row_u8)(up, mid, down, n, p, out);
}
void normal_row(const float* up, const float* mid, const float* down, int n, const normal_params& p,
                std::uint16_t* out) {
  HWY_DYNAMIC_DISPATCH(row_u16)(up, mid, down, n, p, out);
}
void normal_row(const float* up, const float* mid, const float* down, int n, const normal_params& p, float* out) {
  HWY_DYNAMIC_DISPATCH(row_f32)(up, mid, down, n, p, out);
}

std::string normal_row_target() {
  return HWY_DYNAMIC_DISPATCH(target_name)();
}

}  // namespace landform::detail
#endif
