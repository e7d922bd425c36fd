#include "landform/derive/terrain_mesh.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "landform/core/parallel.hpp"
#include "landform/derive/surface.hpp"

namespace landform {

namespace {

void check_grid(const heightfield& field, const mesh_grid& g) {
  if (g.columns < 2 || g.rows < 2 || g.width < 1 || g.height < 1)
    throw std::invalid_argument("grid_mesh: a mesh needs at least 2 x 2 vertices");
  if (g.x0 < 0 || g.y0 < 0 || g.x0 + g.columns > field.width() || g.y0 + g.rows > field.height())
    throw std::invalid_argument("grid_mesh: the vertex grid does not fit the field");
  const auto vertices = static_cast<std::uint64_t>(g.columns) * static_cast<std::uint64_t>(g.rows);
  if (vertices > std::numeric_limits<std::uint32_t>::max())
    throw std::length_error("mesh: " + std::to_string(vertices) + " vertices do not fit glTF's uint32 indices");
}

}  // namespace

std::vector<std::uint32_t> grid_triangles(int columns, int rows) {
  std::vector<std::uint32_t> out;
  out.reserve(static_cast<std::size_t>(columns - 1) * static_cast<std::size_t>(rows - 1) * 6);
  const auto n = static_cast<std::uint32_t>(columns);
  for (int r = 0; r + 1 < rows; ++r) {
    for (int c = 0; c + 1 < columns; ++c) {
      const std::uint32_t v00 = static_cast<std::uint32_t>(r) * n + static_cast<std::uint32_t>(c);
      const std::uint32_t v10 = v00 + 1, v01 = v00 + n, v11 = v01 + 1;
      out.insert(out.end(), {v00, v01, v10, v10, v01, v11});
    }
  }
  return out;
}

terrain_mesh grid_mesh(const heightfield& field, const mesh_grid& g, double height_scale, int nthreads) {
  check_grid(field, g);
  const surface_gradient grad = horn_gradient(field, height_scale, edge_policy::extrapolate, nthreads);
  const region& place = field.placement();
  const std::size_t count = static_cast<std::size_t>(g.columns) * static_cast<std::size_t>(g.rows);
  terrain_mesh m;
  m.positions.resize(count * 3);
  m.normals.resize(count * 3);
  m.uvs.resize(count * 2);
  parallel_rows(g.rows, nthreads, [&](int begin, int end) {
    for (int r = begin; r < end; ++r) {
      for (int c = 0; c < g.columns; ++c) {
        const std::size_t k =
            static_cast<std::size_t>(r) * static_cast<std::size_t>(g.columns) + static_cast<std::size_t>(c);
        const std::size_t cell = static_cast<std::size_t>(g.y0 + r) * static_cast<std::size_t>(field.width()) +
                                 static_cast<std::size_t>(g.x0 + c);
        m.positions[3 * k + 0] = static_cast<float>(place.world_x(g.x0 + c));
        m.positions[3 * k + 1] = static_cast<float>(static_cast<double>(field.values()[cell]) * height_scale);
        m.positions[3 * k + 2] = static_cast<float>(place.world_y(g.y0 + r));
        // y = H(x, z) with z south: normal (-dH/dx, 1, -dH/dz) = (-east, 1, north).
        const double nx = -grad.east[cell], nz = grad.north[cell];
        const double inv = 1.0 / std::sqrt(nx * nx + 1.0 + nz * nz);
        m.normals[3 * k + 0] = static_cast<float>(nx * inv);
        m.normals[3 * k + 1] = static_cast<float>(inv);
        m.normals[3 * k + 2] = static_cast<float>(nz * inv);
        m.uvs[2 * k + 0] = static_cast<float>((c + 0.5) / g.width);
        m.uvs[2 * k + 1] = static_cast<float>((r + 0.5) / g.height);
      }
    }
  });
  m.indices = grid_triangles(g.columns, g.rows);
  return m;
}

std::vector<double> grid_heights(const heightfield& field, const mesh_grid& g, double height_scale) {
  check_grid(field, g);
  std::vector<double> y(static_cast<std::size_t>(g.columns) * static_cast<std::size_t>(g.rows));
  for (int r = 0; r < g.rows; ++r) {
    const float* row = field.row(g.y0 + r) + g.x0;
    for (int c = 0; c < g.columns; ++c)
      y[static_cast<std::size_t>(r) * static_cast<std::size_t>(g.columns) + static_cast<std::size_t>(c)] =
          static_cast<double>(row[c]) * height_scale;
  }
  return y;
}

namespace {

struct grid_point {
  std::int64_t c, r;
};

// Twice the signed area of (a, b, p) in grid units: exact in int64.
std::int64_t edge(grid_point a, grid_point b, grid_point p) {
  return (b.c - a.c) * (p.r - a.r) - (b.r - a.r) * (p.c - a.c);
}

// Calls fn(k, z) at each grid point k (row-major over `columns`) the
// triangle covers, edges included, z its height interpolated linearly from
// `h` at the vertices; returns false for a triangle degenerate in plan
// (which covers nothing of its own).
template <class Fn>
bool scan_triangle(const grid_point (&v)[3], const double (&h)[3], int columns, Fn&& fn) {
  const std::int64_t area = edge(v[0], v[1], v[2]);
  if (area == 0) return false;
  // Counter-clockwise seen from +Y is negative here (z south); positive is a
  // triangle folded over, measured all the same at the points it covers.
  const std::int64_t sign = area > 0 ? -1 : 1;
  const std::int64_t c0 = std::min({v[0].c, v[1].c, v[2].c}), c1 = std::max({v[0].c, v[1].c, v[2].c});
  const std::int64_t r0 = std::min({v[0].r, v[1].r, v[2].r}), r1 = std::max({v[0].r, v[1].r, v[2].r});
  for (std::int64_t r = r0; r <= r1; ++r) {
    for (std::int64_t c = c0; c <= c1; ++c) {
      const grid_point p{c, r};
      const std::int64_t w0 = edge(v[1], v[2], p), w1 = edge(v[2], v[0], p), w2 = edge(v[0], v[1], p);
      if (sign * w0 > 0 || sign * w1 > 0 || sign * w2 > 0) continue;  // outside (edges included)
      const double z =
          (static_cast<double>(w0) * h[0] + static_cast<double>(w1) * h[1] + static_cast<double>(w2) * h[2]) /
          static_cast<double>(area);
      fn(static_cast<std::size_t>(r) * static_cast<std::size_t>(columns) + static_cast<std::size_t>(c), z);
    }
  }
  return true;
}

// The triangle of grid vertices `ids` as grid points and heights.
void triangle_at(const std::uint32_t* ids, const std::vector<double>& y, int columns, grid_point (&v)[3],
                 double (&h)[3]) {
  for (int k = 0; k < 3; ++k) {
    const std::uint32_t id = ids[k];
    v[k] = {static_cast<std::int64_t>(id % static_cast<std::uint32_t>(columns)),
            static_cast<std::int64_t>(id / static_cast<std::uint32_t>(columns))};
    h[k] = y[id];
  }
}

}  // namespace

double triangle_vertical_error(const std::uint32_t (&ids)[3], const std::vector<double>& y, int columns) {
  grid_point v[3];
  double h[3];
  triangle_at(ids, y, columns, v, h);
  double worst = 0.0;
  scan_triangle(v, h, columns, [&](std::size_t k, double z) { worst = std::max(worst, std::abs(z - y[k])); });
  return worst;
}

double max_vertical_error(const std::vector<std::uint32_t>& indices, const std::vector<double>& y, int columns,
                          int rows) {
  std::vector<std::uint8_t> covered(static_cast<std::size_t>(columns) * static_cast<std::size_t>(rows), 0);
  double worst = 0.0;
  for (std::size_t t = 0; t + 2 < indices.size(); t += 3) {
    grid_point v[3];
    double h[3];
    triangle_at(indices.data() + t, y, columns, v, h);
    scan_triangle(v, h, columns, [&](std::size_t k, double z) {
      covered[k] = 1;
      worst = std::max(worst, std::abs(z - y[k]));
    });
  }
  if (std::find(covered.begin(), covered.end(), std::uint8_t{0}) != covered.end())
    return std::numeric_limits<double>::infinity();
  return worst;
}

std::size_t folded_triangles(const std::vector<std::uint32_t>& indices, int columns) {
  std::size_t folded = 0;
  const auto n = static_cast<std::uint32_t>(columns);
  for (std::size_t t = 0; t + 2 < indices.size(); t += 3) {
    grid_point v[3];
    for (std::size_t k = 0; k < 3; ++k) v[k] = {indices[t + k] % n, indices[t + k] / n};
    folded += edge(v[0], v[1], v[2]) > 0 ? 1 : 0;
  }
  return folded;
}

void drop_unused_vertices(terrain_mesh& mesh) {
  constexpr std::uint32_t k_unused = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> remap(mesh.vertex_count(), k_unused);
  for (std::uint32_t i : mesh.indices) remap[i] = 0;
  std::uint32_t next = 0;
  for (std::size_t v = 0; v < remap.size(); ++v) {
    if (remap[v] == k_unused) continue;
    remap[v] = next;
    std::copy_n(mesh.positions.begin() + static_cast<std::ptrdiff_t>(3 * v), 3,
                mesh.positions.begin() + static_cast<std::ptrdiff_t>(3 * next));
    std::copy_n(mesh.normals.begin() + static_cast<std::ptrdiff_t>(3 * v), 3,
                mesh.normals.begin() + static_cast<std::ptrdiff_t>(3 * next));
    std::copy_n(mesh.uvs.begin() + static_cast<std::ptrdiff_t>(2 * v), 2,
                mesh.uvs.begin() + static_cast<std::ptrdiff_t>(2 * next));
    ++next;
  }
  mesh.positions.resize(3 * static_cast<std::size_t>(next));
  mesh.normals.resize(3 * static_cast<std::size_t>(next));
  mesh.uvs.resize(2 * static_cast<std::size_t>(next));
  for (std::uint32_t& i : mesh.indices) i = remap[i];
}

namespace {

std::uint64_t edge_key(std::uint32_t a, std::uint32_t b) {
  return (std::uint64_t{std::min(a, b)} << 32) | std::max(a, b);
}

// Directed edges used by exactly one triangle (their reverse unused), in
// index order: the mesh's border, interior on their left seen from +Y.
std::vector<std::pair<std::uint32_t, std::uint32_t>> border_edges(const std::vector<std::uint32_t>& indices) {
  std::vector<std::uint64_t> keys;
  keys.reserve(indices.size());
  for (std::size_t t = 0; t + 2 < indices.size(); t += 3) {
    for (std::size_t k = 0; k < 3; ++k) keys.push_back(edge_key(indices[t + k], indices[t + (k + 1) % 3]));
  }
  std::sort(keys.begin(), keys.end());
  auto used_once = [&](std::uint64_t key) {
    const auto [lo, hi] = std::equal_range(keys.begin(), keys.end(), key);
    return hi - lo == 1;
  };
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  for (std::size_t t = 0; t + 2 < indices.size(); t += 3) {
    for (std::size_t k = 0; k < 3; ++k) {
      const std::uint32_t a = indices[t + k], b = indices[t + (k + 1) % 3];
      if (used_once(edge_key(a, b))) out.emplace_back(a, b);
    }
  }
  return out;
}

}  // namespace

void add_skirt(terrain_mesh& mesh, double depth) {
  if (depth <= 0.0) return;
  const auto edges = border_edges(mesh.indices);
  constexpr std::uint32_t k_none = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> lowered(mesh.vertex_count(), k_none);
  auto lower = [&](std::uint32_t v) {
    if (lowered[v] != k_none) return lowered[v];
    lowered[v] = static_cast<std::uint32_t>(mesh.vertex_count());
    const std::size_t p = 3 * static_cast<std::size_t>(v), u = 2 * static_cast<std::size_t>(v);
    mesh.positions.insert(mesh.positions.end(), {mesh.positions[p], static_cast<float>(mesh.positions[p + 1] - depth),
                                                 mesh.positions[p + 2]});
    mesh.normals.insert(mesh.normals.end(), {mesh.normals[p], mesh.normals[p + 1], mesh.normals[p + 2]});
    mesh.uvs.insert(mesh.uvs.end(), {mesh.uvs[u], mesh.uvs[u + 1]});
    return lowered[v];
  };
  // Edge a -> b has the surface on its left, so (a, a', b) and (b, a', b')
  // face outwards.
  for (const auto& [a, b] : edges) {
    const std::uint32_t la = lower(a), lb = lower(b);
    mesh.indices.insert(mesh.indices.end(), {a, la, b, b, la, lb});
  }
}

}  // namespace landform
