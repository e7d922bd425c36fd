#pragma once
// Tile plans (issue 12): the grid of tiles over a preset's world, their names,
// the per-tile presets and the files existing engines run (GNU parallel, make,
// Slurm, Kubernetes), and the seam check over a finished plan. Pure functions;
// cmd_tiles.cpp does the I/O.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "landform/core/heightfield.hpp"

namespace landform::cli {

/// How tiles are named: PREFIX_x{X}_y{Y}, X and Y zero-padded to `pad`
/// digits (0: as many as the largest index needs), counted from `start`;
/// `flip_y` counts rows from the bottom (engines whose Y goes up).
struct tile_naming {
  std::string prefix = "tile";
  int pad = 0;
  int start = 0;
  bool flip_y = false;
};

/// The grid, as asked on the command line.
struct grid_options {
  int tile = 512;             ///< cells per side of a tile's core
  int overlap = 0;            ///< extra cells each tile is built with on every side (clipped to the world)
  bool shared_edges = false;  ///< neighbours share their edge row and column (Unity: 2^n + 1 tiles)
  tile_naming naming;
};

struct tile_spec {
  int index = 0;  ///< 0 .. n-1, row-major from the top-left: the job array index
  int col = 0, row = 0;
  std::string name;
  landform::region core;   ///< the cells this tile contributes to the mosaic
  landform::region built;  ///< what the tile build writes: the core grown by the overlap
};

/// Tiles covering `world` (cell size from `cell_size`). Throws
/// preset_error naming the option when the grid cannot be made
/// (e.g. shared edges with a tile that is not 2^n + 1 or a world that is not
/// k (tile - 1) + 1 cells).
std::vector<tile_spec> make_tiles(const world_extent& world, double cell_size, const grid_options& g, int& cols,
                                  int& rows);

/// The name of the tile in column `col`, row `row` of a `cols` x `rows` grid.
std::string tile_name(const tile_naming& n, int col, int row, int cols, int rows);

/// One pair of neighbours in the seam check.
struct seam_pair {
  int a = 0, b = 0;           ///< tile indices; b is right of (or below) a
  bool vertical_edge = true;  ///< true: a | b side by side; false: a above b
  std::int64_t shared = 0;    ///< cells both tiles built (overlap or shared edges)
  double max_dh = 0.0;        ///< max |h_a - h_b| over those cells
  double max_jump = 0.0;      ///< max change of the gradient across the seam in the mosaic
  double interior_p99 = 0.0;  ///< 99th percentile of the same measure next to the seam, inside the tiles
  double interior_max = 0.0;
};

/// Reads tile `index`'s height at world cell (x, y) of its built region.
using tile_sampler = std::function<float(int index, std::int64_t x, std::int64_t y)>;

/// Every shared edge of the grid, measured.
std::vector<seam_pair> check_seams(const std::vector<tile_spec>& tiles, int cols, int rows, const tile_sampler& at);

/// GDAL VRT text of one tile's raw float32 little-endian heights.
std::string raw_vrt(const std::string& r32_file, int width, int height);
/// GDAL VRT text of the mosaic: each tile's core window, placed in the world.
std::string mosaic_vrt(const world_extent& world, const std::vector<tile_spec>& tiles,
                       const std::function<std::string(const tile_spec&)>& tile_vrt);

/// Runner files: the commands are `<landform> tiles build <plan> --index I`.
std::string parallel_jobs(const std::string& landform, const std::string& plan_dir, int count, int threads);
std::string makefile(const std::string& landform, const std::vector<tile_spec>& tiles, int threads);
std::string slurm_script(const std::string& landform, const std::string& plan_dir, int count, int threads);
nlohmann::json kubernetes_job(int count, int threads, std::int64_t memory_mib);

/// What an earlier plan in the same folder wrote and `plan` (a new plan.json)
/// does not: tile presets and tile output folders of tiles that are gone or
/// renamed, coarse results no stage names any more, and what `previous`
/// itself lists under "stale" (left by plans before it). Paths relative to the
/// plan folder, sorted, each once. Entries that are not strings, absolute, or
/// that climb out of the folder are ignored (a damaged plan removes nothing).
std::vector<std::string> stale_plan_paths(const nlohmann::json& previous, const nlohmann::json& plan);

/// A POSIX shell word: `s` in single quotes.
std::string shell_quote(const std::string& s);

}  // namespace landform::cli
