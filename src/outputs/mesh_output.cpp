// "mesh": a glTF 2.0 binary terrain mesh simplified to an error bound.

#include "landform/outputs/mesh_output.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "landform/derive/mesh_simplify.hpp"
#include "landform/derive/terrain_mesh.hpp"
#include "landform/io/encode_glb.hpp"
#include "outputs/gradient_check.hpp"

namespace landform {

namespace {

struct mesh_options {
  double max_error = 0.0;  ///< metres, 0 = the full grid
  double skirt = 0.0;      ///< metres below the border, 0 = none
  int max_triangles = 0;   ///< triangles of the surface (skirt excluded), 0 = no cap

  static const param_schema<mesh_options>& schema() {
    using P = mesh_options;
    static const auto s =
        param_schema<P>()
            .number("max_error", &P::max_error)
            .unit("m")
            .range(between(0, 1e6))
            .doc("largest vertical distance between the mesh and any cell's height; 0 = the full grid")
            .effect("higher = fewer triangles: flat ground first, ridges last")
            .number("skirt", &P::skirt)
            .unit("m")
            .range(between(0, 1e6))
            .doc("a vertical strip this deep below the border, hiding cracks between tiles; 0 = none")
            .effect("deeper = hides larger level-of-detail cracks")
            .integer("max_triangles", &P::max_triangles)
            .unit("triangles")
            .range(between(0, 2147483647))
            .doc("cap on the surface's triangles (skirt excluded), winning over max_error; 0 = no cap")
            .effect("lower = a lighter mesh; where it bites, the error passes max_error (the manifest gives it)");
    return s;
  }
  // A world one cell wide or high has no triangle in any region (vertices sit
  // on cell centres): a preset error when validated, not a failed build.
  [[nodiscard]] std::vector<preset_issue> check_world(const world_extent& world, double) const {
    if (world.width >= 2 && world.height >= 2) return {};
    return {{"map", "a mesh needs a world of 2 x 2 cells or more (its vertices are cell centres); this one is " +
                        std::to_string(world.width) + " x " + std::to_string(world.height)}};
  }
};

// Two cells: the next tile's first column and row (so tiles meet at shared
// vertices) and one more for those vertices' Horn normals.
int mesh_halo(const mesh_options&, double) {
  return 2;
}

// The region's cell centres, plus the column east and the row south of it
// when the computed field has them (inside the world).
mesh_grid vertex_grid(const output_context& ctx) {
  mesh_grid g;
  g.x0 = ctx.x0;
  g.y0 = ctx.y0;
  g.width = ctx.width;
  g.height = ctx.height;
  g.columns = ctx.width + (ctx.x0 + ctx.width < ctx.field.width() ? 1 : 0);
  g.rows = ctx.height + (ctx.y0 + ctx.height < ctx.field.height() ? 1 : 0);
  if (g.columns < 2 || g.rows < 2)
    throw std::invalid_argument("mesh: a region of " + std::to_string(g.columns) + " x " + std::to_string(g.rows) +
                                " vertices has no triangles (2 x 2 at least)");
  return g;
}

json mesh_facts(const mesh_options& o, const mesh_grid& g, const simplify_result& s, const terrain_mesh& m,
                std::size_t surface_triangles) {
  return {{"units", "metres"},
          {"axes",
           "glTF (+Y up, right-handed): x = east = cell_size * world column, y = up = height * height_scale, "
           "z = south = cell_size * world row"},
          {"row_order", "n/a (a mesh; vertex rows run north to south along +z)"},
          {"uv", "u = (column + 0.5) / width, v = (row + 0.5) / height over the region: texel centres on vertices"},
          {"grid", {g.columns, g.rows}},
          {"vertices", m.vertex_count()},
          {"triangles", m.triangle_count()},
          {"surface_triangles", surface_triangles},
          {"max_error_m", o.max_error},
          {"max_triangles", o.max_triangles},
          {"limited_by", s.capped ? "max_triangles" : "max_error"},
          {"measured_error_m", s.error},
          {"folded_triangles", s.folded},
          {"skirt_m", o.skirt}};
}

encoded_file encode_mesh(const mesh_options& o, const std::string&, const output_context& ctx) {
  // Vertex heights in float32 metres, normals from Horn's gradient.
  const auto [lo, hi] = std::minmax_element(ctx.field.values().begin(), ctx.field.values().end());
  if (std::max(std::abs(static_cast<double>(*lo)), std::abs(static_cast<double>(*hi))) * ctx.height_scale >
      static_cast<double>(std::numeric_limits<float>::max())) {
    throw non_finite_output_error("vertex heights (height x height_scale) overflow float32");
  }
  detail::require_representable_gradient(ctx, edge_policy::extrapolate, ctx.height_scale);
  const mesh_grid grid = vertex_grid(ctx);
  terrain_mesh mesh = grid_mesh(ctx.field, grid, ctx.height_scale, ctx.nthreads);
  simplify_result s;
  try {
    s = simplify_to_error(grid, grid_heights(ctx.field, grid, ctx.height_scale), o.max_error,
                          static_cast<std::size_t>(o.max_triangles));
  } catch (const std::invalid_argument& e) {  // the cap below the coarsest mesh
    throw output_option_error("max_triangles", e.what());
  }
  mesh.indices = s.indices;
  drop_unused_vertices(mesh);
  const std::size_t surface_triangles = mesh.triangle_count();
  add_skirt(mesh, o.skirt);
  encoded_file out;
  out.bytes = encode_glb(mesh, ctx.png_text);
  out.encoding = "glTF 2.0 binary: POSITION, NORMAL, TEXCOORD_0 float32, uint32 indices, metres";
  out.extra = mesh_facts(o, grid, s, mesh, surface_triangles);
  return out;
}

}  // namespace

output_kind mesh_output_kind() {
  return make_output_kind<mesh_options>(
      "mesh", "the terrain as a glTF 2.0 binary mesh (glb), simplified to an error bound in metres or a triangle cap",
      "One vertex per cell centre in world metres, glTF axes (+Y up, right-handed): x = east = cell_size * world "
      "column, y = height * height_scale, z = south = cell_size * world row. Normals from Horn's gradient, "
      "TEXCOORD_0 texel-exact over the region (u = (column + 0.5) / width), uint32 indices. A right-triangulated "
      "irregular network (RTIN, longest-edge bisection as in Martini) keeps the fewest of its triangles such that "
      "no cell centre lies more than max_error metres above or below the mesh, each triangle's error measured "
      "exactly at every cell it covers; max_triangles caps the count (the cap wins, and the manifest gives the "
      "error reached). Border vertices are kept, and a tile's mesh reaches the next tile's first column and row, "
      "so tiles meet without cracks. skirt hangs a vertical strip below the border. The manifest gives vertex "
      "and triangle counts, the measured error and which limit decided.",
      {"glb"}, &mesh_halo, &encode_mesh);
}

}  // namespace landform
