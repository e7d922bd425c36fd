#include "landform/derive/mesh_simplify.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace landform {

namespace {

struct point {
  int c, r;  ///< grid column, row
};

point mid(point a, point b) {
  return {(a.c + b.c) / 2, (a.r + b.r) / 2};
}

// A right isosceles triangle of the bisection hierarchy: hypotenuse a-b,
// right angle at c. Its children, split at the hypotenuse's midpoint m, are
// (c, a, m) and (b, c, m).
struct triangle {
  point a, b, c;
};

enum class place { inside, straddles, outside };

// The hierarchy over one vertex grid, with each hypotenuse midpoint's
// propagated error (metres; +infinity: must split).
class rtin {
 public:
  rtin(const mesh_grid& g, const std::vector<double>& y)
      : m_columns(g.columns), m_rows(g.rows), m_y(y), m_error(y.size(), 0.0) {
    int cells = 1;
    while (cells < std::max(g.columns, g.rows) - 1) {
      cells *= 2;
      m_depth += 2;
    }
    m_roots[0] = {{0, 0}, {cells, cells}, {0, cells}};
    m_roots[1] = {{cells, cells}, {0, 0}, {cells, 0}};
    // Finest level first, so children's midpoints (and their partners'
    // across the hypotenuse, at the same level) are final before a parent.
    for (int level = m_depth - 1; level >= 0; --level) {
      for (const triangle& root : m_roots) measure(root, 0, level);
    }
  }

  // Calls sink(t) for each triangle of the mesh at `threshold`.
  template <class Sink>
  void mesh(double threshold, Sink&& sink) const {
    for (const triangle& root : m_roots) emit(root, 0, threshold, sink);
  }

  [[nodiscard]] std::size_t count(double threshold) const {
    std::size_t n = 0;
    mesh(threshold, [&](const triangle&) { ++n; });
    return n;
  }

  // The smallest threshold among the midpoint errors whose mesh has at most
  // `cap` triangles, given that the coarsest mesh has at most `cap` and the
  // finest more, in one walk and a selection. A split turns one
  // triangle into its children that are not outside: an inside triangle into
  // two, a straddling one (always split) into one or two. Errors propagate up
  // (a parent's midpoint error is at least its children's), so at threshold
  // T exactly the inside triangles whose midpoint error exceeds T split:
  // count(T) = fixed + #(errors > T), with `fixed` the roots and the
  // straddling splits. The answer is the (cap - fixed + 1)-th largest error.
  [[nodiscard]] double threshold_for_cap(std::size_t cap) const {
    std::size_t fixed = 0;
    std::vector<double> errors;
    for (const triangle& root : m_roots) collect(root, 0, fixed, errors);
    const std::size_t k = cap - fixed;  // splits allowed; fixed <= count(coarsest) <= cap
    if (k >= errors.size()) throw std::logic_error("mesh: threshold_for_cap called with a cap nothing exceeds");
    const auto kth = errors.begin() + static_cast<std::ptrdiff_t>(k);
    std::nth_element(errors.begin(), kth, errors.end(), std::greater<>());
    return *kth;
  }

  // The triangle's vertex ids, counter-clockwise seen from +Y (z south):
  // negative twice-area in (column, row).
  [[nodiscard]] std::array<std::uint32_t, 3> ids(const triangle& t) const {
    point v1 = t.b, v2 = t.c;
    const long long area =
        static_cast<long long>(v1.c - t.a.c) * (v2.r - t.a.r) - static_cast<long long>(v1.r - t.a.r) * (v2.c - t.a.c);
    if (area > 0) std::swap(v1, v2);
    return {id(t.a), id(v1), id(v2)};
  }

 private:
  [[nodiscard]] bool contains(point p) const { return p.c < m_columns && p.r < m_rows; }

  [[nodiscard]] std::uint32_t id(point p) const {
    return static_cast<std::uint32_t>(p.r) * static_cast<std::uint32_t>(m_columns) + static_cast<std::uint32_t>(p.c);
  }

  [[nodiscard]] double& error_at(point p) { return m_error[id(p)]; }
  [[nodiscard]] double error_at(point p) const { return m_error[id(p)]; }

  // Inside: every vertex in the grid (so the whole triangle, the grid being
  // convex). Straddles: its bounding box meets the grid's open interior.
  // Outside otherwise: it covers no area of the grid. A triangle with legs of
  // one cell is always inside or outside (its box is one cell).
  [[nodiscard]] place where(const triangle& t) const {
    if (contains(t.a) && contains(t.b) && contains(t.c)) return place::inside;
    const int c0 = std::min({t.a.c, t.b.c, t.c.c}), r0 = std::min({t.a.r, t.b.r, t.c.r});
    return c0 < m_columns - 1 && r0 < m_rows - 1 ? place::straddles : place::outside;
  }

  [[nodiscard]] bool on_border(point p) const {
    return p.c == 0 || p.r == 0 || p.c == m_columns - 1 || p.r == m_rows - 1;
  }

  void measure(const triangle& t, int level, int target) {
    const place at = where(t);
    if (at == place::outside) return;
    const point m = mid(t.a, t.b);
    if (level < target) {
      measure({t.c, t.a, m}, level + 1, target);
      measure({t.b, t.c, m}, level + 1, target);
      return;
    }
    if (at == place::straddles) {
      if (contains(m)) error_at(m) = std::numeric_limits<double>::infinity();
      return;
    }
    double e = std::numeric_limits<double>::infinity();
    if (!on_border(m)) {
      const std::array<std::uint32_t, 3> v = ids(t);
      const std::uint32_t v3[3] = {v[0], v[1], v[2]};
      e = triangle_vertical_error(v3, m_y, m_columns);
      if (level + 1 < m_depth) e = std::max({e, error_at(mid(t.a, t.c)), error_at(mid(t.b, t.c))});
    }
    error_at(m) = std::max(error_at(m), e);
  }

  // One visit of every triangle that some threshold reaches (see counter).
  void collect(const triangle& t, int level, std::size_t& fixed, std::vector<double>& errors) const {
    const place at = where(t);
    if (at == place::outside) return;
    if (level == 0) ++fixed;
    if (level == m_depth) return;
    const point m = mid(t.a, t.b);
    const triangle first{t.c, t.a, m}, second{t.b, t.c, m};
    if (at == place::inside) {
      errors.push_back(error_at(m));
    } else {
      fixed += static_cast<std::size_t>(where(first) != place::outside) +
               static_cast<std::size_t>(where(second) != place::outside) - 1;
    }
    collect(first, level + 1, fixed, errors);
    collect(second, level + 1, fixed, errors);
  }

  template <class Sink>
  void emit(const triangle& t, int level, double threshold, Sink& sink) const {
    const place at = where(t);
    if (at == place::outside) return;
    if (level == m_depth || (at == place::inside && error_at(mid(t.a, t.b)) <= threshold)) {
      sink(t);  // one-cell legs are inside here (see where)
      return;
    }
    const point m = mid(t.a, t.b);
    emit({t.c, t.a, m}, level + 1, threshold, sink);
    emit({t.b, t.c, m}, level + 1, threshold, sink);
  }

  int m_columns, m_rows;
  const std::vector<double>& m_y;
  std::vector<double> m_error;  ///< per grid point: the propagated error of the triangles it bisects
  int m_depth = 0;              ///< the level of one-cell legs
  triangle m_roots[2] = {};
};

}  // namespace

simplify_result simplify_to_error(const mesh_grid& grid, const std::vector<double>& y, double max_error,
                                  std::size_t max_triangles) {
  simplify_result out;
  if (max_error <= 0.0 && max_triangles == 0) {
    out.indices = grid_triangles(grid.columns, grid.rows);
    return out;
  }
  const rtin net(grid, y);
  double threshold = std::max(max_error, 0.0);
  if (max_triangles > 0 && net.count(threshold) > max_triangles) {
    // The coarsest mesh splits only what must split (the border, the grid's
    // edge); between the bound and it, the smallest threshold within the cap.
    constexpr double k_coarsest = std::numeric_limits<double>::max();
    const std::size_t fewest = net.count(k_coarsest);
    if (fewest > max_triangles)
      throw std::invalid_argument("value " + std::to_string(max_triangles) + ", must be at least " +
                                  std::to_string(fewest) + " for a " + std::to_string(grid.columns) + " x " +
                                  std::to_string(grid.rows) +
                                  " vertex grid (its coarsest mesh: every border vertex is kept so tiles meet)");
    threshold = net.threshold_for_cap(max_triangles);
    if (net.count(threshold) > max_triangles) throw std::logic_error("mesh: the cap's threshold leaves too many");
    out.capped = true;
  }
  net.mesh(threshold, [&](const triangle& t) {
    const std::array<std::uint32_t, 3> v = net.ids(t);
    out.indices.insert(out.indices.end(), v.begin(), v.end());
  });
  out.error = max_vertical_error(out.indices, y, grid.columns, grid.rows);
  out.threshold = threshold == std::numeric_limits<double>::max() ? out.error : threshold;
  if (!(out.error <= out.threshold))
    throw std::logic_error("mesh: RTIN error " + std::to_string(out.error) + " m above its threshold");
  out.folded = folded_triangles(out.indices, grid.columns);
  return out;
}

}  // namespace landform
