// Wavefronts of the tutorial's in-place passes (Erode, Smoothen) in SIMD
// lanes, compiled once per Highway target (foreach_target) and chosen at run
// time.
//
// A lane is one cell of a wavefront; its eight neighbours are contiguous
// loads (inplace_scan.hpp). Heights are promoted to double and every lane
// computes the scalar pass's values (c - n per neighbour, the first largest,
// c - d/2 and n + d/2 rounded to float), so the result is the tutorial's bit
// for bit on every target.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "stages/inplace_scan_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <array>
#include <cstddef>

#include "stages/inplace_scan.hpp"

HWY_BEFORE_NAMESPACE();
namespace landform::inplace_scan::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DD = hn::ScalableTag<double>;
using DF = hn::Rebind<float, DD>;  // as many floats as doubles

// The Moore neighbours in the scan order of the tutorial: x offset outer,
// y offset inner.
constexpr std::array<std::array<int, 2>, 8> k_moore = {
    {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}}};

// The 3 x 3 block, centre included, in the same order.
constexpr std::array<std::array<int, 2>, 9> k_block = {
    {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 0}, {0, 1}, {1, -1}, {1, 0}, {1, 1}}};

// One cell (the lanes that do not fill a vector).
void erode_cell(float* centre, const std::array<float*, 8>& neighbour, std::ptrdiff_t x, double threshold) {
  const double c = centre[x];
  double d_max = 0.0;
  float* match = nullptr;
  for (float* n : neighbour) {
    const double d = c - static_cast<double>(n[x]);
    if (d > d_max) {  // strict: the first maximum in scan order wins
      d_max = d;
      match = n + x;
    }
  }
  if (0.0 < d_max && d_max <= threshold) {
    const double d_h = 0.5 * d_max;
    centre[x] = static_cast<float>(c - d_h);
    *match = static_cast<float>(static_cast<double>(*match) + d_h);
  }
}

// The cells x .. x + lanes - 1 of one wavefront. The scan keeps the first
// largest drop; here the largest drop is a maximum tree (the same value:
// rounding is monotone) and its neighbour the first with that drop. Lanes
// that move nothing store back the values they loaded (promoted and demoted
// exactly): the nine rows touched are distinct and no other lane's, so this
// equals the scan.
HWY_INLINE void erode_lanes(float* HWY_RESTRICT centre, const std::array<float*, 8>& neighbour, std::ptrdiff_t x,
                            double threshold) {
  const DD dd;
  const DF df;
  const auto c = hn::PromoteTo(dd, hn::LoadU(df, centre + x));
  std::array<hn::Vec<DD>, 8> n, drop;
  for (std::size_t k = 0; k < n.size(); ++k) {
    n[k] = hn::PromoteTo(dd, hn::LoadU(df, neighbour[k] + x));
    drop[k] = hn::Sub(c, n[k]);
  }
  const auto d_max = hn::Max(hn::Max(hn::Max(drop[0], drop[1]), hn::Max(drop[2], drop[3])),
                             hn::Max(hn::Max(drop[4], drop[5]), hn::Max(drop[6], drop[7])));
  auto open = hn::And(hn::Lt(hn::Zero(dd), d_max), hn::Le(d_max, hn::Set(dd, threshold)));
  const auto d_h = hn::Mul(hn::Set(dd, 0.5), d_max);
  hn::StoreU(hn::DemoteTo(df, hn::IfThenElse(open, hn::Sub(c, d_h), c)), df, centre + x);
  // `open`: the lanes whose neighbour is still to be found, in scan order.
  for (std::size_t k = 0; k < n.size(); ++k) {
    const auto here = hn::And(open, hn::Eq(drop[k], d_max));
    hn::StoreU(hn::DemoteTo(df, hn::IfThenElse(here, hn::Add(n[k], d_h), n[k])), df, neighbour[k] + x);
    open = hn::AndNot(here, open);
  }
}

// One tutorial cell at x of a wavefront (the lanes that do not fill a vector).
void smooth_cell(float* centre, const std::array<float*, 9>& block, std::ptrdiff_t x) {
  double total = 0.0;
  for (const float* b : block) total += static_cast<double>(b[x]);
  centre[x] = static_cast<float>(total / 9.0);
}

HWY_INLINE void smooth_lanes(float* HWY_RESTRICT centre, const std::array<float*, 9>& block, std::ptrdiff_t x) {
  const DD dd;
  const DF df;
  auto total = hn::Zero(dd);
  for (const float* b : block) total = hn::Add(total, hn::PromoteTo(dd, hn::LoadU(df, b + x)));
  hn::StoreU(hn::DemoteTo(df, hn::Div(total, hn::Set(dd, 9.0))), df, centre + x);
}

// Calls cells(centre, rows, x_begin, x_end) for the interior cells of each
// wavefront in [t_begin, t_end), `rows` pointing at the (x + u, y + v) rows of
// `Offsets` in that order.
template <std::size_t N, class Cells>
void for_each_wavefront(skewed_grid& g, int t_begin, int t_end, const std::array<std::array<int, 2>, N>& offsets,
                        const Cells& cells) {
  float* values = g.cells.data();
  const std::ptrdiff_t* base = g.base.data();
  for (int t = t_begin; t < t_end; ++t) {
    // Interior cells: 1 <= x <= width - 2 and 1 <= t - 3 x <= height - 2.
    const std::ptrdiff_t x_lo = std::max(1, (t - (g.height - 2) + 2) / 3);
    const std::ptrdiff_t x_hi = std::min(g.width - 2, (t - 1) / 3);
    if (x_lo > x_hi) continue;  // a corner wavefront: border cells only
    std::array<float*, N> rows{};
    for (std::size_t k = 0; k < N; ++k) {
      const int u = offsets[k][0], v = offsets[k][1];
      rows[k] = values + base[t + v + 3 * u] + u;
    }
    cells(values + base[t], rows, x_lo, x_hi + 1);
  }
}

void erode_wavefronts(skewed_grid& g, int t_begin, int t_end, double threshold) {
  const auto lanes = static_cast<std::ptrdiff_t>(hn::Lanes(DD()));
  for_each_wavefront(g, t_begin, t_end, k_moore,
                     [&](float* centre, const std::array<float*, 8>& neighbour, std::ptrdiff_t x, std::ptrdiff_t end) {
                       for (; x + lanes <= end; x += lanes) erode_lanes(centre, neighbour, x, threshold);
                       for (; x < end; ++x) erode_cell(centre, neighbour, x, threshold);
                     });
}

void smooth_wavefronts(skewed_grid& g, int t_begin, int t_end) {
  const auto lanes = static_cast<std::ptrdiff_t>(hn::Lanes(DD()));
  for_each_wavefront(g, t_begin, t_end, k_block,
                     [&](float* centre, const std::array<float*, 9>& block, std::ptrdiff_t x, std::ptrdiff_t end) {
                       for (; x + lanes <= end; x += lanes) smooth_lanes(centre, block, x);
                       for (; x < end; ++x) smooth_cell(centre, block, x);
                     });
}

const char* target_name() {
  return hwy::TargetName(HWY_TARGET);
}

}  // namespace landform::inplace_scan::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace landform::inplace_scan {

HWY_EXPORT(erode_wavefronts);
HWY_EXPORT(smooth_wavefronts);
HWY_EXPORT(target_name);

void erode_wavefronts(skewed_grid& g, int t_begin, int t_end, double threshold) {
  HWY_DYNAMIC_DISPATCH(erode_wavefronts)(g, t_begin, t_end, threshold);
}

void smooth_wavefronts(skewed_grid& g, int t_begin, int t_end) {
  HWY_DYNAMIC_DISPATCH(smooth_wavefronts)(g, t_begin, t_end);
}

std::string wavefront_target() {
  return HWY_DYNAMIC_DISPATCH(target_name)();
}

}  // namespace landform::inplace_scan
#endif
