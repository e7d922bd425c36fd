#pragma once
/// @file
/// A triangle mesh of the heightfield: one vertex per cell centre, two
/// triangles per grid square, in world metres, glTF axes (+Y up,
/// right-handed): x = east = cell_size * world column, y = up = height *
/// height_scale, z = south = cell_size * world row (row 0 is north). Front
/// faces wind counter-clockwise seen from above (+Y).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "landform/core/heightfield.hpp"

namespace landform {

/// Flat float32 arrays, one entry per vertex, and uint32 triangles.
struct terrain_mesh {
  std::vector<float> positions;        ///< x, y, z per vertex, metres (axes above)
  std::vector<float> normals;          ///< unit x, y, z per vertex
  std::vector<float> uvs;              ///< u, v per vertex (TEXCOORD_0)
  std::vector<std::uint32_t> indices;  ///< 3 per triangle, counter-clockwise from +Y

  [[nodiscard]] std::size_t vertex_count() const { return positions.size() / 3; }
  [[nodiscard]] std::size_t triangle_count() const { return indices.size() / 3; }
};

/// The vertex grid: `columns` x `rows` cell centres of `field` starting at
/// field cell (`x0`, `y0`); `width` x `height` is the region the UVs span.
struct mesh_grid {
  int x0 = 0, y0 = 0;
  int columns = 0, rows = 0;  ///< vertices across and down, >= 2 each
  int width = 0, height = 0;  ///< the region, cells
};

/// Two triangles per grid square of a `columns` x `rows` vertex grid (vertex
/// (c, r) has index r * columns + c), counter-clockwise seen from +Y with z
/// south: (c, r) (c, r + 1) (c + 1, r) and (c + 1, r) (c, r + 1) (c + 1, r + 1).
std::vector<std::uint32_t> grid_triangles(int columns, int rows);

/// The full-resolution mesh of `grid` (vertex (c, r) has index r * columns +
/// c), with normals from Horn's gradient of `field` in metres,
/// n = normalize(-dz/dx_east, 1, dz/dy_north), and texel-exact UVs: u = (c +
/// 0.5) / width, v = (r + 0.5) / height, so the region's own maps drape with
/// each texel centre on its cell's vertex (u runs past 1 by half a texel on a
/// column beyond the region). Throws std::length_error when the vertices do
/// not fit uint32 indices, std::invalid_argument for a grid of under 2 x 2 or
/// outside `field`.
terrain_mesh grid_mesh(const heightfield& field, const mesh_grid& grid, double height_scale, int nthreads);

/// The largest vertical distance in metres between the triangles `indices`
/// (over the vertices of grid_mesh(grid), so vertex k is grid point (k %
/// columns, k / columns)) and the heights `y` (metres, columns * rows, row
/// major) at every grid point: each triangle is interpolated linearly at the
/// grid points it covers (edges included) in exact integer arithmetic.
/// A triangle folded over (clockwise seen from +Y) is measured like the
/// others, so every layer above a grid point is within the result. Returns
/// +infinity when a grid point is covered by no triangle.
double max_vertical_error(const std::vector<std::uint32_t>& indices, const std::vector<double>& y, int columns,
                          int rows);

/// The largest vertical distance in metres between one triangle, grid
/// vertices `ids` (vertex k is grid point (k % columns, k / columns)), and
/// the heights `y` (metres, row major over `columns`) at the grid points it
/// covers, edges included, interpolated exactly as max_vertical_error does.
/// 0 for a triangle degenerate in plan.
double triangle_vertical_error(const std::uint32_t (&ids)[3], const std::vector<double>& y, int columns);

/// Triangles of `indices` (over grid_mesh's vertices) that wind clockwise
/// seen from +Y: folded over in plan (a general edge-collapse simplifier's
/// slivers; simplify_to_error makes none).
std::size_t folded_triangles(const std::vector<std::uint32_t>& indices, int columns);

/// Heights of grid_mesh(grid)'s vertices in metres, in double (no float32
/// rounding): the reference max_vertical_error compares with.
std::vector<double> grid_heights(const heightfield& field, const mesh_grid& grid, double height_scale);

/// Keeps only the vertices `mesh.indices` uses, in their original order, and
/// renumbers the indices.
void drop_unused_vertices(terrain_mesh& mesh);

/// Closes the border: every edge used by one triangle gets a vertical quad
/// down to `depth` metres below it (same normal and UV as its top vertex),
/// facing outwards. `depth` <= 0 adds nothing.
void add_skirt(terrain_mesh& mesh, double depth);

}  // namespace landform
