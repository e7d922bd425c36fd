#pragma once
/// @file
/// `voronoi`: the polygon map of seed document 002 (jittered-grid Voronoi
/// cells with island elevation and moisture) and Worley cellular noise.

#include <cstdint>
#include <utility>

#include "landform/stages/stage.hpp"

namespace landform {

/// Parameters of the `voronoi` generator.
struct voronoi_params {
  enum class mode_kind { elevation, f1, f2, f2_minus_f1, cell_value };
  enum class metric_kind { euclidean, manhattan, chebyshev };
  enum class island_kind { square, euclidean, none };
  enum class distribution_kind { triangular, uniform };

  mode_kind mode = mode_kind::elevation;
  double grid_size = 25.0;  ///< sites per world width (seed 002's GRIDSIZE), > 0
  double jitter = 0.5;      ///< grid spacings, 0 to 0.5: largest offset of a site from its grid point
  distribution_kind distribution = distribution_kind::triangular;
  metric_kind metric = metric_kind::euclidean;
  island_kind island = island_kind::square;
  double wavelength = 0.5;           ///< world widths: elevation noise wavelength (seed 002's WAVELENGTH), > 0
  double moisture_wavelength = 0.5;  ///< world widths: moisture noise wavelength, > 0

  static const param_schema<voronoi_params>& schema();
};

/// What the partition gives at one point.
struct voronoi_sample {
  double f1 = 0.0, f2 = 0.0;            ///< distances to the nearest and second-nearest site, grid spacings
  std::int64_t cell_x = 0, cell_y = 0;  ///< grid index of the nearest site
  double site_x = 0.0, site_y = 0.0;    ///< the nearest site, grid spacings from the world's top-left edge
  double elevation = 0.0;               ///< the nearest site's elevation (island-shaped)
  double moisture = 0.0;                ///< the nearest site's moisture, [0, 1]
  double cell_value = 0.0;              ///< the nearest site's random value, [0, 1)
};

/// The site of grid point (i, j), in grid spacings from the world's top-left
/// edge: (i, j) plus the hashed jitter offset.
std::pair<double, double> voronoi_site(const voronoi_params& p, std::uint64_t seed, const world_extent& world,
                                       std::int64_t i, std::int64_t j);

/// The Voronoi partition at (x, y), in cells from the world's top-left edge
/// (a cell centre is at integer + 0.5).
voronoi_sample voronoi_at(const voronoi_params& p, std::uint64_t seed, const world_extent& world, double x, double y);

/// Fills `h` with a Voronoi map and returns the layer `moisture` when the
/// context wants it.
///
/// Method (seed document 002, after Amit Patel's "Polygonal Map Generation
/// for Games", Red Blob Games 2010): sites on a jittered grid, grid_size per
/// world width, site (i, j) at (i + jitter (r1 - r2), j + jitter (r3 - r4))
/// grid spacings from the world's top-left edge with r uniform in [0, 1)
/// hashed from (seed, i, j) (`distribution: triangular`, as in the seed;
/// `uniform` uses jitter (2r - 1)). Each raster cell belongs to its nearest
/// site: the raster Voronoi diagram, no triangulation needed. Each Voronoi
/// cell takes one elevation e = (1 + n(x / wavelength, y / wavelength)) / 2,
/// n being 2D simplex noise (Gustavson 2005, hashed gradients, as the seed's
/// simplex-noise.js) at the site's centred world position (x, y) in world
/// widths, shaped into an island by (1 + e - d) / 2 where d = 2 max(|x|, |y|)
/// (`island: square`, as in the seed) or 2 sqrt(x^2 + y^2) (`euclidean`), d = 1
/// at the middle of the world's edges; `none` keeps e. The coast lies at 0.5,
/// or at the preset's top-level sea_level (the shape shifted by sea_level - 0.5). A
/// second noise gives each cell a moisture (1 + n2) / 2 in [0, 1], written to
/// the side layer `moisture` for the `biome` output.
/// Modes: `elevation` (the polygon map above: flat cells), `f1`, `f2`,
/// `f2_minus_f1` (Worley 1996 cellular noise, continuous, in grid spacings:
/// F1 in [0, 2), F2 and F2 - F1 in [0, 3) for every metric; Euclidean F1 <
/// sqrt 2, F2 < sqrt 5), `cell_value` (a random [0, 1) value per cell).
/// `metric` (euclidean, manhattan, chebyshev) sets the distance used for the
/// partition and the F values: Manhattan gives diamond-like cells, Chebyshev
/// square ones.
/// Range of `elevation`: at most 1 (e <= 1, d >= 0). Inside the world the
/// owning site is less than sqrt 2 grid spacings from the cell, so d <
/// 1 + 2 sqrt 2 / grid_size (square) or sqrt 2 (1 + 2 sqrt 2 / grid_size)
/// (euclidean) and elevation > -0.06 and -0.29 at the default grid_size 25;
/// sites far outside the world sink further as d grows. `none`: [0, 1].
/// Parameters: grid_size 10 to 100 (polygon count ~ grid_size^2); jitter 0
/// gives a square grid, 0.5 organic cells; wavelength 0.3 to 1 world widths
/// (smaller: more, smaller lakes and islands).
/// @pre jitter <= 0.5 (the schema's limit), which keeps the 5 x 5 / 7 x 7
/// search exact.
/// @post every cell is replaced; the returned `moisture` layer (when
/// ctx.wants("moisture")) holds the nearest site's moisture for every cell and
/// replaces in the pipeline what an
/// earlier stage wrote there (a stage's blend, weight and mask apply to the
/// heights only).
/// Pointwise: sites are hashed per grid cell, so a region equals the same
/// window of the world; rows run in parallel and the result does not depend
/// on the thread count. The nearest site is searched among the 5 x 5 grid
/// cells around (7 x 7 for F2), which is exact for jitter <= 0.5.
layer_set apply_voronoi(heightfield& h, const voronoi_params& p, const stage_context& ctx);

stage_info voronoi_stage_info();

}  // namespace landform
