// SIMD rows of value noise, compiled once per Highway target
// (foreach_target) and chosen at run time (HWY_DYNAMIC_DISPATCH).
//
// Value noise is separable, and a row shares its y cell and weights: per
// octave the row first computes the column values c(ix) (two or four lattice
// hashes blended along y) once for every lattice column it touches, then
// each sample blends its columns along x with the weights the kernel
// computed once for all rows. Fetching c(ix) is a broadcast when a vector's
// samples share one cell (the coarse octaves), a lane permute of a window of
// the column buffer when they span fewer cells than lanes, else a gather; an
// octave with more cells than samples hashes per sample.
// Every path performs value_noise2's float operations in its order (separate
// Mul and Add, never MulAdd; -ffp-contract=off), only moving the operands,
// so the output equals the scalar reference bit for bit on every target.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "noise/value_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "landform/noise/value.hpp"
#include "noise/value_detail.hpp"

HWY_BEFORE_NAMESPACE();
namespace landform::noise::value_detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::ScalableTag<float>;
using DI = hn::RebindToSigned<DF>;
using DU = hn::RebindToUnsigned<DF>;
using VF = hn::Vec<DF>;
using VI = hn::Vec<DI>;
using VU = hn::Vec<DU>;

// finish(prefix, ix) of value_detail.hpp, lane by lane.
HWY_INLINE VU finish_lanes(VU h, VI ix) {
  const DU du;
  h = hn::Add(h, hn::Mul(hn::BitCast(du, ix), hn::Set(du, k_prime3)));
  h = hn::Mul(hn::RotateRight<15>(h), hn::Set(du, k_prime4));  // rotl 17
  h = hn::Xor(h, hn::ShiftRight<15>(h));
  h = hn::Mul(h, hn::Set(du, k_prime2));
  h = hn::Xor(h, hn::ShiftRight<13>(h));
  h = hn::Mul(h, hn::Set(du, k_prime3));
  return hn::Xor(h, hn::ShiftRight<16>(h));
}

// to_unit of value_detail.hpp.
template <bool Signed>
HWY_INLINE VF to_unit_lanes(VU h) {
  const DF df;
  const DI di;
  if constexpr (Signed) {
    return hn::Mul(hn::ConvertTo(df, hn::ShiftRight<8>(hn::BitCast(di, h))), hn::Set(df, 1.0f / 8388608.0f));
  } else {
    return hn::Mul(hn::ConvertTo(df, hn::BitCast(di, hn::ShiftRight<8>(h))), hn::Set(df, 1.0f / 16777216.0f));
  }
}

// The row's y of one octave: the hash prefixes of the lattice rows it
// blends and their weights (sy, or Catmull-Rom's four).
struct row_y {
  std::uint32_t prefix[4];
  float w[4];
};

HWY_INLINE row_y row_of(const value_plan& plan, const octave& o, double wy) {
  const double y = wy * o.frequency;
  const double fy = std::floor(y);
  const auto iy = static_cast<std::int32_t>(fy);
  const auto ty = static_cast<float>(y - fy);
  const std::uint32_t seed = value_seed32(o.seed);
  row_y r{};
  if (plan.fade == value_fade::catmull_rom) {
    for (int b = 0; b < 4; ++b) r.prefix[b] = prefix(seed, iy + b - 1);
    catmull_rom_weights(ty, r.w);
  } else {
    r.prefix[0] = prefix(seed, iy);
    r.prefix[1] = prefix(seed, iy + 1);
    r.w[0] = fade_weight(plan.fade, ty);
  }
  return r;
}

// Column values c(ix) for lattice columns `ix`: as value_noise2.
template <bool Catmull, bool Signed>
HWY_INLINE VF column(const row_y& r, VI ix) {
  const DF df;
  const DU du;
  if constexpr (Catmull) {
    VF s = hn::Zero(df);
    for (int b = 0; b < 4; ++b) {
      const VF v = to_unit_lanes<Signed>(finish_lanes(hn::Set(du, r.prefix[b]), ix));
      const VF term = hn::Mul(hn::Set(df, r.w[b]), v);
      s = b == 0 ? term : hn::Add(s, term);
    }
    return s;
  } else {
    const VF v0 = to_unit_lanes<Signed>(finish_lanes(hn::Set(du, r.prefix[0]), ix));
    const VF v1 = to_unit_lanes<Signed>(finish_lanes(hn::Set(du, r.prefix[1]), ix));
    return hn::Add(v0, hn::Mul(hn::Set(df, r.w[0]), hn::Sub(v1, v0)));
  }
}

LANDFORM_DEFINE_FRACTAL_ACCUMULATE

struct vector_ops {
  VF one, two;
  [[nodiscard]] VF abs(VF v) const { return hn::Abs(v); }
};

template <bool Catmull, bool Signed, fractal_kind Kind>
void row_of_kind(const value_plan& plan, const value_row_kernel::octave_columns* octaves, int n, double wy,
                 float* HWY_RESTRICT out) {
  const DF df;
  const DI di;
  constexpr int taps = Catmull ? 4 : 2;
  constexpr int low = Catmull ? -1 : 0;  // the first tap's column relative to the sample's
  const auto lanes = static_cast<int>(hn::Lanes(df));
  const auto& octs = plan.fractal.octaves;
  const std::size_t count = octs.size();

  // The row's column values, octave after octave, each padded so that
  // windows of `lanes` entries from any tap stay inside.
  // Scratch reused by the thread's later rows (no allocation per row).
  thread_local std::vector<row_y> rows;
  thread_local std::vector<std::size_t> offset;
  thread_local std::vector<float> buffer;
  rows.resize(count);
  offset.assign(count + 1, 0);
  for (std::size_t k = 0; k < count; ++k) {
    rows[k] = row_of(plan, octs[k], wy);
    const int filled = (octaves[k].cells + lanes - 1) / lanes * lanes;
    offset[k + 1] = offset[k] + static_cast<std::size_t>(filled + (octaves[k].cells > 0 ? lanes + taps : 0));
  }
  buffer.resize(offset[count] + 1);
  for (std::size_t k = 0; k < count; ++k) {
    const auto& c = octaves[k];
    float* buf = buffer.data() + offset[k];
    const auto end = static_cast<int>(offset[k + 1] - offset[k]);
    for (int m = 0; m + lanes <= end; m += lanes) {
      const VI ix = hn::Add(hn::Iota(di, 0), hn::Set(di, c.first_cell + m));
      hn::StoreU(column<Catmull, Signed>(rows[k], ix), df, buf + m);
    }
  }

  // What the sample loop reads of each octave, gathered once per row.
  struct octave_view {
    const std::int32_t* cell;
    const float* weight[4];
    const float* buf;
    std::int32_t first_cell;
    bool direct;
    float amplitude;
  };
  thread_local std::vector<octave_view> views;
  views.resize(count);
  for (std::size_t k = 0; k < count; ++k) {
    const auto& c = octaves[k];
    views[k] = {c.cell.data(),
                {c.weight[0].data(), c.weight[1].data(), c.weight[2].data(), c.weight[3].data()},
                buffer.data() + offset[k],
                c.first_cell,
                c.direct,
                octs[k].amplitude};
  }

  const vector_ops ops{hn::Set(df, 1.0f), hn::Set(df, 2.0f)};
  const octave_view* HWY_RESTRICT view = views.data();
  for (int i = 0; i < n; i += lanes) {
    VF sum = hn::Zero(df);
    for (std::size_t k = 0; k < count; ++k) {
      const octave_view& c = view[k];
      const auto at = static_cast<std::size_t>(i);
      const VI rel = hn::LoadU(di, c.cell + at);
      VF tap[taps];
      if (c.direct) {
        const VI ix = hn::Add(rel, hn::Set(di, c.first_cell + low));
        for (int a = 0; a < taps; ++a) tap[a] = column<Catmull, Signed>(rows[k], hn::Add(ix, hn::Set(di, a)));
      } else {
        const float* buf = c.buf;
        const std::int32_t lo = c.cell[at], hi = c.cell[at + static_cast<std::size_t>(lanes) - 1];
        if (hi == lo) {
          // The whole vector in one cell (coarse octaves): broadcasts.
          for (int a = 0; a < taps; ++a) tap[a] = hn::Set(df, buf[lo + low + a]);
        } else if (hi - lo < lanes) {
          const auto index = hn::IndicesFromVec(df, hn::Sub(rel, hn::Set(di, lo)));
          for (int a = 0; a < taps; ++a) tap[a] = hn::TableLookupLanes(hn::LoadU(df, buf + lo + low + a), index);
        } else {
          for (int a = 0; a < taps; ++a) tap[a] = hn::GatherIndex(df, buf, hn::Add(rel, hn::Set(di, low + a)));
        }
      }
      VF v;
      if constexpr (Catmull) {
        VF s = hn::Mul(hn::LoadU(df, c.weight[0] + at), tap[0]);
        for (int a = 1; a < 4; ++a) s = hn::Add(s, hn::Mul(hn::LoadU(df, c.weight[a] + at), tap[a]));
        // catmull_rom_finish
        const VF middle = hn::Set(df, Signed ? 0.0f : 0.5f);
        const VF r = hn::Add(hn::Mul(hn::Sub(s, middle), hn::Set(df, k_catmull_gain)), middle);
        v = hn::Min(hn::Max(r, hn::Set(df, Signed ? -1.0f : 0.0f)), hn::Set(df, 1.0f));
      } else {
        v = hn::Add(tap[0], hn::Mul(hn::LoadU(df, c.weight[0] + at), hn::Sub(tap[1], tap[0])));
      }
      // Kind is a constant here: the combinator's switch folds away.
      sum =
          landform::noise::value_detail::HWY_NAMESPACE::fractal_accumulate(Kind, sum, v, hn::Set(df, c.amplitude), ops);
    }
    if (i + lanes <= n) {
      hn::StoreU(sum, df, out + i);
    } else {
      HWY_ALIGN float tail[k_pad];
      hn::Store(sum, df, tail);
      std::memcpy(out + i, tail, static_cast<std::size_t>(n - i) * sizeof(float));
    }
  }
}

template <bool Catmull, bool Signed>
void row_of_fade(const value_plan& plan, const value_row_kernel::octave_columns* octaves, int n, double wy,
                 float* HWY_RESTRICT out) {
  switch (plan.fractal.kind) {
    case fractal_kind::ridged:
      return row_of_kind<Catmull, Signed, fractal_kind::ridged>(plan, octaves, n, wy, out);
    case fractal_kind::billow:
      return row_of_kind<Catmull, Signed, fractal_kind::billow>(plan, octaves, n, wy, out);
    case fractal_kind::fbm:
      break;
  }
  row_of_kind<Catmull, Signed, fractal_kind::fbm>(plan, octaves, n, wy, out);
}

void row(const value_plan& plan, const value_row_kernel::octave_columns* octaves, int n, double wy,
         float* HWY_RESTRICT out) {
  const bool catmull = plan.fade == value_fade::catmull_rom;
  if (catmull && plan.is_signed) {
    row_of_fade<true, true>(plan, octaves, n, wy, out);
  } else if (catmull) {
    row_of_fade<true, false>(plan, octaves, n, wy, out);
  } else if (plan.is_signed) {
    row_of_fade<false, true>(plan, octaves, n, wy, out);
  } else {
    row_of_fade<false, false>(plan, octaves, n, wy, out);
  }
}

}  // namespace landform::noise::value_detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace landform::noise::value_detail {

HWY_EXPORT(row);

void simd_row(const value_plan& plan, const value_row_kernel::octave_columns* octaves, int n, double wy, float* out) {
  HWY_DYNAMIC_DISPATCH(row)(plan, octaves, n, wy, out);
}

}  // namespace landform::noise::value_detail
#endif
