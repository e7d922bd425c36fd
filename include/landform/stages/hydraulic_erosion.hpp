#pragma once
/// @file
/// `hydraulic_erosion`: particle (droplet) hydraulic erosion after H. T. Beyer
/// 2015.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "landform/core/overlap_blocks.hpp"
#include "landform/stages/erosion_base_level.hpp"
#include "landform/stages/stage.hpp"

namespace landform {

/// Parameters of the `hydraulic_erosion` filter. Names and defaults follow
/// Beyer's droplet model as published in S. Lague's widely used port.
/// Units: the per-step values (rates, lifetime, slope floor, gravity) are
/// Beyer's for a reference grid of `reference_cell_size` metres per cell and
/// `reference_height_scale` metres per height unit (the default preset's
/// 4 m and 500 m). With `units` = `world` they are converted to the same
/// behaviour per metre on the preset's own grid (see
/// hydraulic_erosion_grid_params()), so the same world at another resolution
/// or relief erodes alike; with `cells` they are used per step as given.
struct hydraulic_erosion_params {
  enum class spawn_kind { uniform, high_ground };
  enum class unit_kind { world, cells };
  double droplets_per_cell = 1.0;          ///< droplets / cell, 0 to 1000; used when droplet_count is 0
  int droplet_count = 0;                   ///< droplets on the map, 0 to 10^9; > 0 overrides droplets_per_cell
  spawn_kind spawn = spawn_kind::uniform;  ///< where droplets start
  double inertia = 0.05;                   ///< 0 to 0.99: share of the previous direction kept per step
  double sediment_capacity_factor = 4.0;   ///< capacity per (slope x speed x water), > 0
  double min_sediment_capacity = 0.01;     ///< height units: capacity floor, 0 to 1
  double min_slope = 0.0;                  ///< height units per cell: slope floor in the capacity (Beyer's p_minSlope)
  double erode_speed = 0.3;                ///< 0 to 1: share of the free capacity eroded per step
  double deposit_speed = 0.3;              ///< 0 to 1: share of the surplus sediment deposited per step
  double evaporate_speed = 0.01;           ///< 0 to 1: share of the water evaporated per step
  double gravity = 4.0;                    ///< speed^2 gained per height unit of descent, >= 0
  int max_lifetime = 30;                   ///< steps, 1 to 1000
  int erosion_radius = 3;                  ///< cells, 1 to 16
  double initial_water = 1.0;              ///< water volume of a new droplet, > 0
  double initial_speed = 1.0;              ///< cells per step of a new droplet, >= 0
  /// `edges`: droplets end at the map's edge only; `sea`: also where they
  /// reach the sea (find_ocean() of the input at the preset's sea_level).
  erosion_base_level base_level = erosion_base_level::edges;
  unit_kind units = unit_kind::world;     ///< world: per metre on any grid; cells: per step as given
  double reference_cell_size = 4.0;       ///< metres per cell the per-step values hold for, > 0
  double reference_height_scale = 500.0;  ///< metres per height unit the values hold for, > 0
  /// `world`: droplets run over the whole map (a region build computes the
  /// world); `overlap`: over world-aligned overlapping blocks, cross-faded
  /// (see run_overlap_blocks()), so a region or tile computes only the
  /// blocks it touches.
  enum class tiling_kind { world, overlap };
  tiling_kind tiling = tiling_kind::world;
  int block_size = 256;    ///< cells per side of a block's core (tiling overlap), 16 to 65536
  int block_overlap = 32;  ///< cells each block is grown by and cross-faded over (tiling overlap), 0 to 8192

  static const param_schema<hydraulic_erosion_params>& schema();
  /// world for tiling `world`; local (halo block_size + 2 block_overlap) for `overlap`.
  [[nodiscard]] stage_scope scope() const;
  /// -1 (the whole world) for tiling `world`, block_size + 2 x block_overlap for `overlap`.
  [[nodiscard]] int halo() const;
  /// The block grid of tiling `overlap`.
  [[nodiscard]] overlap_blocks overlap_grid() const;
  /// block_size >= 2 x block_overlap; tiling `overlap` takes its rain from
  /// droplets_per_cell (a droplet_count has no share per block).
  void check(std::vector<std::pair<std::string, std::string>>& problems) const;

  /// Number of droplets for a map of `cells` cells.
  [[nodiscard]] std::uint64_t total_droplets(std::size_t cells) const;
  /// Droplets per cell on a map of `cells` cells: droplets_per_cell, or
  /// droplet_count / cells when a count is given (the density the edge
  /// margin rains at too).
  [[nodiscard]] double droplet_density(std::size_t cells) const;
};

/// What a run did, in height units x cells (sums of heights).
struct hydraulic_erosion_result {
  /// Droplets simulated. apply_hydraulic_erosion() grows the map by a
  /// margin (see apply_hydraulic_erosion's Edges) on each side while the droplets
  /// run (heights continued across the edge) and rains on it as densely as
  /// on the map, so this counts the margin's droplets too.
  std::uint64_t droplets = 0;
  std::uint64_t steps = 0;  ///< droplet steps simulated (moves of one cell), the margin's included
  double eroded = 0.0;      ///< material taken from the map's cells (not the margin's)
  double deposited = 0.0;   ///< material put on the map's cells (not the margin's)
  /// What the map lost: `eroded - deposited`. The sum of heights changes by
  /// minus this amount, up to float32 rounding. It is the outflow below,
  /// plus the droplets' float32 rounding of their loads.
  double sediment_lost = 0.0;
  /// The part of sediment_lost that crossed the map's edge, net: carried off
  /// by droplets that left the map or died on its margin, less what
  /// droplets eroded on the margin brought in (and, with base level `sea`,
  /// what they carried into the sea). run_droplet() has no margin: there it
  /// is what the droplet carried off the edge or into the sea.
  double sediment_outflow = 0.0;
};

/// Optional per-cell maps of a run, each width x height, row-major like the
/// heightfield. Vectors are resized and zeroed by the run.
struct hydraulic_erosion_maps {
  std::vector<float> erosion;     ///< height units taken from each cell
  std::vector<float> deposition;  ///< height units put on each cell
  std::vector<float> flow;        ///< droplet steps starting at each cell (nearest cell)
};

/// The parameters in the grid's own units, as the droplet kernel uses them:
/// per step of one cell, heights in height units. With p.units = `cells`
/// (or a grid equal to the reference) they are p itself. Otherwise, with
/// c = cell_size / reference_cell_size and r = height_scale /
/// reference_height_scale:
/// - a droplet lives the same distance in metres: max_lifetime / c steps
///   (rounded, at least 1);
/// - rates per step become the same rates per metre: erode_speed e becomes
///   1 - (1 - e)^c, as do deposit_speed and evaporate_speed; inertia i
///   becomes i^c;
/// - the capacity depends on the slope in metres per metre, not on the drop
///   per cell: sediment_capacity_factor / c; min_slope x c / r;
///   min_sediment_capacity, in metres, / r;
/// - speed grows with the drop in metres: gravity x r.
/// The brush radius stays in cells (the width of the finest gullies). The
/// eroded depth in metres per cell then stays the same across resolutions of
/// one world (each cell is crossed by 1/c times as many droplet steps, each
/// eroding c times as much); the cost per cell grows as 1/c.
/// @throws std::invalid_argument when cell_size or height_scale is not
///         positive and finite.
hydraulic_erosion_params hydraulic_erosion_grid_params(const hydraulic_erosion_params& p, double cell_size,
                                                       double height_scale);

/// Carves gullies and fills valleys by simulating water droplets.
///
/// Method: H. T. Beyer, "Implementation of a method for hydraulic erosion"
/// (bachelor's thesis, TU München, 2015), the particle erosion that seed
/// document 003 describes in outline. Each droplet has a position, a unit
/// direction, speed, water and sediment. Per step: height and gradient come
/// from bilinear interpolation of the four cells around the position; the
/// direction becomes `dir * inertia - gradient * (1 - inertia)`, normalised
/// (a zero vector stops the droplet: flat ground); the droplet moves one cell
/// and stops when it would leave [0, width - 1) x [0, height - 1). With `dh`
/// the height change of the move, the capacity is
/// `max(max(-dh, min_slope) * speed * water * sediment_capacity_factor,
/// min_sediment_capacity)`. Moving uphill it deposits `min(dh, sediment)`
/// (filling the pit it climbs out of); carrying more than the capacity it
/// deposits `deposit_speed` of the surplus, bilinearly; both on the four
/// cells around its old position, never raising a cell above the higher of
/// the droplet's old and new heights (the pit fill settles into the lowest
/// corners first, to one level). Otherwise it erodes `min(erode_speed * (capacity - sediment),
/// -dh)` over Beyer's disc: weights `max(0, erosion_radius - distance)`
/// summing to 1, centred on the droplet's position (to 1/4 cell, from
/// precomputed stencils), never cutting a cell below the height the droplet
/// moves to (a cell at or below it gives nothing). Then `speed = sqrt(max(0,
/// speed^2 - dh * gravity))` and the water shrinks by `evaporate_speed`.
/// After `max_lifetime` steps, or on flat ground, the droplet dies and lays
/// the sediment it still carries on its disc (weights as for erosion, each
/// cell at most up to the disc's highest cell and its own highest neighbour),
/// and what those bounds refuse on the 4 x 4 cells around it, settled like
/// water (lowest first, to one level, at most the map's starting maximum);
/// a droplet whose next move would leave the map erodes that last step
/// toward the height continued along its gradient (no lower than its cell's
/// lowest corner) and carries its sediment off the map (`sediment_outflow`),
/// the only material the map loses.
///
/// Units: `p` is first converted to the grid with
/// hydraulic_erosion_grid_params() (cell size from the heightfield's
/// placement, ctx.height_scale); everything below is in the grid's units.
///
/// Base level `sea`: the sea is find_ocean() of the input at ctx.sea_level
/// (cells below it connected to the map's border), fixed for the whole
/// stage. A droplet whose next move would end on a sea cell (the cell
/// nearest to its new position) stops there like one leaving the map: its
/// sediment leaves with it (`sediment_outflow`), so the sea floor is not
/// filled by the land's sediment and gullies end at the coast. Only the
/// brush of droplets on the shore reaches sea cells (within
/// `erosion_radius`).
///
/// Bounds (the model's, not a clamp): every cut stops at an interpolation of
/// the map and every deposit at one or at an existing cell, so no cell ever
/// sinks below the lowest or rises above the highest height the stage
/// started from, whatever the parameters (up to float32 rounding of the
/// interpolation).
///
/// Edge policy: the whole map erodes, its outermost cells included; near the
/// edge the part of the disc outside the map is reflected onto the cells
/// mirrored about the edge (clipped, the outer rows eroded less and stood as
/// a rim; renormalised, the disc would dig grooves along the edge). The
/// cut-off floor keeps channels that run off the map from deepening without
/// bound.
///
/// Parameters, visually:
/// - `droplets_per_cell` / `droplet_count`: how much rain: 0.3 to 1 etches
///   gullies, 2 to 10 cuts deep valleys and wide alluvial fans.
/// - `spawn`: `uniform` rain everywhere, or `high_ground`, where a droplet
///   starts at a point accepted with probability proportional to its
///   normalised height (seed document 003's re-spawn "with a bias towards
///   high areas"): more carving on peaks and ridges, calmer lowlands.
/// - `inertia`: 0 to 0.1 gives branching dendritic gullies; 0.3 and more
///   gives long straight channels that ignore small features.
/// - `sediment_capacity_factor`: how much a fast droplet carries; higher
///   carves deeper (2 to 8).
/// - `min_sediment_capacity`, `min_slope`: erosion on gentle ground; keep
///   them small, or flat areas get scoured.
/// - `erode_speed` / `deposit_speed`: how eagerly droplets pick up and drop
///   material; low deposit_speed carries sediment far (long fans), high
///   deposit_speed drops it at the foot of slopes. 0.1 to 0.5.
/// - `evaporate_speed`: higher shortens the droplets' useful life.
/// - `gravity`: acceleration on slopes; higher makes droplets faster and more
///   erosive on steep ground (1 to 10).
/// - `max_lifetime`: path length in cells; also the tile size of the parallel
///   scheme (longer lives: fewer, larger tiles). 20 to 80. Short lives lay
///   their last sediment on the slopes (softer hillsides); long ones carry
///   it down to flat valley floors and fans (60 and more at 1 droplet per
///   cell; each step costs the same, so 60 takes twice as long as 30).
/// - `erosion_radius`: width of the carved channels; 2 to 5 gives natural
///   gullies, 1 gives thin scratch-like grooves.
/// - `initial_water`, `initial_speed`: scale a fresh droplet's carrying power.
///
/// Edges: the droplets run on the map grown on each side by max_lifetime +
/// erosion_radius cells (every droplet that could change a cell of the map
/// on a larger world), but no more than the larger of an eighth of the map's
/// shorter side and 2 x erosion_radius + 2, heights continued across each edge
/// by odd reflection (2 h(edge) - h(mirror), so slopes run on), at most
/// the map's highest cell; below its lowest, falling no faster than the
/// edge's own slope and at most one relief below; then the map is cropped
/// back. Droplets from the margin
/// enter across the edge and droplets that leave go on eroding beyond it,
/// as on a larger world, so the outer cells erode like the rest (without it
/// the outer column eroded 0.55 to 0.63 times as much and stood as a rim).
/// Cost: the margin's droplets, (1 + 2 x margin / side)^2 times the map's
/// (1.27 at 512^2 with the defaults, 1.03 at 4096^2, at most 1.56 from 64
/// cells a side; on smaller maps the disc-sized margin dwarfs the map).
///
/// @pre the heightfield holds finite values.
/// @post heights stay finite, at most the highest they started from and at
/// least one relief (max - min) below the lowest: where the map's edge is
/// its lowest ground, the edge is cut like the ground inside, as a larger
/// world's would be (river-valleys at the preset's rain: 264 of 262144
/// cells end below the lowest, by at most 1.1 % of relief); no cell
/// outside the map is read or written; the sum of heights changes by
/// `-sediment_lost` up to float32 rounding.
///
/// Determinism and threading: droplet i starts at a point hashed from (seed,
/// i). Droplets run in rounds; each round lays a grid of square tiles (offset
/// hashed from (seed, round)) of side twice a droplet's reach (the cells it
/// can read or write from its start cell: `max_lifetime` + the disc's extent
/// + 3), assigns each droplet to the tile of its start cell, and runs the
/// tiles in four colour phases (2 x 2 pattern); tiles of one colour never
/// touch the same cells, so they run in parallel, each its droplets in index
/// order. The result is bit-identical for every thread count (see
/// docs/erosion.md). Scope: world.
///
/// @throws std::invalid_argument when p.base_level is `sea` and
///         ctx.sea_level is not given.
hydraulic_erosion_result apply_hydraulic_erosion(heightfield& h, const hydraulic_erosion_params& p,
                                                 const stage_context& ctx, hydraulic_erosion_maps* maps = nullptr);

/// One droplet starting at (x, y) (cells; x in [0, width - 1), y in
/// [0, height - 1)), exactly as the stage runs it, with `p` taken in the
/// grid's units (as hydraulic_erosion_grid_params() returns them). For tests
/// and tools.
hydraulic_erosion_result run_droplet(heightfield& h, const hydraulic_erosion_params& p, float x, float y,
                                     hydraulic_erosion_maps* maps = nullptr);

stage_info hydraulic_erosion_stage_info();

}  // namespace landform
