// SIMD rows of the legacy OpenSimplex noise (2D and 3D), compiled once per
// Highway target (foreach_target) and chosen at run time
// (HWY_DYNAMIC_DISPATCH). Each lane is one sample x[i] of a row.
//
// Bit-exact with the scalar port (and so with the 2014 Java) on every target:
//  * every lane performs the scalar code's double operations in its order
//    (separate Mul, Add and Sub, never MulAdd; -ffp-contract=off), including
//    the rounding of each step of expressions such as `d - 1 - k`;
//  * the scalar branches (which region of the cell, which extra vertices) are
//    computed as masks, and the operands are chosen with IfThenElse: only the
//    choice moves, never the arithmetic;
//  * lattice coordinates stay exact integers in double lanes (Floor, then
//    + 0.0 so that a zero cell is +0.0 like the int the scalar converts) and
//    become int32 only for the permutation lookups (gathers);
//  * a vertex outside its radius contributes +0.0, and the sum is never -0.0,
//    so adding it is the scalar's skipped `+=` (see open_simplex_legacy.cpp).

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "noise/open_simplex_legacy_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cstdint>

#include "landform/noise/open_simplex_legacy.hpp"
#include "noise/open_simplex_legacy_detail.hpp"

HWY_BEFORE_NAMESPACE();
namespace landform::os_legacy::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DD = hn::ScalableTag<double>;
using DI = hn::RebindToSigned<DD>;  // the lattice hashes, in 64-bit lanes
using DU = hn::RebindToUnsigned<DD>;
using VD = hn::Vec<DD>;
using VI = hn::Vec<DI>;
using VU = hn::Vec<DU>;
using MD = hn::Mask<DD>;

HWY_INLINE VD splat(double v) {
  return hn::Set(DD(), v);
}

// One lattice vertex per lane: its lattice coordinates (exact integers) and
// the sample's offset from it.
struct vertex_3d {
  VD sx, sy, sz;
  VD dx, dy, dz;
};

// One axis of a vertex.
struct axis_vertex {
  VD s, d;
};

HWY_INLINE axis_vertex pick(MD m, const axis_vertex& a, const axis_vertex& b) {
  return {hn::IfThenElse(m, a.s, b.s), hn::IfThenElse(m, a.d, b.d)};
}

HWY_INLINE vertex_3d pick(MD m, const vertex_3d& a, const vertex_3d& b) {
  return {hn::IfThenElse(m, a.sx, b.sx), hn::IfThenElse(m, a.sy, b.sy), hn::IfThenElse(m, a.sz, b.sz),
          hn::IfThenElse(m, a.dx, b.dx), hn::IfThenElse(m, a.dy, b.dy), hn::IfThenElse(m, a.dz, b.dz)};
}

HWY_INLINE vertex_3d join(const axis_vertex& x, const axis_vertex& y, const axis_vertex& z) {
  return {x.s, y.s, z.s, x.d, y.d, z.d};
}

// A pair of vertices, axis by axis.
struct axis_pair {
  axis_vertex v0, v1;
};

struct pair_3d {
  vertex_3d v0, v1;
};

HWY_INLINE pair_3d join(const axis_pair& x, const axis_pair& y, const axis_pair& z) {
  return {join(x.v0, y.v0, z.v0), join(x.v1, y.v1, z.v1)};
}

HWY_INLINE pair_3d pick(MD m, const pair_3d& a, const pair_3d& b) {
  return {pick(m, a.v0, b.v0), pick(m, a.v1, b.v1)};
}

// A vertex's bits (which axes it is offset along), one mask per axis.
struct bits {
  MD x, y, z;
};

HWY_INLINE bits pick(MD m, const bits& a, const bits& b) {
  return {hn::Or(hn::And(m, a.x), hn::AndNot(m, b.x)), hn::Or(hn::And(m, a.y), hn::AndNot(m, b.y)),
          hn::Or(hn::And(m, a.z), hn::AndNot(m, b.z))};
}

// fast_floor as an exact double; + 0.0 turns Floor's -0.0 into the +0.0 of
// the scalar's int 0.
HWY_INLINE VD lattice_floor(VD v) {
  return hn::Add(hn::Floor(v), hn::Zero(DD()));
}

// The two's complement bits of exact-integer lanes v (|v| < 2^51) in the low
// bits of the result: 1.5 * 2^52 + v has the fixed exponent of 2^52, so its
// mantissa is v (offset by 2^51). The high bits are the same for all such v,
// so differences and the low byte of sums are exact.
HWY_INLINE VI lattice_bits(VD v) {
  return hn::BitCast(DI(), hn::Add(v, splat(6755399441055744.0)));
}

HWY_INLINE VI low_byte(VI v) {
  return hn::And(v, hn::Set(DI(), 0xFF));
}

// perm[x & 0xFF] for the lattice columns xsb - 1 .. xsb + 2 of each lane,
// fetched with one gather of the packed perm_x4 table.
struct column_hash {
  VI first;   // lattice_bits(xsb - 1)
  VU packed;  // perm[xsb - 1 + o] in byte o
};

HWY_INLINE column_hash columns_of(const lane_tables& t, VD xsb) {
  const VI first = lattice_bits(hn::Sub(xsb, splat(1)));
  return {first, hn::GatherIndex(DU(), t.perm_x4, low_byte(first))};
}

// perm[perm[sx & 0xFF] + sy & 0xFF]: the first step picks the byte of
// column sx (sx - xsb + 1 in 0..3) from the packed word.
HWY_INLINE VI hash_xy(const column_hash& h, VD sx, VD sy) {
  const VU shift = hn::BitCast(DU(), hn::ShiftLeft<3>(hn::Sub(lattice_bits(sx), h.first)));
  const VI px = hn::BitCast(DI(), hn::And(h.packed >> shift, hn::Set(DU(), 0xFF)));
  return low_byte(hn::Add(px, lattice_bits(sy)));
}

// Component `Byte` of packed gradients as doubles: the byte g + 16 as the
// mantissa of 2^52 + (g + 16), minus 2^52 + 16, both exact.
template <int Byte>
HWY_INLINE VD gradient_component(VU packed) {
  const DU du;
  const VU field = hn::And(hn::ShiftRight<8 * Byte>(packed), hn::Set(du, 0xFF));
  const VD biased = hn::BitCast(DD(), hn::Or(field, hn::Set(du, 0x4330000000000000ULL)));  // 2^52
  return hn::Sub(biased, splat(4503599627370496.0 + 16));
}

// (attn^2)^2 * extrapolation where attn > 0, else +0.0 (contribution_2d/3d).
HWY_INLINE VD attenuate(VD attn, VD extrapolation) {
  const VD a2 = hn::Mul(attn, attn);
  return hn::IfThenElseZero(hn::Gt(attn, hn::Zero(DD())), hn::Mul(hn::Mul(a2, a2), extrapolation));
}

// ---------------------------------------------------------------------------
// 3D
// ---------------------------------------------------------------------------

// locate_3d of the scalar code, lane by lane.
struct cell_3d {
  VD xsb, ysb, zsb;
  VD xins, yins, zins, in_sum;
  VD dx0, dy0, dz0;
};

HWY_INLINE cell_3d locate_3d(VD x, VD y, VD z) {
  cell_3d c;
  const VD stretch_offset = hn::Mul(hn::Add(hn::Add(x, y), z), splat(k_stretch_3d));
  const VD xs = hn::Add(x, stretch_offset);
  const VD ys = hn::Add(y, stretch_offset);
  const VD zs = hn::Add(z, stretch_offset);
  c.xsb = lattice_floor(xs);
  c.ysb = lattice_floor(ys);
  c.zsb = lattice_floor(zs);
  const VD squish_offset = hn::Mul(hn::Add(hn::Add(c.xsb, c.ysb), c.zsb), splat(k_squish_3d));
  c.xins = hn::Sub(xs, c.xsb);
  c.yins = hn::Sub(ys, c.ysb);
  c.zins = hn::Sub(zs, c.zsb);
  c.in_sum = hn::Add(hn::Add(c.xins, c.yins), c.zins);
  c.dx0 = hn::Sub(x, hn::Add(c.xsb, squish_offset));
  c.dy0 = hn::Sub(y, hn::Add(c.ysb, squish_offset));
  c.dz0 = hn::Sub(z, hn::Add(c.zsb, squish_offset));
  return c;
}

HWY_INLINE axis_vertex ax(VD sb, double ds, VD d) {
  return {hn::Add(sb, splat(ds)), d};
}

// `d - a - b` as the gist writes it: (d - a) - b.
HWY_INLINE VD sub2(VD d, double a, double b) {
  return hn::Sub(hn::Sub(d, splat(a)), splat(b));
}

// The contribution of vertex v with the packed gradient g.
HWY_INLINE VD contribution_3d(const vertex_3d& v, VU g) {
  const VD attn = hn::Sub(hn::Sub(hn::Sub(splat(2), hn::Mul(v.dx, v.dx)), hn::Mul(v.dy, v.dy)), hn::Mul(v.dz, v.dz));
  const VD dot = hn::Add(hn::Add(hn::Mul(gradient_component<0>(g), v.dx), hn::Mul(gradient_component<1>(g), v.dy)),
                         hn::Mul(gradient_component<2>(g), v.dz));
  return attenuate(attn, dot);
}

// The contribution of vertex v whose hash perm[perm[sx] + sy] is `xy`.
HWY_INLINE VD contribution_3d(const lane_tables& t, const vertex_3d& v, VI xy) {
  return contribution_3d(v, hn::GatherIndex(DU(), t.gradient_3d, low_byte(hn::Add(xy, lattice_bits(v.sz)))));
}

HWY_INLINE VD contribution_3d(const lane_tables& t, const column_hash& h, const vertex_3d& v) {
  return contribution_3d(t, v, hn::BitCast(DI(), hn::GatherIndex(DU(), t.perm, hash_xy(h, v.sx, v.sy))));
}

// perm[perm[xsb + ox] + ysb + oy] for oy = -1 .. 2 in the bytes of one
// perm_x4 word: one gather serves every vertex of column ox.
HWY_INLINE VU column_word(const lane_tables& t, const column_hash& h, VD ysb, int ox) {
  const VU px = hn::And(hn::ShiftRightSame(h.packed, 8 * (ox + 1)), hn::Set(DU(), 0xFF));
  const VI first = hn::Add(hn::BitCast(DI(), px), lattice_bits(hn::Sub(ysb, splat(1))));
  return hn::GatherIndex(DU(), t.perm_x4, low_byte(first));
}

HWY_INLINE VI word_byte(VU word, int oy) {
  return hn::BitCast(DI(), hn::And(hn::ShiftRightSame(word, 8 * (oy + 1)), hn::Set(DU(), 0xFF)));
}

// The eight vertices of the unit cube of the stretched lattice, offsets as
// the scalar code computes them (add_lower_triple, add_upper_triple, ...).
struct cube_3d {
  vertex_3d v000, v100, v010, v001, v110, v101, v011, v111;
};

HWY_INLINE cube_3d cube_of(const cell_3d& c) {
  const VD x1 = sub2(c.dx0, 1, k_squish_3d), y1 = sub2(c.dy0, 1, k_squish_3d), z1 = sub2(c.dz0, 1, k_squish_3d);
  const VD x0 = hn::Sub(c.dx0, splat(k_squish_3d)), y0 = hn::Sub(c.dy0, splat(k_squish_3d)),
           z0 = hn::Sub(c.dz0, splat(k_squish_3d));
  const VD x2 = sub2(c.dx0, 1, k_squish_3d_x2), y2 = sub2(c.dy0, 1, k_squish_3d_x2),
           z2 = sub2(c.dz0, 1, k_squish_3d_x2);
  const VD x20 = hn::Sub(c.dx0, splat(k_squish_3d_x2)), y20 = hn::Sub(c.dy0, splat(k_squish_3d_x2)),
           z20 = hn::Sub(c.dz0, splat(k_squish_3d_x2));
  const VD xs1 = hn::Add(c.xsb, splat(1)), ys1 = hn::Add(c.ysb, splat(1)), zs1 = hn::Add(c.zsb, splat(1));
  cube_3d q;
  q.v000 = {c.xsb, c.ysb, c.zsb, c.dx0, c.dy0, c.dz0};
  q.v100 = {xs1, c.ysb, c.zsb, x1, y0, z0};
  q.v010 = {c.xsb, ys1, c.zsb, x0, y1, z0};
  q.v001 = {c.xsb, c.ysb, zs1, x0, y0, z1};
  q.v110 = {xs1, ys1, c.zsb, x2, y2, z20};
  q.v101 = {xs1, c.ysb, zs1, x2, y20, z2};
  q.v011 = {c.xsb, ys1, zs1, x20, y2, z2};
  q.v111 = {
      xs1, ys1, zs1, sub2(c.dx0, 1, k_squish_3d_x3), sub2(c.dy0, 1, k_squish_3d_x3), sub2(c.dz0, 1, k_squish_3d_x3)};
  return q;
}

// --- Region 1: tetrahedron at (0,0,0), in_sum <= 1 (extras_lower) -----------

// extras_lower_near, axis by axis: `cx` is the other closest point's x bit.
HWY_INLINE pair_3d lower_near(const cell_3d& c, const bits& b) {
  const axis_vertex x_plus = ax(c.xsb, 1, hn::Sub(c.dx0, splat(1)));
  const axis_vertex x_minus = ax(c.xsb, -1, hn::Add(c.dx0, splat(1)));
  const axis_pair x{pick(b.x, x_plus, x_minus), pick(b.x, x_plus, {c.xsb, c.dx0})};
  const axis_vertex y_plus = ax(c.ysb, 1, hn::Sub(c.dy0, splat(1)));
  const axis_vertex y_moved = ax(c.ysb, -1, hn::Add(c.dy0, splat(1)));
  const axis_vertex y_plain{c.ysb, c.dy0};
  // Without the y bit, the vertex x did not move down moves down in y.
  const axis_pair y{pick(b.y, y_plus, pick(b.x, y_moved, y_plain)), pick(b.y, y_plus, pick(b.x, y_plain, y_moved))};
  const axis_vertex z_plus = ax(c.zsb, 1, hn::Sub(c.dz0, splat(1)));
  const axis_pair z{pick(b.z, z_plus, {c.zsb, c.dz0}), pick(b.z, z_plus, ax(c.zsb, -1, hn::Add(c.dz0, splat(1))))};
  return join(x, y, z);
}

// lower_far_axis.
HWY_INLINE axis_pair lower_far_axis(VD sb, VD d, MD set) {
  const axis_pair plus{ax(sb, 1, sub2(d, 1, k_squish_3d_x2)), ax(sb, 1, sub2(d, 1, k_squish_3d))};
  const axis_pair minus{{sb, hn::Sub(d, splat(k_squish_3d_x2))},
                        ax(sb, -1, hn::Sub(hn::Add(d, splat(1)), splat(k_squish_3d)))};
  return {pick(set, plus.v0, minus.v0), pick(set, plus.v1, minus.v1)};
}

HWY_INLINE pair_3d extras_lower(const cell_3d& c) {
  const DD dd;
  const MD none = hn::FirstN(dd, 0);
  // a is (1,0,0) or, if cond_a, (0,0,1); b is (0,1,0) or, if cond_b, (0,0,1).
  const MD cond_b = hn::And(hn::Ge(c.xins, c.yins), hn::Gt(c.zins, c.yins));
  const MD cond_a = hn::And(hn::Lt(c.xins, c.yins), hn::Gt(c.zins, c.xins));
  const VD a_score = hn::IfThenElse(cond_a, c.zins, c.xins);
  const VD b_score = hn::IfThenElse(cond_b, c.zins, c.yins);
  const bits a{hn::Not(cond_a), none, cond_a};
  const bits b{none, hn::Not(cond_b), cond_b};
  const VD wins = hn::Sub(splat(1), c.in_sum);
  const MD near = hn::Or(hn::Gt(wins, a_score), hn::Gt(wins, b_score));
  const pair_3d n = lower_near(c, pick(hn::Gt(b_score, a_score), b, a));
  const pair_3d f = join(lower_far_axis(c.xsb, c.dx0, hn::Or(a.x, b.x)), lower_far_axis(c.ysb, c.dy0, hn::Or(a.y, b.y)),
                         lower_far_axis(c.zsb, c.dz0, hn::Or(a.z, b.z)));
  return pick(near, n, f);
}

// --- Region 2: tetrahedron at (1,1,1), in_sum >= 2 (extras_upper) -----------

HWY_INLINE pair_3d upper_near(const cell_3d& c, const bits& b) {
  const axis_vertex x_plain{c.xsb, hn::Sub(c.dx0, splat(k_squish_3d_x3))};
  const axis_pair x{pick(b.x, ax(c.xsb, 2, sub2(c.dx0, 2, k_squish_3d_x3)), x_plain),
                    pick(b.x, ax(c.xsb, 1, sub2(c.dx0, 1, k_squish_3d_x3)), x_plain)};
  const axis_vertex y_one = ax(c.ysb, 1, sub2(c.dy0, 1, k_squish_3d_x3));
  // A separate rounding step, as in the gist: (d - 1 - 3k) - 1.
  const axis_vertex y_moved{hn::Add(y_one.s, splat(1)), hn::Sub(y_one.d, splat(1))};
  const axis_vertex y_plain{c.ysb, hn::Sub(c.dy0, splat(k_squish_3d_x3))};
  const axis_pair y{pick(b.y, pick(b.x, y_one, y_moved), y_plain), pick(b.y, pick(b.x, y_moved, y_one), y_plain)};
  const axis_vertex z_plain{c.zsb, hn::Sub(c.dz0, splat(k_squish_3d_x3))};
  const axis_pair z{pick(b.z, ax(c.zsb, 1, sub2(c.dz0, 1, k_squish_3d_x3)), z_plain),
                    pick(b.z, ax(c.zsb, 2, sub2(c.dz0, 2, k_squish_3d_x3)), z_plain)};
  return join(x, y, z);
}

// upper_far_axis.
HWY_INLINE axis_pair upper_far_axis(VD sb, VD d, MD set) {
  const axis_pair plus{ax(sb, 1, sub2(d, 1, k_squish_3d)), ax(sb, 2, sub2(d, 2, k_squish_3d_x2))};
  const axis_pair plain{{sb, hn::Sub(d, splat(k_squish_3d))}, {sb, hn::Sub(d, splat(k_squish_3d_x2))}};
  return {pick(set, plus.v0, plain.v0), pick(set, plus.v1, plain.v1)};
}

HWY_INLINE pair_3d extras_upper(const cell_3d& c) {
  const DD dd;
  const MD all = hn::FirstN(dd, hn::Lanes(dd));
  // a is (0,1,1) or, if cond_a, (1,1,0); b is (1,0,1) or, if cond_b, (1,1,0).
  const MD cond_b = hn::And(hn::Le(c.xins, c.yins), hn::Lt(c.zins, c.yins));
  const MD cond_a = hn::And(hn::Gt(c.xins, c.yins), hn::Lt(c.zins, c.xins));
  const VD a_score = hn::IfThenElse(cond_a, c.zins, c.xins);
  const VD b_score = hn::IfThenElse(cond_b, c.zins, c.yins);
  const bits a{cond_a, all, hn::Not(cond_a)};
  const bits b{all, cond_b, hn::Not(cond_b)};
  const VD wins = hn::Sub(splat(3), c.in_sum);
  const MD near = hn::Or(hn::Lt(wins, a_score), hn::Lt(wins, b_score));
  const pair_3d n = upper_near(c, pick(hn::Lt(b_score, a_score), b, a));
  const pair_3d f =
      join(upper_far_axis(c.xsb, c.dx0, hn::And(a.x, b.x)), upper_far_axis(c.ysb, c.dy0, hn::And(a.y, b.y)),
           upper_far_axis(c.zsb, c.dz0, hn::And(a.z, b.z)));
  return pick(near, n, f);
}

// --- Region 3: octahedron in between (extras_octa) ---------------------------

// The axis a permutation of (1,1,-1) goes down along: the first one `c` lacks.
HWY_INLINE bits first_clear(const bits& c) {
  return {hn::Not(c.x), hn::AndNot(c.y, c.x), hn::And(c.x, c.y)};
}

// The first axis `c` has (else z).
HWY_INLINE bits first_set(const bits& c) {
  return {c.x, hn::AndNot(c.x, c.y), hn::AndNot(c.x, hn::Not(c.y))};
}

// octa_vertex_11m1: -1 along `down`, +1 along the other two axes.
HWY_INLINE axis_vertex octa_11m1_axis(VD sb, VD d, MD down) {
  return pick(down, ax(sb, -1, hn::Sub(hn::Add(d, splat(1)), splat(k_squish_3d))), ax(sb, 1, sub2(d, 1, k_squish_3d)));
}

// +2 along `up`: (d - 2k) - 2 where `mixed` (extras_octa_mixed), else
// (d - 2) - 2k (extras_octa_further).
HWY_INLINE axis_vertex octa_200_axis(VD sb, VD d, MD up, MD mixed) {
  const VD d2k = hn::Sub(d, splat(k_squish_3d_x2));
  const VD moved = hn::IfThenElse(mixed, hn::Sub(d2k, splat(2)), sub2(d, 2, k_squish_3d_x2));
  return pick(up, axis_vertex{hn::Add(sb, splat(2)), moved}, axis_vertex{sb, d2k});
}

// closest_octa: the two closest points as bits and whether each is on the
// (1,1,1) side.
struct octa_closest {
  bits a, b;
  MD a_further, b_further;
};

HWY_INLINE octa_closest closest_octa(const cell_3d& c) {
  const VD one = splat(1);
  const VD p1 = hn::Add(c.xins, c.yins), p2 = hn::Add(c.xins, c.zins), p3 = hn::Add(c.yins, c.zins);
  const MD fa = hn::Gt(p1, one), fb = hn::Gt(p2, one), fp = hn::Gt(p3, one);
  const VD a_score = hn::IfThenElse(fa, hn::Sub(p1, one), hn::Sub(one, p1));
  const VD b_score = hn::IfThenElse(fb, hn::Sub(p2, one), hn::Sub(one, p2));
  const VD score = hn::IfThenElse(fp, hn::Sub(p3, one), hn::Sub(one, p3));
  // a: (1,1,0) or (0,0,1); b: (1,0,1) or (0,1,0); the third: (0,1,1) or (1,0,0).
  const bits point{hn::Not(fp), fp, fp};
  const MD to_a = hn::And(hn::Le(a_score, b_score), hn::Lt(a_score, score));
  const MD to_b = hn::And(hn::Gt(a_score, b_score), hn::Lt(b_score, score));
  octa_closest r;
  r.a = pick(to_a, point, bits{fa, fa, hn::Not(fa)});
  r.b = pick(to_b, point, bits{fb, hn::Not(fb), fb});
  r.a_further = hn::Or(hn::And(to_a, fp), hn::AndNot(to_a, fa));
  r.b_further = hn::Or(hn::And(to_b, fp), hn::AndNot(to_b, fb));
  return r;
}

HWY_INLINE bits or_bits(const bits& a, const bits& b) {
  return {hn::Or(a.x, b.x), hn::Or(a.y, b.y), hn::Or(a.z, b.z)};
}

HWY_INLINE bits and_bits(const bits& a, const bits& b) {
  return {hn::And(a.x, b.x), hn::And(a.y, b.y), hn::And(a.z, b.z)};
}

// Mixed sides: v0 = 11m1(further point), v1 = 200(other point).
// Both further: v0 = (1,1,1), v1 = 200(a & b). Both near: v0 = (0,0,0),
// v1 = 11m1(a | b). A lane needs at most one 11m1 and one 200 vertex.
HWY_INLINE pair_3d extras_octa(const cell_3d& c, const cube_3d& q) {
  const octa_closest r = closest_octa(c);
  const MD mixed = hn::Xor(r.a_further, r.b_further);
  const bits further_point = pick(r.a_further, r.a, r.b);
  const bits other_point = pick(r.a_further, r.b, r.a);
  const bits down = first_clear(pick(mixed, further_point, or_bits(r.a, r.b)));
  const bits up = first_set(pick(mixed, other_point, and_bits(r.a, r.b)));
  const vertex_3d v11m1 = join(octa_11m1_axis(c.xsb, c.dx0, down.x), octa_11m1_axis(c.ysb, c.dy0, down.y),
                               octa_11m1_axis(c.zsb, c.dz0, down.z));
  const vertex_3d v200 = join(octa_200_axis(c.xsb, c.dx0, up.x, mixed), octa_200_axis(c.ysb, c.dy0, up.y, mixed),
                              octa_200_axis(c.zsb, c.dz0, up.z, mixed));
  return {pick(mixed, v11m1, pick(r.a_further, q.v111, q.v000)), pick(mixed, v200, pick(r.a_further, v200, v11m1))};
}

// --- The sum ------------------------------------------------------------------

// The extra vertices of each lane's region; a region no lane is in is skipped.
HWY_INLINE pair_3d extras_3d(const cell_3d& c, const cube_3d& q, MD lower, MD upper, MD octa) {
  const DD dd;
  pair_3d e = {q.v000, q.v000};
  if (!hn::AllFalse(dd, octa)) e = extras_octa(c, q);
  if (!hn::AllFalse(dd, upper)) e = pick(upper, extras_upper(c), e);
  if (!hn::AllFalse(dd, lower)) e = pick(lower, extras_lower(c), e);
  return e;
}

// The vertices in the gist's order of summation, per region:
//   lower: 000 100 010 001 e0 e1
//   upper: 110 101 011 111 e0 e1
//   octa:  100 010 001 110 101 011 e0 e1
// A vector all in one region (most of them at coarse octaves) sums its own
// list, hashing the cube's vertices from the words of columns xsb and
// xsb + 1, or, when all lanes share one cell, with scalar loads; a mixed
// vector picks each lane's vertex per position.

// Gradients of the cube's vertices from two column words (2 gathers).
struct column_gradients {
  const lane_tables& t;
  VU column0, column1;

  HWY_INLINE VD operator()(const vertex_3d& v, int ox, int oy, int /*oz*/) const {
    return contribution_3d(t, v, word_byte(ox == 0 ? column0 : column1, oy));
  }
};

// Gradients of the cube's vertices when every lane is in cell (x, y, z).
struct cell_gradients {
  const lane_tables& t;
  std::int64_t x, y, z;

  HWY_INLINE VD operator()(const vertex_3d& v, int ox, int oy, int oz) const {
    const std::uint64_t px = t.perm[(x + ox) & 0xFF];
    const std::uint64_t pxy = t.perm[(static_cast<std::int64_t>(px) + y + oy) & 0xFF];
    return contribution_3d(v, hn::Set(DU(), t.gradient_3d[(static_cast<std::int64_t>(pxy) + z + oz) & 0xFF]));
  }
};

template <class Cube>
struct uniform_sum {
  const lane_tables& t;
  const column_hash& h;
  Cube cube_at;

  // A vertex of the cube and its offsets (ox, oy, oz) from the cell origin.
  struct corner {
    const vertex_3d& v;
    int ox, oy, oz;
  };

  // The corners in order, then the two extra vertices (a fold, so that the
  // offsets stay compile-time constants).
  template <class... Corners>
  HWY_INLINE VD sum(const pair_3d& e, const Corners&... corners) const {
    VD value = hn::Zero(DD());
    ((value = hn::Add(value, cube_at(corners.v, corners.ox, corners.oy, corners.oz))), ...);
    value = hn::Add(value, contribution_3d(t, h, e.v0));
    return hn::Add(value, contribution_3d(t, h, e.v1));
  }

  HWY_INLINE VD lower(const cube_3d& q, const pair_3d& e) const {
    return sum(e, corner{q.v000, 0, 0, 0}, corner{q.v100, 1, 0, 0}, corner{q.v010, 0, 1, 0}, corner{q.v001, 0, 0, 1});
  }

  HWY_INLINE VD upper(const cube_3d& q, const pair_3d& e) const {
    return sum(e, corner{q.v110, 1, 1, 0}, corner{q.v101, 1, 0, 1}, corner{q.v011, 0, 1, 1}, corner{q.v111, 1, 1, 1});
  }

  HWY_INLINE VD octa(const cube_3d& q, const pair_3d& e) const {
    return sum(e, corner{q.v100, 1, 0, 0}, corner{q.v010, 0, 1, 0}, corner{q.v001, 0, 0, 1}, corner{q.v110, 1, 1, 0},
               corner{q.v101, 1, 0, 1}, corner{q.v011, 0, 1, 1});
  }
};

HWY_INLINE VD mixed_sum(const lane_tables& t, const column_hash& h, const cube_3d& q, const pair_3d& e, MD lower,
                        MD upper, MD octa) {
  const auto at = [&](const vertex_3d& l, const vertex_3d& u, const vertex_3d& o) {
    return contribution_3d(t, h, pick(lower, l, pick(upper, u, o)));
  };
  // 0.0 + c, as the scalar's `value = 0; value += c`: +0.0 for a c of -0.0.
  VD value = hn::Add(hn::Zero(DD()), at(q.v000, q.v110, q.v100));
  value = hn::Add(value, at(q.v100, q.v101, q.v010));
  value = hn::Add(value, at(q.v010, q.v011, q.v001));
  value = hn::Add(value, at(q.v001, q.v111, q.v110));
  value = hn::Add(value, at(e.v0, e.v0, q.v101));
  value = hn::Add(value, at(e.v1, e.v1, q.v011));
  if (hn::AllFalse(DD(), octa)) return value;
  // The octahedron's two extras; other lanes add +0.0 (no change).
  value = hn::Add(value, hn::IfThenElseZero(octa, contribution_3d(t, h, e.v0)));
  return hn::Add(value, hn::IfThenElseZero(octa, contribution_3d(t, h, e.v1)));
}

// The sum of a vector all in one region.
template <class Sum>
HWY_INLINE VD region_sum(const Sum& sum, const cell_3d& c, const cube_3d& q, MD lower, MD octa) {
  const DD dd;
  if (hn::AllTrue(dd, octa)) return sum.octa(q, extras_octa(c, q));
  if (hn::AllTrue(dd, lower)) return sum.lower(q, extras_lower(c));
  return sum.upper(q, extras_upper(c));
}

HWY_INLINE VD noise_3d(const lane_tables& t, VD x, VD y, VD z) {
  const DD dd;
  const cell_3d c = locate_3d(x, y, z);
  const MD lower = hn::Le(c.in_sum, splat(1));
  const MD upper = hn::AndNot(lower, hn::Ge(c.in_sum, splat(2)));
  const MD octa = hn::Not(hn::Or(lower, upper));
  const cube_3d q = cube_of(c);
  const column_hash h = columns_of(t, c.xsb);
  VD value;
  if (hn::AllTrue(dd, octa) || hn::AllTrue(dd, lower) || hn::AllTrue(dd, upper)) {
    const VD x0 = hn::Set(dd, hn::GetLane(c.xsb)), y0 = hn::Set(dd, hn::GetLane(c.ysb)),
             z0 = hn::Set(dd, hn::GetLane(c.zsb));
    if (hn::AllTrue(dd, hn::And(hn::And(hn::Eq(c.xsb, x0), hn::Eq(c.ysb, y0)), hn::Eq(c.zsb, z0)))) {
      const cell_gradients cube{t, static_cast<std::int64_t>(hn::GetLane(c.xsb)),
                                static_cast<std::int64_t>(hn::GetLane(c.ysb)),
                                static_cast<std::int64_t>(hn::GetLane(c.zsb))};
      value = region_sum(uniform_sum<cell_gradients>{t, h, cube}, c, q, lower, octa);
    } else {
      const column_gradients cube{t, column_word(t, h, c.ysb, 0), column_word(t, h, c.ysb, 1)};
      value = region_sum(uniform_sum<column_gradients>{t, h, cube}, c, q, lower, octa);
    }
  } else {
    value = mixed_sum(t, h, q, extras_3d(c, q, lower, upper, octa), lower, upper, octa);
  }
  return hn::Div(value, splat(k_norm_3d));
}

// ---------------------------------------------------------------------------
// 2D
// ---------------------------------------------------------------------------

struct vertex_2d {
  VD sx, sy, dx, dy;
};

HWY_INLINE vertex_2d pick(MD m, const vertex_2d& a, const vertex_2d& b) {
  return {hn::IfThenElse(m, a.sx, b.sx), hn::IfThenElse(m, a.sy, b.sy), hn::IfThenElse(m, a.dx, b.dx),
          hn::IfThenElse(m, a.dy, b.dy)};
}

HWY_INLINE VD contribution_2d(const lane_tables& t, const column_hash& h, const vertex_2d& v) {
  const VD attn = hn::Sub(hn::Sub(splat(2), hn::Mul(v.dx, v.dx)), hn::Mul(v.dy, v.dy));
  const VU g = hn::GatherIndex(DU(), t.gradient_2d, hash_xy(h, v.sx, v.sy));
  const VD dot = hn::Add(hn::Mul(gradient_component<0>(g), v.dx), hn::Mul(gradient_component<1>(g), v.dy));
  return attenuate(attn, dot);
}

// extra_vertex_2d_lower / _upper of the scalar code.
HWY_INLINE vertex_2d extra_vertex_2d(VD xsb, VD ysb, VD xins, VD yins, VD in_sum, VD dx0, VD dy0, MD lower) {
  const VD one = splat(1);
  const MD x_wins = hn::Gt(xins, yins);
  const VD zl = hn::Sub(one, in_sum);
  const MD near_l = hn::Or(hn::Gt(zl, xins), hn::Gt(zl, yins));
  const vertex_2d side_l =
      pick(x_wins, vertex_2d{hn::Add(xsb, one), hn::Sub(ysb, one), hn::Sub(dx0, one), hn::Add(dy0, one)},
           vertex_2d{hn::Sub(xsb, one), hn::Add(ysb, one), hn::Add(dx0, one), hn::Sub(dy0, one)});
  const vertex_2d far_l{hn::Add(xsb, one), hn::Add(ysb, one), sub2(dx0, 1, k_squish_2d_x2),
                        sub2(dy0, 1, k_squish_2d_x2)};
  const VD zu = hn::Sub(splat(2), in_sum);
  const MD near_u = hn::Or(hn::Lt(zu, xins), hn::Lt(zu, yins));
  const vertex_2d side_u =
      pick(x_wins,
           vertex_2d{hn::Add(xsb, splat(2)), ysb, sub2(dx0, 2, k_squish_2d_x2),
                     hn::Sub(hn::Add(dy0, splat(0)), splat(k_squish_2d_x2))},
           vertex_2d{xsb, hn::Add(ysb, splat(2)), hn::Sub(hn::Add(dx0, splat(0)), splat(k_squish_2d_x2)),
                     sub2(dy0, 2, k_squish_2d_x2)});
  const vertex_2d far_u{xsb, ysb, dx0, dy0};
  return pick(lower, pick(near_l, side_l, far_l), pick(near_u, side_u, far_u));
}

HWY_INLINE VD noise_2d(const lane_tables& t, VD x, VD y) {
  const VD stretch_offset = hn::Mul(hn::Add(x, y), splat(k_stretch_2d));
  const VD xs = hn::Add(x, stretch_offset);
  const VD ys = hn::Add(y, stretch_offset);
  const VD xsb = lattice_floor(xs);
  const VD ysb = lattice_floor(ys);
  const VD squish_offset = hn::Mul(hn::Add(xsb, ysb), splat(k_squish_2d));
  const VD xins = hn::Sub(xs, xsb);
  const VD yins = hn::Sub(ys, ysb);
  const VD in_sum = hn::Add(xins, yins);
  const VD dx0 = hn::Sub(x, hn::Add(xsb, squish_offset));
  const VD dy0 = hn::Sub(y, hn::Add(ysb, squish_offset));
  const VD one = splat(1);
  const column_hash h = columns_of(t, xsb);

  VD value = hn::Zero(DD());
  value = hn::Add(
      value,
      contribution_2d(t, h, {hn::Add(xsb, one), ysb, sub2(dx0, 1, k_squish_2d), hn::Sub(dy0, splat(k_squish_2d))}));
  value = hn::Add(
      value,
      contribution_2d(t, h, {xsb, hn::Add(ysb, one), hn::Sub(dx0, splat(k_squish_2d)), sub2(dy0, 1, k_squish_2d)}));
  const MD lower = hn::Le(in_sum, one);
  const vertex_2d ext = extra_vertex_2d(xsb, ysb, xins, yins, in_sum, dx0, dy0, lower);
  const vertex_2d base =
      pick(lower, vertex_2d{xsb, ysb, dx0, dy0},
           vertex_2d{hn::Add(xsb, one), hn::Add(ysb, one), sub2(dx0, 1, k_squish_2d_x2), sub2(dy0, 1, k_squish_2d_x2)});
  value = hn::Add(value, contribution_2d(t, h, base));  // (0,0) or (1,1)
  value = hn::Add(value, contribution_2d(t, h, ext));
  return hn::Div(value, splat(k_norm_2d));
}

// ---------------------------------------------------------------------------
// Rows
// ---------------------------------------------------------------------------

int row_2d_lanes(const lane_tables& t, const double* HWY_RESTRICT x, double y, int n, double* HWY_RESTRICT out) {
  const DD dd;
  const auto lanes = static_cast<int>(hn::Lanes(dd));
  const VD vy = hn::Set(dd, y);
  int i = 0;
  for (; i + lanes <= n; i += lanes) hn::StoreU(noise_2d(t, hn::LoadU(dd, x + i), vy), dd, out + i);
  return i;
}

// The region of each lane's cell (locate_3d's in_sum, nothing else).
struct regions_3d {
  MD lower, upper, octa;
};

HWY_INLINE regions_3d regions_of(VD x, VD y, VD z) {
  const VD stretch_offset = hn::Mul(hn::Add(hn::Add(x, y), z), splat(k_stretch_3d));
  const VD xs = hn::Add(x, stretch_offset), ys = hn::Add(y, stretch_offset), zs = hn::Add(z, stretch_offset);
  const VD in_sum =
      hn::Add(hn::Add(hn::Sub(xs, lattice_floor(xs)), hn::Sub(ys, lattice_floor(ys))), hn::Sub(zs, lattice_floor(zs)));
  const MD lower = hn::Le(in_sum, splat(1));
  const MD upper = hn::AndNot(lower, hn::Ge(in_sum, splat(2)));
  return {lower, upper, hn::Not(hn::Or(lower, upper))};
}

// Samples of one region waiting for a full vector: their x and their index
// in the row.
struct region_queue {
  static constexpr int k_capacity = 2 * static_cast<int>(HWY_MAX_BYTES / sizeof(double));
  HWY_ALIGN double x[k_capacity];
  int index[k_capacity];
  int count = 0;
};

// Evaluates the first full vector of `q` (padded with its last sample when
// it holds fewer) and writes its samples to their places in `out`.
HWY_INLINE void drain(const lane_tables& t, region_queue& q, VD y, VD z, double* HWY_RESTRICT out) {
  const DD dd;
  const auto lanes = static_cast<int>(hn::Lanes(dd));
  const int used = HWY_MIN(q.count, lanes);
  for (int j = used; j < lanes; ++j) q.x[j] = q.x[used - 1];
  HWY_ALIGN double value[region_queue::k_capacity / 2];
  hn::Store(noise_3d(t, hn::Load(dd, q.x), y, z), dd, value);
  for (int j = 0; j < used; ++j) out[q.index[j]] = value[j];
  q.count -= used;
  for (int j = 0; j < q.count; ++j) {
    q.x[j] = q.x[lanes + j];
    q.index[j] = q.index[lanes + j];
  }
}

// Appends the samples i .. i + lanes - 1 to the queues of their regions. A
// scalar loop: Highway's emulated Compress copies a 2 KiB table per call.
HWY_INLINE void enqueue(const regions_3d& r, const double* HWY_RESTRICT x, int i, region_queue* queues) {
  const DD dd;
  const auto lanes = static_cast<int>(hn::Lanes(dd));
  std::uint8_t lower[(HWY_MAX_BYTES / sizeof(double) + 7) / 8] = {};
  std::uint8_t upper[sizeof lower] = {};
  hn::StoreMaskBits(dd, r.lower, lower);
  hn::StoreMaskBits(dd, r.upper, upper);
  for (int j = 0; j < lanes; ++j) {
    const int is_lower = (lower[j / 8] >> (j % 8)) & 1, is_upper = (upper[j / 8] >> (j % 8)) & 1;
    region_queue& q = queues[is_lower ? 0 : 2 - is_upper];
    q.x[q.count] = x[i + j];
    q.index[q.count++] = i + j;
  }
}

// A vector whose lanes lie in one region of their cells takes noise_3d's
// uniform path; one spanning regions (most at fine octaves) would blend all
// their vertex lists, so its samples are queued by region and evaluated
// later in vectors of one region each. Every sample still gets its own
// scalar-order value; only which lanes share a vector changes.
int row_3d_lanes(const lane_tables& t, const double* HWY_RESTRICT x, double y, double z, int n,
                 double* HWY_RESTRICT out) {
  const DD dd;
  const auto lanes = static_cast<int>(hn::Lanes(dd));
  const VD vy = hn::Set(dd, y), vz = hn::Set(dd, z);
  region_queue queues[3];  // lower, upper, octahedron
  int i = 0;
  for (; i + lanes <= n; i += lanes) {
    const VD vx = hn::LoadU(dd, x + i);
    const regions_3d r = regions_of(vx, vy, vz);
    if (hn::AllTrue(dd, r.lower) || hn::AllTrue(dd, r.upper) || hn::AllTrue(dd, r.octa)) {
      hn::StoreU(noise_3d(t, vx, vy, vz), dd, out + i);
      continue;
    }
    enqueue(r, x, i, queues);
    for (region_queue& q : queues) {
      if (q.count >= lanes) drain(t, q, vy, vz, out);
    }
  }
  for (region_queue& q : queues) {
    if (q.count > 0) drain(t, q, vy, vz, out);
  }
  return i;
}

}  // namespace landform::os_legacy::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace landform {

namespace os_legacy {
HWY_EXPORT(row_2d_lanes);
HWY_EXPORT(row_3d_lanes);

int row_2d(const lane_tables& t, const double* x, double y, int n, double* out) {
  return HWY_DYNAMIC_DISPATCH(row_2d_lanes)(t, x, y, n, out);
}

int row_3d(const lane_tables& t, const double* x, double y, double z, int n, double* out) {
  return HWY_DYNAMIC_DISPATCH(row_3d_lanes)(t, x, y, z, n, out);
}
}  // namespace os_legacy

void open_simplex_legacy::eval_row(const double* x, double y, int n, double* out) const {
  const os_legacy::lane_tables t{m_perm_x4_lanes.data(), m_perm_lanes.data(), m_gradient_lanes_2d.data(),
                                 m_gradient_lanes_3d.data()};
  for (int i = os_legacy::row_2d(t, x, y, n, out); i < n; ++i) out[i] = eval(x[i], y);
}

void open_simplex_legacy::eval_row(const double* x, double y, double z, int n, double* out) const {
  const os_legacy::lane_tables t{m_perm_x4_lanes.data(), m_perm_lanes.data(), m_gradient_lanes_2d.data(),
                                 m_gradient_lanes_3d.data()};
  for (int i = os_legacy::row_3d(t, x, y, z, n, out); i < n; ++i) out[i] = eval(x[i], y, z);
}

}  // namespace landform
#endif
