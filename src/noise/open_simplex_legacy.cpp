#include "landform/noise/open_simplex_legacy.hpp"

#include "noise/open_simplex_legacy_detail.hpp"

// Port of Kurt Spencer's OpenSimplexNoise v1.1 (Java, 2014), 2D and 3D only.
//
// Bit-exactness rules followed throughout (the reference data is Java output):
//  * Every double expression keeps the original's operation tree. C++ and Java
//    both parse `a - 1 - k` as `(a - 1) - k`, which differs from `a - (1 + k)`
//    after rounding, so such expressions are written out exactly as in the gist
//    and never simplified by hand. The only change is dropping `- 0` terms
//    (`d - 0` is exactly `d`, signed zeros included).
//  * Compound steps such as `d = d0 - 1 - k; d -= 1;` are kept in that order.
//  * Contributions are summed into `value` in the gist's order.
//  * Skipped vertices contribute +0.0 here instead of skipping the `+=`. That is
//    equivalent: `value` starts at +0.0 and a round-to-nearest sum is -0.0 only
//    if both operands are -0.0, so `value` is never -0.0 and `value + 0.0`
//    returns `value` unchanged.
//  * The build uses -ffp-contract=off, so no multiply-add is fused into an FMA.

namespace landform {
namespace {

using os_legacy::k_gradient_count_3d;
using os_legacy::k_gradients_2d;
using os_legacy::k_gradients_3d;
using os_legacy::k_norm_2d;
using os_legacy::k_norm_3d;
using os_legacy::k_squish_2d;
using os_legacy::k_squish_2d_x2;
using os_legacy::k_squish_3d;
using os_legacy::k_squish_3d_x2;
using os_legacy::k_squish_3d_x3;
using os_legacy::k_stretch_2d;
using os_legacy::k_stretch_3d;

using byte_table = std::array<std::uint8_t, 256>;

// Java's LCG step; unsigned so that the wrap-around is defined behaviour.
constexpr std::uint64_t lcg_next(std::uint64_t state) {
  return state * 6364136223846793005ULL + 1442695040888963407ULL;
}

// The gist's fastFloor: truncate, then step down for negative non-integers.
// Differs from std::floor only outside int range, which is out of domain.
inline int fast_floor(double x) {
  const int xi = static_cast<int>(x);
  return x < static_cast<double>(xi) ? xi - 1 : xi;
}

// ---------------------------------------------------------------------------
// 2D
// ---------------------------------------------------------------------------

struct vertex_2d {
  int xsv;
  int ysv;
  double dx;
  double dy;
};

inline double extrapolate_2d(const byte_table& perm, int xsb, int ysb, double dx, double dy) {
  const int index = perm[(perm[xsb & 0xFF] + ysb) & 0xFF] & 0x0E;
  return k_gradients_2d[index] * dx + k_gradients_2d[index + 1] * dy;
}

// attn^4 * (g . d) for one lattice vertex, or +0.0 outside its radius.
inline double contribution_2d(const byte_table& perm, const vertex_2d& v) {
  double attn = 2 - v.dx * v.dx - v.dy * v.dy;
  if (attn > 0) {
    attn *= attn;
    return attn * attn * extrapolate_2d(perm, v.xsv, v.ysv, v.dx, v.dy);
  }
  return 0.0;
}

// The vertex outside the current triangle that may still contribute, for the
// triangle at (0,0) (in_sum <= 1).
inline vertex_2d extra_vertex_2d_lower(int xsb, int ysb, double xins, double yins, double in_sum,
                                       double dx0, double dy0) {
  const double zins = 1 - in_sum;
  if (zins > xins || zins > yins) {  // (0,0) is one of the closest two vertices.
    if (xins > yins) return {xsb + 1, ysb - 1, dx0 - 1, dy0 + 1};
    return {xsb - 1, ysb + 1, dx0 + 1, dy0 - 1};
  }
  return {xsb + 1, ysb + 1, dx0 - 1 - k_squish_2d_x2, dy0 - 1 - k_squish_2d_x2};
}

// Same for the triangle at (1,1) (in_sum > 1); offsets are still from (0,0).
inline vertex_2d extra_vertex_2d_upper(int xsb, int ysb, double xins, double yins, double in_sum,
                                       double dx0, double dy0) {
  const double zins = 2 - in_sum;
  if (zins < xins || zins < yins) {  // (1,1) is one of the closest two vertices.
    if (xins > yins) return {xsb + 2, ysb, dx0 - 2 - k_squish_2d_x2, dy0 + 0 - k_squish_2d_x2};
    return {xsb, ysb + 2, dx0 + 0 - k_squish_2d_x2, dy0 - 2 - k_squish_2d_x2};
  }
  return {xsb, ysb, dx0, dy0};
}

// ---------------------------------------------------------------------------
// 3D
// ---------------------------------------------------------------------------

struct tables_3d {
  const byte_table& perm;
  const byte_table& grad_index;
};

// Where a point sits in its rhombohedral super-cell.
struct cell_3d {
  int xsb, ysb, zsb;         // Lattice coordinates of the cell origin.
  double xins, yins, zins;   // Stretched coordinates relative to the origin.
  double in_sum;             // xins + yins + zins: selects the region.
  double dx0, dy0, dz0;      // Unstretched offset from the cell origin.
};

struct vertex_3d {
  int xsv, ysv, zsv;
  double dx, dy, dz;
};

// The two extra vertices outside the current region that may contribute.
struct extra_pair_3d {
  vertex_3d v0;
  vertex_3d v1;
};

// The per-axis part of an extra-vertex pair, for the branches where the three
// axes follow the same rule.
struct axis_pair {
  int sv0, sv1;
  double d0, d1;
};

inline extra_pair_3d combine(const axis_pair& x, const axis_pair& y, const axis_pair& z) {
  return {{x.sv0, y.sv0, z.sv0, x.d0, y.d0, z.d0}, {x.sv1, y.sv1, z.sv1, x.d1, y.d1, z.d1}};
}

inline cell_3d locate_3d(double x, double y, double z) {
  cell_3d c{};
  const double stretch_offset = (x + y + z) * k_stretch_3d;
  const double xs = x + stretch_offset;
  const double ys = y + stretch_offset;
  const double zs = z + stretch_offset;
  c.xsb = fast_floor(xs);
  c.ysb = fast_floor(ys);
  c.zsb = fast_floor(zs);
  const double squish_offset = static_cast<double>(c.xsb + c.ysb + c.zsb) * k_squish_3d;
  const double xb = c.xsb + squish_offset;
  const double yb = c.ysb + squish_offset;
  const double zb = c.zsb + squish_offset;
  c.xins = xs - c.xsb;
  c.yins = ys - c.ysb;
  c.zins = zs - c.zsb;
  c.in_sum = c.xins + c.yins + c.zins;
  c.dx0 = x - xb;
  c.dy0 = y - yb;
  c.dz0 = z - zb;
  return c;
}

inline double extrapolate_3d(const tables_3d& t, const vertex_3d& v) {
  const int index = t.grad_index[(t.perm[(t.perm[v.xsv & 0xFF] + v.ysv) & 0xFF] + v.zsv) & 0xFF];
  return k_gradients_3d[index] * v.dx + k_gradients_3d[index + 1] * v.dy +
         k_gradients_3d[index + 2] * v.dz;
}

// attn^4 * (g . d) for one lattice vertex, or +0.0 outside its radius.
inline double contribution_3d(const tables_3d& t, const vertex_3d& v) {
  double attn = 2 - v.dx * v.dx - v.dy * v.dy - v.dz * v.dz;
  if (attn > 0) {
    attn *= attn;
    return attn * attn * extrapolate_3d(t, v);
  }
  return 0.0;
}

// Adds vertices (1,0,0), (0,1,0), (0,0,1) in the gist's order; shared by the
// lower tetrahedron and the octahedron, which compute them identically.
inline double add_lower_triple(const tables_3d& t, const cell_3d& c, double value) {
  const vertex_3d v1{c.xsb + 1, c.ysb, c.zsb, c.dx0 - 1 - k_squish_3d, c.dy0 - k_squish_3d,
                     c.dz0 - k_squish_3d};
  const vertex_3d v2{c.xsb, c.ysb + 1, c.zsb, c.dx0 - k_squish_3d, c.dy0 - 1 - k_squish_3d, v1.dz};
  const vertex_3d v3{c.xsb, c.ysb, c.zsb + 1, v2.dx, v1.dy, c.dz0 - 1 - k_squish_3d};
  value += contribution_3d(t, v1);
  value += contribution_3d(t, v2);
  value += contribution_3d(t, v3);
  return value;
}

// Adds vertices (1,1,0), (1,0,1), (0,1,1) in the gist's order; shared by the
// upper tetrahedron and the octahedron.
inline double add_upper_triple(const tables_3d& t, const cell_3d& c, double value) {
  const vertex_3d v110{c.xsb + 1, c.ysb + 1, c.zsb, c.dx0 - 1 - k_squish_3d_x2,
                       c.dy0 - 1 - k_squish_3d_x2, c.dz0 - k_squish_3d_x2};
  const vertex_3d v101{c.xsb + 1, c.ysb, c.zsb + 1, v110.dx, c.dy0 - k_squish_3d_x2,
                       c.dz0 - 1 - k_squish_3d_x2};
  const vertex_3d v011{c.xsb, c.ysb + 1, c.zsb + 1, c.dx0 - k_squish_3d_x2, v110.dy, v101.dz};
  value += contribution_3d(t, v110);
  value += contribution_3d(t, v101);
  value += contribution_3d(t, v011);
  return value;
}

// --- Region 1: tetrahedron at (0,0,0), in_sum <= 1 ---------------------------

// (0,0,0) is among the two closest vertices; `c` is the other one.
inline extra_pair_3d extras_lower_near(const cell_3d& cl, int c) {
  extra_pair_3d e{};
  vertex_3d& e0 = e.v0;
  vertex_3d& e1 = e.v1;
  if ((c & 0x01) == 0) {
    e0.xsv = cl.xsb - 1;
    e1.xsv = cl.xsb;
    e0.dx = cl.dx0 + 1;
    e1.dx = cl.dx0;
  } else {
    e0.xsv = e1.xsv = cl.xsb + 1;
    e0.dx = e1.dx = cl.dx0 - 1;
  }
  if ((c & 0x02) == 0) {
    e0.ysv = e1.ysv = cl.ysb;
    e0.dy = e1.dy = cl.dy0;
    vertex_3d& moved = (c & 0x01) == 0 ? e1 : e0;
    moved.ysv -= 1;
    moved.dy += 1;
  } else {
    e0.ysv = e1.ysv = cl.ysb + 1;
    e0.dy = e1.dy = cl.dy0 - 1;
  }
  if ((c & 0x04) == 0) {
    e0.zsv = cl.zsb;
    e1.zsv = cl.zsb - 1;
    e0.dz = cl.dz0;
    e1.dz = cl.dz0 + 1;
  } else {
    e0.zsv = e1.zsv = cl.zsb + 1;
    e0.dz = e1.dz = cl.dz0 - 1;
  }
  return e;
}

// (0,0,0) is not among the two closest vertices; `set` says whether the axis
// belongs to one of them (bit of aPoint | bPoint).
inline axis_pair lower_far_axis(int sb, double d, bool set) {
  if (!set) return {sb, sb - 1, d - k_squish_3d_x2, d + 1 - k_squish_3d};
  return {sb + 1, sb + 1, d - 1 - k_squish_3d_x2, d - 1 - k_squish_3d};
}

inline extra_pair_3d extras_lower(const cell_3d& cl) {
  // Which two of (1,0,0), (0,1,0), (0,0,1) are closest (bit masks).
  int a_point = 0x01;
  double a_score = cl.xins;
  int b_point = 0x02;
  double b_score = cl.yins;
  if (a_score >= b_score && cl.zins > b_score) {
    b_score = cl.zins;
    b_point = 0x04;
  } else if (a_score < b_score && cl.zins > a_score) {
    a_score = cl.zins;
    a_point = 0x04;
  }
  const double wins = 1 - cl.in_sum;
  if (wins > a_score || wins > b_score) {
    return extras_lower_near(cl, b_score > a_score ? b_point : a_point);
  }
  const int c = a_point | b_point;
  return combine(lower_far_axis(cl.xsb, cl.dx0, (c & 0x01) != 0),
                 lower_far_axis(cl.ysb, cl.dy0, (c & 0x02) != 0),
                 lower_far_axis(cl.zsb, cl.dz0, (c & 0x04) != 0));
}

inline double sum_lower(const tables_3d& t, const cell_3d& c) {
  double value = 0;
  value += contribution_3d(t, {c.xsb, c.ysb, c.zsb, c.dx0, c.dy0, c.dz0});
  return add_lower_triple(t, c, value);
}

// --- Region 2: tetrahedron at (1,1,1), in_sum >= 2 ---------------------------

// (1,1,1) is among the two closest vertices; `c` is the other one.
inline extra_pair_3d extras_upper_near(const cell_3d& cl, int c) {
  extra_pair_3d e{};
  vertex_3d& e0 = e.v0;
  vertex_3d& e1 = e.v1;
  if ((c & 0x01) != 0) {
    e0.xsv = cl.xsb + 2;
    e1.xsv = cl.xsb + 1;
    e0.dx = cl.dx0 - 2 - k_squish_3d_x3;
    e1.dx = cl.dx0 - 1 - k_squish_3d_x3;
  } else {
    e0.xsv = e1.xsv = cl.xsb;
    e0.dx = e1.dx = cl.dx0 - k_squish_3d_x3;
  }
  if ((c & 0x02) != 0) {
    e0.ysv = e1.ysv = cl.ysb + 1;
    e0.dy = e1.dy = cl.dy0 - 1 - k_squish_3d_x3;
    vertex_3d& moved = (c & 0x01) != 0 ? e1 : e0;
    moved.ysv += 1;
    moved.dy -= 1;  // A separate rounding step, as in the gist.
  } else {
    e0.ysv = e1.ysv = cl.ysb;
    e0.dy = e1.dy = cl.dy0 - k_squish_3d_x3;
  }
  if ((c & 0x04) != 0) {
    e0.zsv = cl.zsb + 1;
    e1.zsv = cl.zsb + 2;
    e0.dz = cl.dz0 - 1 - k_squish_3d_x3;
    e1.dz = cl.dz0 - 2 - k_squish_3d_x3;
  } else {
    e0.zsv = e1.zsv = cl.zsb;
    e0.dz = e1.dz = cl.dz0 - k_squish_3d_x3;
  }
  return e;
}

// (1,1,1) is not among the two closest vertices; `set` is the axis bit of
// aPoint & bPoint.
inline axis_pair upper_far_axis(int sb, double d, bool set) {
  if (set) return {sb + 1, sb + 2, d - 1 - k_squish_3d, d - 2 - k_squish_3d_x2};
  return {sb, sb, d - k_squish_3d, d - k_squish_3d_x2};
}

inline extra_pair_3d extras_upper(const cell_3d& cl) {
  // Which two of (1,1,0), (1,0,1), (0,1,1) are closest (bit masks).
  int a_point = 0x06;
  double a_score = cl.xins;
  int b_point = 0x05;
  double b_score = cl.yins;
  if (a_score <= b_score && cl.zins < b_score) {
    b_score = cl.zins;
    b_point = 0x03;
  } else if (a_score > b_score && cl.zins < a_score) {
    a_score = cl.zins;
    a_point = 0x03;
  }
  const double wins = 3 - cl.in_sum;
  if (wins < a_score || wins < b_score) {
    return extras_upper_near(cl, b_score < a_score ? b_point : a_point);
  }
  const int c = a_point & b_point;
  return combine(upper_far_axis(cl.xsb, cl.dx0, (c & 0x01) != 0),
                 upper_far_axis(cl.ysb, cl.dy0, (c & 0x02) != 0),
                 upper_far_axis(cl.zsb, cl.dz0, (c & 0x04) != 0));
}

inline double sum_upper(const tables_3d& t, const cell_3d& c) {
  double value = add_upper_triple(t, c, 0.0);
  value += contribution_3d(t, {c.xsb + 1, c.ysb + 1, c.zsb + 1, c.dx0 - 1 - k_squish_3d_x3,
                               c.dy0 - 1 - k_squish_3d_x3, c.dz0 - 1 - k_squish_3d_x3});
  return value;
}

// --- Region 3: octahedron in between, 1 < in_sum < 2 -------------------------

// The two closest of the six octahedron vertices, and whether each lies on the
// (1,1,1) side (the "further side") of the octahedron.
struct octa_closest {
  int a_point;
  bool a_further;
  int b_point;
  bool b_further;
};

inline octa_closest closest_octa(const cell_3d& cl) {
  octa_closest r{};
  double a_score = 0;
  double b_score = 0;
  // (0,0,1) versus (1,1,0).
  const double p1 = cl.xins + cl.yins;
  if (p1 > 1) {
    a_score = p1 - 1;
    r.a_point = 0x03;
    r.a_further = true;
  } else {
    a_score = 1 - p1;
    r.a_point = 0x04;
    r.a_further = false;
  }
  // (0,1,0) versus (1,0,1).
  const double p2 = cl.xins + cl.zins;
  if (p2 > 1) {
    b_score = p2 - 1;
    r.b_point = 0x05;
    r.b_further = true;
  } else {
    b_score = 1 - p2;
    r.b_point = 0x02;
    r.b_further = false;
  }
  // The closer of (1,0,0) and (0,1,1) replaces the further of a and b if closer.
  const double p3 = cl.yins + cl.zins;
  const bool further = p3 > 1;
  const double score = further ? p3 - 1 : 1 - p3;
  const int point = further ? 0x06 : 0x01;
  if (a_score <= b_score && a_score < score) {
    r.a_point = point;
    r.a_further = further;
  } else if (a_score > b_score && b_score < score) {
    r.b_point = point;
    r.b_further = further;
  }
  return r;
}

// A permutation of (1,1,-1), chosen by the axis missing from `c`.
inline vertex_3d octa_vertex_11m1(const cell_3d& cl, int c) {
  if ((c & 0x01) == 0) {
    return {cl.xsb - 1, cl.ysb + 1, cl.zsb + 1, cl.dx0 + 1 - k_squish_3d,
            cl.dy0 - 1 - k_squish_3d, cl.dz0 - 1 - k_squish_3d};
  }
  if ((c & 0x02) == 0) {
    return {cl.xsb + 1, cl.ysb - 1, cl.zsb + 1, cl.dx0 - 1 - k_squish_3d,
            cl.dy0 + 1 - k_squish_3d, cl.dz0 - 1 - k_squish_3d};
  }
  return {cl.xsb + 1, cl.ysb + 1, cl.zsb - 1, cl.dx0 - 1 - k_squish_3d, cl.dy0 - 1 - k_squish_3d,
          cl.dz0 + 1 - k_squish_3d};
}

// Both closest points on the (1,1,1) side: (1,1,1) plus a permutation of
// (2,0,0) along the shared axis. Note `d - 2 - 2k` here, unlike the mixed case.
inline extra_pair_3d extras_octa_further(const cell_3d& cl, int c) {
  extra_pair_3d e{};
  e.v0 = {cl.xsb + 1, cl.ysb + 1, cl.zsb + 1, cl.dx0 - 1 - k_squish_3d_x3,
          cl.dy0 - 1 - k_squish_3d_x3, cl.dz0 - 1 - k_squish_3d_x3};
  if ((c & 0x01) != 0) {
    e.v1 = {cl.xsb + 2, cl.ysb, cl.zsb, cl.dx0 - 2 - k_squish_3d_x2, cl.dy0 - k_squish_3d_x2,
            cl.dz0 - k_squish_3d_x2};
  } else if ((c & 0x02) != 0) {
    e.v1 = {cl.xsb, cl.ysb + 2, cl.zsb, cl.dx0 - k_squish_3d_x2, cl.dy0 - 2 - k_squish_3d_x2,
            cl.dz0 - k_squish_3d_x2};
  } else {
    e.v1 = {cl.xsb, cl.ysb, cl.zsb + 2, cl.dx0 - k_squish_3d_x2, cl.dy0 - k_squish_3d_x2,
            cl.dz0 - 2 - k_squish_3d_x2};
  }
  return e;
}

// One closest point on each side: c1 on the (1,1,1) side picks a permutation
// of (1,1,-1), c2 on the (0,0,0) side a permutation of (2,0,0), the latter
// computed as `(d - 2k) - 2` like the gist.
inline extra_pair_3d extras_octa_mixed(const cell_3d& cl, int c1, int c2) {
  extra_pair_3d e{};
  e.v0 = octa_vertex_11m1(cl, c1);
  vertex_3d& v = e.v1;
  v = {cl.xsb, cl.ysb, cl.zsb, cl.dx0 - k_squish_3d_x2, cl.dy0 - k_squish_3d_x2,
       cl.dz0 - k_squish_3d_x2};
  if ((c2 & 0x01) != 0) {
    v.dx -= 2;
    v.xsv += 2;
  } else if ((c2 & 0x02) != 0) {
    v.dy -= 2;
    v.ysv += 2;
  } else {
    v.dz -= 2;
    v.zsv += 2;
  }
  return e;
}

inline extra_pair_3d extras_octa(const cell_3d& cl) {
  const octa_closest r = closest_octa(cl);
  if (r.a_further != r.b_further) {
    return r.a_further ? extras_octa_mixed(cl, r.a_point, r.b_point)
                       : extras_octa_mixed(cl, r.b_point, r.a_point);
  }
  if (r.a_further) return extras_octa_further(cl, r.a_point & r.b_point);
  // Both on the (0,0,0) side: (0,0,0) plus a permutation of (1,1,-1) chosen by
  // the axis neither point uses.
  return {{cl.xsb, cl.ysb, cl.zsb, cl.dx0, cl.dy0, cl.dz0},
          octa_vertex_11m1(cl, r.a_point | r.b_point)};
}

inline double sum_octa(const tables_3d& t, const cell_3d& c) {
  return add_upper_triple(t, c, add_lower_triple(t, c, 0.0));
}

}  // namespace

open_simplex_legacy::open_simplex_legacy(std::int64_t seed)
    : m_perm{},
      m_perm_grad_index_3d{},
      m_perm_x4_lanes{},
      m_perm_lanes{},
      m_gradient_lanes_2d{},
      m_gradient_lanes_3d{} {
  std::array<std::uint8_t, 256> source{};
  for (int i = 0; i < 256; ++i) source[i] = static_cast<std::uint8_t>(i);

  std::uint64_t state = static_cast<std::uint64_t>(seed);
  state = lcg_next(state);
  state = lcg_next(state);
  state = lcg_next(state);
  for (int i = 255; i >= 0; --i) {
    state = lcg_next(state);
    // Java's `%` on a signed long: the remainder takes the dividend's sign.
    // Taking it on the unsigned value (as a popular C port does) gives a
    // different permutation.
    auto r = static_cast<int>(static_cast<std::int64_t>(state + 31) % (i + 1));
    if (r < 0) r += i + 1;
    m_perm[i] = source[r];
    m_perm_grad_index_3d[i] = static_cast<std::uint8_t>((m_perm[i] % k_gradient_count_3d) * 3);
    source[r] = source[i];
  }
  for (std::size_t i = 0; i < 256; ++i) {
    m_perm_lanes[i] = m_perm[i];
    for (std::size_t o = 0; o < 4; ++o) m_perm_x4_lanes[i] |= std::uint64_t{m_perm[(i + o) & 0xFF]} << (8 * o);
    const std::size_t g2 = m_perm[i] & 0x0E;
    m_gradient_lanes_2d[i] = os_legacy::pack_gradient(k_gradients_2d[g2], k_gradients_2d[g2 + 1], 0);
    const std::size_t g3 = m_perm_grad_index_3d[i];
    m_gradient_lanes_3d[i] =
        os_legacy::pack_gradient(k_gradients_3d[g3], k_gradients_3d[g3 + 1], k_gradients_3d[g3 + 2]);
  }
}

double open_simplex_legacy::eval(double x, double y) const {
  // Place the input on the stretched grid and find the rhombus origin.
  const double stretch_offset = (x + y) * k_stretch_2d;
  const double xs = x + stretch_offset;
  const double ys = y + stretch_offset;
  int xsb = fast_floor(xs);
  int ysb = fast_floor(ys);
  const double squish_offset = static_cast<double>(xsb + ysb) * k_squish_2d;
  const double xb = xsb + squish_offset;
  const double yb = ysb + squish_offset;
  const double xins = xs - xsb;
  const double yins = ys - ysb;
  const double in_sum = xins + yins;
  double dx0 = x - xb;
  double dy0 = y - yb;

  // (1,0) and (0,1) are vertices of both triangles of the rhombus.
  double value = 0;
  value += contribution_2d(m_perm, {xsb + 1, ysb, dx0 - 1 - k_squish_2d, dy0 - k_squish_2d});
  value += contribution_2d(m_perm, {xsb, ysb + 1, dx0 - k_squish_2d, dy0 - 1 - k_squish_2d});

  vertex_2d ext{};
  if (in_sum <= 1) {
    ext = extra_vertex_2d_lower(xsb, ysb, xins, yins, in_sum, dx0, dy0);
  } else {
    ext = extra_vertex_2d_upper(xsb, ysb, xins, yins, in_sum, dx0, dy0);
    xsb += 1;
    ysb += 1;
    dx0 = dx0 - 1 - k_squish_2d_x2;
    dy0 = dy0 - 1 - k_squish_2d_x2;
  }
  value += contribution_2d(m_perm, {xsb, ysb, dx0, dy0});  // (0,0) or (1,1)
  value += contribution_2d(m_perm, ext);
  return value / k_norm_2d;
}

double open_simplex_legacy::eval(double x, double y, double z) const {
  const tables_3d t{m_perm, m_perm_grad_index_3d};
  const cell_3d c = locate_3d(x, y, z);

  // Extra vertices are chosen first but summed last, as in the gist.
  double value = 0;
  extra_pair_3d ext{};
  if (c.in_sum <= 1) {
    ext = extras_lower(c);
    value = sum_lower(t, c);
  } else if (c.in_sum >= 2) {
    ext = extras_upper(c);
    value = sum_upper(t, c);
  } else {
    ext = extras_octa(c);
    value = sum_octa(t, c);
  }
  value += contribution_3d(t, ext.v0);
  value += contribution_3d(t, ext.v1);
  return value / k_norm_3d;
}

}  // namespace landform
