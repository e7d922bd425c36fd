// SIMD fractal rows of OpenSimplex2 and Perlin noise, compiled once per
// Highway target (foreach_target) and chosen at run time
// (HWY_DYNAMIC_DISPATCH).
//
// Bit-identity with the scalar references on every target rests on three
// rules: the same IEEE operations in the same order as fractal_row_scalar
// and the noises' scalar code (separate Mul and Add, never MulAdd; the file
// is compiled with -ffp-contract=off), only exactly rounded operations (no
// approximate reciprocal or square root), and integer hashes computed
// exactly (OpenSimplex2's 64-bit one in pairs of 32-bit lanes).

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "noise/noise_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cstdint>
#include <cstring>

#include "landform/noise/opensimplex2.hpp"
#include "landform/noise/perlin.hpp"
#include "noise/opensimplex2_detail.hpp"
#include "noise/perlin_detail.hpp"

HWY_BEFORE_NAMESPACE();
namespace landform::noise::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_SCALAR
// Highway's one-lane fallback (chosen only on CPUs without SSSE3) lacks the
// half-vector operations below: it runs the scalar reference itself.
void fractal_row(const fractal_plan& plan, std::int64_t x0, int n, double cell_size, double wy,
                 float* HWY_RESTRICT out) {
  opensimplex2_fractal_row_scalar(plan, x0, n, cell_size, wy, out);
}
void perlin_row(const fractal_plan& plan, std::int64_t x0, int n, double cell_size, double wy,
                float* HWY_RESTRICT out) {
  perlin_fractal_row_scalar(plan, x0, n, cell_size, wy, out);
}
#else

using DF = hn::ScalableTag<float>;
using DD = hn::Repartition<double, DF>;  // half as many lanes
using DH = hn::Half<DF>;                 // float, as many lanes as DD
using DI = hn::RebindToSigned<DF>;
using DIH = hn::Half<DI>;
using DU = hn::RebindToUnsigned<DF>;
using VF = hn::Vec<DF>;
using VD = hn::Vec<DD>;
using VI = hn::Vec<DI>;
using VU = hn::Vec<DU>;

// A 64-bit integer per float lane, as its low and high 32 bits.
struct wide {
  VU lo, hi;
};

// The high 32 bits of the 64-bit products a * b, lane by lane.
HWY_INLINE VU mul_hi(VU a, VU b) {
  const DU du;
  const hn::Repartition<std::uint64_t, DU> d64;
  const auto even = hn::MulEven(a, b);
  const auto odd = hn::MulEven(hn::BitCast(du, hn::ShiftRight<32>(hn::BitCast(d64, a))),
                               hn::BitCast(du, hn::ShiftRight<32>(hn::BitCast(d64, b))));
  return hn::OddEven(hn::BitCast(du, odd), hn::BitCast(du, hn::ShiftRight<32>(even)));
}

HWY_INLINE wide broadcast(std::uint64_t v) {
  const DU du;
  return {hn::Set(du, static_cast<std::uint32_t>(v)), hn::Set(du, static_cast<std::uint32_t>(v >> 32))};
}

// int64(b) * prime modulo 2^64, for int32 lanes b.
HWY_INLINE wide times_prime(VI b, std::uint64_t prime) {
  const DU du;
  const DI di;
  const VU u = hn::BitCast(du, b);
  const wide p = broadcast(prime);
  const VU lo = hn::Mul(u, p.lo);
  VU hi = hn::Add(mul_hi(u, p.lo), hn::Mul(u, p.hi));
  // A negative b is u - 2^32 as a 64-bit integer: subtract 2^32 * prime.
  hi = hn::Sub(hi, hn::IfThenElseZero(hn::RebindMask(du, hn::Lt(b, hn::Zero(di))), p.lo));
  return {lo, hi};
}

// a + c modulo 2^64.
HWY_INLINE wide add(const wide& a, std::uint64_t c) {
  const DU du;
  const DI di;
  const wide k = broadcast(c);
  const VU lo = hn::Add(a.lo, k.lo);
  // Carry when lo < k.lo unsigned: compare with the sign bits flipped.
  const VU sign = hn::Set(du, 0x80000000u);
  const auto carry = hn::Lt(hn::BitCast(di, hn::Xor(lo, sign)), hn::BitCast(di, hn::Xor(k.lo, sign)));
  const VU hi = hn::Sub(hn::Add(a.hi, k.hi), hn::BitCast(du, hn::VecFromMask(di, carry)));
  return {lo, hi};
}

// The gradient index of the published hash: h = (seed ^ xp ^ yp) * M,
// h ^= h >> 58 (arithmetic), index = (int)h & 0xFE.
HWY_INLINE VI gradient_index(const wide& seed, const wide& xp, const wide& yp) {
  const DI di;
  const VU hlo = hn::Xor(hn::Xor(seed.lo, xp.lo), yp.lo);
  const VU hhi = hn::Xor(hn::Xor(seed.hi, xp.hi), yp.hi);
  const wide m = broadcast(os2::k_hash_multiplier);
  const VU plo = hn::Mul(hlo, m.lo);
  const VU phi = hn::Add(hn::Add(mul_hi(hlo, m.lo), hn::Mul(hlo, m.hi)), hn::Mul(hhi, m.lo));
  return hn::And(hn::Xor(hn::BitCast(di, plo), hn::ShiftRight<26>(hn::BitCast(di, phi))), hn::Set(di, 0xFE));
}

// (g * 43) >> 10 is g / 24 for every g < 128.
constexpr bool div24_exact() {
  for (int g = 0; g < 128; ++g)
    if ((g * 43) >> 10 != g / 24) return false;
  return true;
}
static_assert(div24_exact());

// g % 24 for the gradient index `index` = 2 g, g in [0, 128).
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
// With g = 8 a + b (b < 8), g % 24 = 8 (a % 3) + b, and a < 16 fits one
// 16-lane lookup: cheaper than the multiply below.
alignas(64) constexpr std::int32_t k_a_mod3_times8[16] = {0, 8, 16, 0, 8, 16, 0, 8, 16, 0, 8, 16, 0, 8, 16, 0};

HWY_INLINE VI gradient_24(VI index) {
  const DI di;
  const VI a = hn::ShiftRight<4>(index);
  const VI b = hn::And(hn::ShiftRight<1>(index), hn::Set(di, 7));
  return hn::Or(hn::TableLookupLanes(hn::Load(di, k_a_mod3_times8), hn::IndicesFromVec(di, a)), b);
}
#else
HWY_INLINE VI gradient_24(VI index) {
  const DI di;
  const VI g128 = hn::ShiftRight<1>(index);
  const VI q = hn::ShiftRight<10>(hn::Mul(g128, hn::Set(di, 43)));  // g128 / 24, see div24_exact
  return hn::Sub(g128, hn::Add(hn::ShiftLeft<4>(q), hn::ShiftLeft<3>(q)));
}
#endif

// (a^2)^2 * (g . d) for the gradient at `index` (= 2 g, g in [0, 128)).
// The table repeats 24 gradients, so the lookup is of g % 24 in registers
// (lane permutes over 24 / lanes chunks) instead of a gather: the same values.
HWY_INLINE VF contribution(VF a, VI index, VF dx, VF dy) {
  const DF df;
  const DI di;
  constexpr int k_distinct = 24;
  const int lanes = static_cast<int>(hn::Lanes(df));
  const VI g = gradient_24(index);
  // Chunks start at multiples of the (power of two) lane count, so the lane
  // within a chunk is g & (lanes - 1) for every chunk.
  const auto lane = hn::IndicesFromVec(df, hn::And(g, hn::Set(di, lanes - 1)));
  VF gx = hn::TableLookupLanes(hn::Load(df, os2::k_gradient_x.data()), lane);
  VF gy = hn::TableLookupLanes(hn::Load(df, os2::k_gradient_y.data()), lane);
  for (int c = lanes; c < k_distinct; c += lanes) {
    const auto in_chunk = hn::RebindMask(df, hn::Gt(g, hn::Set(di, c - 1)));
    gx = hn::IfThenElse(in_chunk, hn::TableLookupLanes(hn::Load(df, os2::k_gradient_x.data() + c), lane), gx);
    gy = hn::IfThenElse(in_chunk, hn::TableLookupLanes(hn::Load(df, os2::k_gradient_y.data() + c), lane), gy);
  }
  const VF a2 = hn::Mul(a, a);
  return hn::Mul(hn::Mul(a2, a2), hn::Add(hn::Mul(gx, dx), hn::Mul(gy, dy)));
}

// Base cells (floor, int32) and offsets (double difference rounded to
// float) of the lanes (x_lo, x_hi), (y_lo, y_hi).
struct cell_split {
  VF fx, fy;
  VI ix, iy;
};

HWY_INLINE cell_split split(VD x_lo, VD x_hi, VD y_lo, VD y_hi) {
  const DF df;
  const DH dh;
  const DI di;
  const DIH dih;
  const VD fx_lo = hn::Floor(x_lo), fx_hi = hn::Floor(x_hi), fy_lo = hn::Floor(y_lo), fy_hi = hn::Floor(y_hi);
  return {hn::Combine(df, hn::DemoteTo(dh, hn::Sub(x_hi, fx_hi)), hn::DemoteTo(dh, hn::Sub(x_lo, fx_lo))),
          hn::Combine(df, hn::DemoteTo(dh, hn::Sub(y_hi, fy_hi)), hn::DemoteTo(dh, hn::Sub(y_lo, fy_lo))),
          hn::Combine(di, hn::DemoteTo(dih, fx_hi), hn::DemoteTo(dih, fx_lo)),
          hn::Combine(di, hn::DemoteTo(dih, fy_hi), hn::DemoteTo(dih, fy_lo))};
}

// The lattice hash state of a vector of samples: the gradient indices of
// the base vertex, of the (1, 1) vertex, and of the third vertex, (0, 1)
// where `upper` is set, else (1, 0).
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
// AVX-512 multiplies 64-bit lanes natively (vpmullq), so the published
// 64-bit hash runs in 64-bit lanes, one half vector at a time: a third of
// the operations of the pairs of 32-bit lanes below. Integer arithmetic is
// exact, so the indices are those of every other target.
using DL = hn::Repartition<std::int64_t, DF>;  // as many lanes as DD
using VL = hn::Vec<DL>;

// seed ^ xp and yp of a half vector, for the base vertex and the next one.
struct lattice_half {
  VL seed_x, seed_x_next, y, y_next;
};

HWY_INLINE lattice_half lattice_of(std::uint64_t seed, VD x_floor, VD y_floor) {
  const DL dl;
  const VL s = hn::Set(dl, static_cast<std::int64_t>(seed));
  const VL px = hn::Set(dl, static_cast<std::int64_t>(os2::k_prime_x));
  const VL py = hn::Set(dl, static_cast<std::int64_t>(os2::k_prime_y));
  const VL xp = hn::Mul(hn::ConvertTo(dl, x_floor), px), yp = hn::Mul(hn::ConvertTo(dl, y_floor), py);
  return {hn::Xor(s, xp), hn::Xor(s, hn::Add(xp, px)), yp, hn::Add(yp, py)};
}

// h = (seed ^ xp ^ yp) * M, h ^= h >> 58 (arithmetic), index = (int)h & 0xFE.
HWY_INLINE VL index_half(VL seed_x, VL y) {
  const DL dl;
  const VL h = hn::Mul(hn::Xor(seed_x, y), hn::Set(dl, static_cast<std::int64_t>(os2::k_hash_multiplier)));
  return hn::And(hn::Xor(h, hn::ShiftRight<58>(h)), hn::Set(dl, 0xFE));
}

// The low 32 bits of each 64-bit lane of (lo, hi), as one vector.
HWY_INLINE VI join_halves(VL lo, VL hi) {
  const DI di;
  return hn::ConcatEven(di, hn::BitCast(di, hi), hn::BitCast(di, lo));
}

struct lattice_hashes {
  lattice_half lo, hi;

  HWY_INLINE VI base() const { return join_halves(index_half(lo.seed_x, lo.y), index_half(hi.seed_x, hi.y)); }
  HWY_INLINE VI next() const {
    return join_halves(index_half(lo.seed_x_next, lo.y_next), index_half(hi.seed_x_next, hi.y_next));
  }
  HWY_INLINE VI third(hn::Mask<DF> upper) const {
    const DI di;
    const DIH dih;
    const hn::Rebind<std::int64_t, DIH> dl;
    const VI m = hn::VecFromMask(di, hn::RebindMask(di, upper));
    const auto m_lo = hn::MaskFromVec(hn::PromoteTo(dl, hn::LowerHalf(dih, m)));
    const auto m_hi = hn::MaskFromVec(hn::PromoteTo(dl, hn::UpperHalf(dih, m)));
    return join_halves(
        index_half(hn::IfThenElse(m_lo, lo.seed_x, lo.seed_x_next), hn::IfThenElse(m_lo, lo.y_next, lo.y)),
        index_half(hn::IfThenElse(m_hi, hi.seed_x, hi.seed_x_next), hn::IfThenElse(m_hi, hi.y_next, hi.y)));
  }
};

HWY_INLINE lattice_hashes hashes_of(std::uint64_t seed, VD fx_lo, VD fx_hi, VD fy_lo, VD fy_hi) {
  return {lattice_of(seed, fx_lo, fy_lo), lattice_of(seed, fx_hi, fy_hi)};
}
#else
struct lattice_hashes {
  wide seed, xsbp, ysbp, xs_next, ys_next;

  HWY_INLINE VI base() const { return gradient_index(seed, xsbp, ysbp); }
  HWY_INLINE VI next() const { return gradient_index(seed, xs_next, ys_next); }
  HWY_INLINE VI third(hn::Mask<DF> upper) const {
    const auto upper_u = hn::RebindMask(DU(), upper);
    const wide xp2 = {hn::IfThenElse(upper_u, xsbp.lo, xs_next.lo), hn::IfThenElse(upper_u, xsbp.hi, xs_next.hi)};
    const wide yp2 = {hn::IfThenElse(upper_u, ys_next.lo, ysbp.lo), hn::IfThenElse(upper_u, ys_next.hi, ysbp.hi)};
    return gradient_index(seed, xp2, yp2);
  }
};

HWY_INLINE lattice_hashes hashes_of(std::uint64_t seed, VD fx_lo, VD fx_hi, VD fy_lo, VD fy_hi) {
  const DI di;
  const DIH dih;
  const VI xsb = hn::Combine(di, hn::DemoteTo(dih, fx_hi), hn::DemoteTo(dih, fx_lo));
  const VI ysb = hn::Combine(di, hn::DemoteTo(dih, fy_hi), hn::DemoteTo(dih, fy_lo));
  const wide xsbp = times_prime(xsb, os2::k_prime_x), ysbp = times_prime(ysb, os2::k_prime_y);
  return {broadcast(seed), xsbp, ysbp, add(xsbp, os2::k_prime_x), add(ysbp, os2::k_prime_y)};
}
#endif

// noise2(seed, x, y) for the lanes (x_lo, x_hi), (y_lo, y_hi).
HWY_INLINE VF noise2(std::uint64_t seed, VD x_lo, VD x_hi, VD y_lo, VD y_hi) {
  const DF df;
  const DD dd;
  const DH dh;
  // Skew onto the A2* lattice in double: s = k_skew (x + y).
  const VD skew = hn::Set(dd, os2::k_skew);
  const VD s_lo = hn::Mul(skew, hn::Add(x_lo, y_lo)), s_hi = hn::Mul(skew, hn::Add(x_hi, y_hi));
  const VD xs_lo = hn::Add(x_lo, s_lo), xs_hi = hn::Add(x_hi, s_hi);
  const VD ys_lo = hn::Add(y_lo, s_lo), ys_hi = hn::Add(y_hi, s_hi);
  // Base cell (floor) and offsets (double difference rounded to float).
  const VD fx_lo = hn::Floor(xs_lo), fx_hi = hn::Floor(xs_hi), fy_lo = hn::Floor(ys_lo), fy_hi = hn::Floor(ys_hi);
  const VF xi = hn::Combine(df, hn::DemoteTo(dh, hn::Sub(xs_hi, fx_hi)), hn::DemoteTo(dh, hn::Sub(xs_lo, fx_lo)));
  const VF yi = hn::Combine(df, hn::DemoteTo(dh, hn::Sub(ys_hi, fy_hi)), hn::DemoteTo(dh, hn::Sub(ys_lo, fy_lo)));
  const lattice_hashes hashes = hashes_of(seed, fx_lo, fx_hi, fy_lo, fy_hi);

  const VF zero = hn::Zero(df);
  const VF r2 = hn::Set(df, os2::k_r_squared);
  const VF t = hn::Mul(hn::Add(xi, yi), hn::Set(df, os2::k_unskew_f));
  const VF dx0 = hn::Add(xi, t), dy0 = hn::Add(yi, t);

  const VF a0 = hn::Sub(hn::Sub(r2, hn::Mul(dx0, dx0)), hn::Mul(dy0, dy0));
  VF value = hn::IfThenElseZero(hn::Gt(a0, zero), contribution(a0, hashes.base(), dx0, dy0));

  const VF a1 = hn::Add(hn::Mul(hn::Set(df, os2::k_a1_t_factor_f), t), hn::Add(hn::Set(df, os2::k_a1_constant_f), a0));
  const VF off1 = hn::Set(df, os2::k_second_offset_f);
  const VF dx1 = hn::Sub(dx0, off1), dy1 = hn::Sub(dy0, off1);
  value = hn::IfThenElse(hn::Gt(a1, zero), hn::Add(value, contribution(a1, hashes.next(), dx1, dy1)), value);

  // Third vertex: (0, 1) above the diagonal, (1, 0) below.
  const auto upper = hn::Gt(dy0, dx0);
  const VF u = hn::Set(df, os2::k_unskew_f), u1 = hn::Set(df, os2::k_unskew_plus_1_f);
  const VF dx2 = hn::Sub(dx0, hn::IfThenElse(upper, u, u1));
  const VF dy2 = hn::Sub(dy0, hn::IfThenElse(upper, u1, u));
  const VF a2 = hn::Sub(hn::Sub(r2, hn::Mul(dx2, dx2)), hn::Mul(dy2, dy2));
  value = hn::IfThenElse(hn::Gt(a2, zero), hn::Add(value, contribution(a2, hashes.third(upper), dx2, dy2)), value);
  return value;
}

LANDFORM_DEFINE_FRACTAL_ACCUMULATE

struct vector_ops {
  VF one, two;
  [[nodiscard]] VF abs(VF v) const { return hn::Abs(v); }
};

template <class Noise>
HWY_INLINE void fractal_row_of(const Noise& noise2, const fractal_plan& plan, std::int64_t x0, int n, double cell_size,
                               double wy, float* HWY_RESTRICT out) {
  const DF df;
  const DD dd;
  const DH dh;
  const auto nf = static_cast<int>(hn::Lanes(df));
  const auto nd = static_cast<double>(hn::Lanes(dd));
  const vector_ops ops{hn::Set(df, 1.0f), hn::Set(df, 2.0f)};
  const VD iota = hn::Iota(dd, 0.0), cs = hn::Set(dd, cell_size);
  for (int i = 0; i < n; i += nf) {
    // World x of the lanes: double(x0 + i + k) * cell_size, as the scalar path.
    const auto base = static_cast<double>(x0 + i);
    VD px_lo = hn::Mul(hn::Add(hn::Set(dd, base), iota), cs);
    VD px_hi = hn::Mul(hn::Add(hn::Set(dd, base + nd), iota), cs);
    VD py_lo = hn::Set(dd, wy), py_hi = py_lo;
    if (plan.warped()) {
      const VD wf = hn::Set(dd, plan.warp_frequency), wa = hn::Set(dd, plan.warp_amplitude);
      const VD qx_lo = hn::Mul(px_lo, wf), qx_hi = hn::Mul(px_hi, wf);
      const VD qy_lo = hn::Mul(py_lo, wf), qy_hi = hn::Mul(py_hi, wf);
      const VF ox = noise2(plan.warp_seed_x, qx_lo, qx_hi, qy_lo, qy_hi);
      const VF oy = noise2(plan.warp_seed_y, qx_lo, qx_hi, qy_lo, qy_hi);
      px_lo = hn::Add(px_lo, hn::Mul(wa, hn::PromoteTo(dd, hn::LowerHalf(dh, ox))));
      px_hi = hn::Add(px_hi, hn::Mul(wa, hn::PromoteTo(dd, hn::UpperHalf(dh, ox))));
      py_lo = hn::Add(py_lo, hn::Mul(wa, hn::PromoteTo(dd, hn::LowerHalf(dh, oy))));
      py_hi = hn::Add(py_hi, hn::Mul(wa, hn::PromoteTo(dd, hn::UpperHalf(dh, oy))));
    }
    VF sum = hn::Zero(df);
    for (const auto& o : plan.octaves) {
      const VD f = hn::Set(dd, o.frequency);
      const VF v = noise2(o.seed, hn::Mul(px_lo, f), hn::Mul(px_hi, f), hn::Mul(py_lo, f), hn::Mul(py_hi, f));
      sum = landform::noise::HWY_NAMESPACE::fractal_accumulate(plan.kind, sum, v, hn::Set(df, o.amplitude), ops);
    }
    if (i + nf <= n) {
      hn::StoreU(sum, df, out + i);
    } else {
      HWY_ALIGN float tail[64];
      hn::Store(sum, df, tail);
      std::memcpy(out + i, tail, static_cast<std::size_t>(n - i) * sizeof(float));
    }
  }
}

// ---- Perlin: improved gradient noise (Perlin 2002: quintic fade) ----

// The 8 gradients (x, y): the diagonals and the axes, all of length sqrt(2),
// padded with zeros to 16 entries for vectors of up to 16 lanes.
alignas(64) constexpr float k_perlin_gx[16] = {1, -1, 1, -1, perlin_detail::k_sqrt2, -perlin_detail::k_sqrt2, 0, 0};
alignas(64) constexpr float k_perlin_gy[16] = {1, 1, -1, -1, 0, 0, perlin_detail::k_sqrt2, -perlin_detail::k_sqrt2};

// g . (dx, dy) for gradient indices in [0, 8).
HWY_INLINE VF perlin_dot(VI index, VF dx, VF dy) {
  const DF df;
  const DI di;
  const int lanes = static_cast<int>(hn::Lanes(df));
  const auto lane = hn::IndicesFromVec(df, hn::And(index, hn::Set(di, lanes - 1)));
  VF gx = hn::TableLookupLanes(hn::Load(df, k_perlin_gx), lane);
  VF gy = hn::TableLookupLanes(hn::Load(df, k_perlin_gy), lane);
  for (int c = lanes; c < 8; c += lanes) {
    const auto in_chunk = hn::RebindMask(df, hn::Gt(index, hn::Set(di, c - 1)));
    gx = hn::IfThenElse(in_chunk, hn::TableLookupLanes(hn::Load(df, k_perlin_gx + c), lane), gx);
    gy = hn::IfThenElse(in_chunk, hn::TableLookupLanes(hn::Load(df, k_perlin_gy + c), lane), gy);
  }
  return hn::Add(hn::Mul(gx, dx), hn::Mul(gy, dy));
}

HWY_INLINE VF perlin_fade(VF t) {
  const DF df;
  const VF inner = hn::Add(hn::Mul(t, hn::Sub(hn::Mul(t, hn::Set(df, 6.0f)), hn::Set(df, 15.0f))), hn::Set(df, 10.0f));
  return hn::Mul(hn::Mul(hn::Mul(t, t), t), inner);
}

HWY_INLINE VF perlin2(std::int64_t seed64, VD x_lo, VD x_hi, VD y_lo, VD y_hi) {
  const DF df;
  const DI di;
  const DU du;
  const cell_split c = split(x_lo, x_hi, y_lo, y_hi);
  const VF tx = c.fx, ty = c.fy;
  const VI ix = c.ix, iy = c.iy;
  const VU px = hn::Set(du, perlin_detail::k_prime_x), py = hn::Set(du, perlin_detail::k_prime_y);
  const VU hx0 = hn::Mul(hn::BitCast(du, ix), px), hx1 = hn::Add(hx0, px);
  const VU hy0 = hn::Mul(hn::BitCast(du, iy), py), hy1 = hn::Add(hy0, py);
  const VU seed = hn::Set(du, perlin_detail::seed32(seed64)), m = hn::Set(du, perlin_detail::k_multiplier);
  const auto index = [&](VU hx, VU hy) {
    return hn::BitCast(di, hn::ShiftRight<29>(hn::Mul(hn::Xor(hn::Xor(seed, hx), hy), m)));
  };
  const VF one = hn::Set(df, 1.0f);
  const VF tx1 = hn::Sub(tx, one), ty1 = hn::Sub(ty, one);
  const VF n00 = perlin_dot(index(hx0, hy0), tx, ty);
  const VF n10 = perlin_dot(index(hx1, hy0), tx1, ty);
  const VF n01 = perlin_dot(index(hx0, hy1), tx, ty1);
  const VF n11 = perlin_dot(index(hx1, hy1), tx1, ty1);
  const VF u = perlin_fade(tx), v = perlin_fade(ty);
  const VF nx0 = hn::Add(n00, hn::Mul(u, hn::Sub(n10, n00)));
  const VF nx1 = hn::Add(n01, hn::Mul(u, hn::Sub(n11, n01)));
  return hn::Add(nx0, hn::Mul(v, hn::Sub(nx1, nx0)));
}

struct opensimplex2_noise {
  HWY_INLINE VF operator()(std::int64_t seed, VD x_lo, VD x_hi, VD y_lo, VD y_hi) const {
    return noise2(static_cast<std::uint64_t>(seed), x_lo, x_hi, y_lo, y_hi);
  }
};

struct perlin_noise {
  HWY_INLINE VF operator()(std::int64_t seed, VD x_lo, VD x_hi, VD y_lo, VD y_hi) const {
    return perlin2(seed, x_lo, x_hi, y_lo, y_hi);
  }
};

void fractal_row(const fractal_plan& plan, std::int64_t x0, int n, double cell_size, double wy,
                 float* HWY_RESTRICT out) {
  fractal_row_of(opensimplex2_noise{}, plan, x0, n, cell_size, wy, out);
}

void perlin_row(const fractal_plan& plan, std::int64_t x0, int n, double cell_size, double wy,
                float* HWY_RESTRICT out) {
  fractal_row_of(perlin_noise{}, plan, x0, n, cell_size, wy, out);
}

#endif  // HWY_TARGET == HWY_SCALAR

const char* target_name() {
  return hwy::TargetName(HWY_TARGET);
}

}  // namespace landform::noise::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace landform::noise {

HWY_EXPORT(fractal_row);
HWY_EXPORT(target_name);
HWY_EXPORT(perlin_row);

void perlin_fractal_row(const fractal_plan& plan, std::int64_t x0, int n, double cell_size, double wy, float* out) {
  HWY_DYNAMIC_DISPATCH(perlin_row)(plan, x0, n, cell_size, wy, out);
}

void opensimplex2_fractal_row(const fractal_plan& plan, std::int64_t x0, int n, double cell_size, double wy,
                              float* out) {
  HWY_DYNAMIC_DISPATCH(fractal_row)(plan, x0, n, cell_size, wy, out);
}

std::string simd_target_name() {
  return HWY_DYNAMIC_DISPATCH(target_name)();
}

}  // namespace landform::noise
#endif
