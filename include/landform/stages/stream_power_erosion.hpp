#pragma once
/// @file
/// `stream_power_erosion`: landscape evolution by uplift, stream-power fluvial
/// incision and hillslope diffusion (Braun and Willett 2013, Yuan et al. 2019),
/// in physical units.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "landform/core/heightmap_file.hpp"
#include "landform/derive/flow_routing.hpp"
#include "landform/stages/erosion_base_level.hpp"
#include "landform/stages/stage.hpp"

namespace landform {

/// Parameters of the `stream_power_erosion` filter. Heights are metres
/// (height units x `height_scale`), distances metres (`cell_size`), time years.
struct stream_power_erosion_params {
  double uplift = 1.0;            ///< U, mm/yr, 0 to 100 (rock uplift rate of interior cells)
  std::string uplift_layer;       ///< layer multiplying U cell by cell; empty = uniform
  double erodibility = 2e-5;      ///< K, yr^-1 m^(1-2m), > 0 (n = 1; in general m^(1 - 2m) / yr / m^(1-n))
  std::string erodibility_layer;  ///< layer multiplying K cell by cell; empty = uniform
  double m = 0.45;                ///< drainage-area exponent, 0 to 2
  double n = 1.0;                 ///< slope exponent, 0.5 to 4 (1: direct solve, else Newton)
  double diffusivity = 0.01;      ///< D, m^2/yr, 0 to 100 (hillslope creep)
  /// m, 0 to 1000: channel width w of Pelletier's (2010) unit contributing
  /// area, so that incision does not depend on cell_size (at cell_size = w
  /// the area is the D8/MFD area itself, so K keeps its per-cell meaning at
  /// that cell size); 0 = the drainage area per cell at every cell size
  double channel_width = 25.0;
  double hillslope_length = 1500.0;  ///< m, 1 to 1e5: specific catchment area at channel heads (with channel_width)
  double time_step = 1e4;            ///< years, > 0
  double duration = 1e6;             ///< years, > 0; steps = ceil(duration / time_step)
  routing_method routing = routing_method::d8;  ///< how drainage area is accumulated
  double deposition = 0.0;  ///< G, dimensionless, 0 to 10 (Yuan et al. 2019); 0 = detachment-limited
  /// edges, or sea (needs the preset's sea_level): see apply_stream_power_erosion()
  erosion_base_level base_level = erosion_base_level::edges;
  /// world: the model runs on the whole world at full resolution (a region
  /// build computes the world); coarse: on the world averaged onto a grid of
  /// coarse_factor x coarse_factor cells, its change interpolated back onto
  /// every cell (apply_stream_power_erosion_coarse()).
  enum class tiling_kind { world, coarse };
  tiling_kind tiling = tiling_kind::world;
  int coarse_factor = 8;  ///< world cells per coarse cell along each axis (tiling coarse), 2 to 1024
  /// Tiling coarse: an r32 file of the coarse grid's change (height units,
  /// row-major, as `landform tiles plan` writes it once for every tile);
  /// empty = run the model. Loaded by the pipeline (stage_info::files).
  std::string coarse_result;
  int coarse_result_width = 0;  ///< coarse cells per row of coarse_result; 0 = square

  static const param_schema<stream_power_erosion_params>& schema();
  /// world for tiling `world`; coarse (pointwise given the coarse pass) for
  /// `coarse`; pointwise when the coarse_result is given.
  [[nodiscard]] stage_scope scope() const {
    if (tiling == tiling_kind::world) return stage_scope::world;
    return coarse_result.empty() ? stage_scope::coarse : stage_scope::pointwise;
  }
  /// -1 (the whole world) for tiling `world`; 0 for `coarse`.
  [[nodiscard]] int halo() const { return tiling == tiling_kind::coarse ? 0 : -1; }
  /// coarse_factor when the coarse pass is needed (scope() is coarse), else 0
  /// (stage_info::coarse_factor_of).
  [[nodiscard]] int coarse_factor_of() const { return scope() == stage_scope::coarse ? coarse_factor : 0; }
  /// Rules across parameters: time_step <= duration, at most 10^7 steps;
  /// coarse_result only with tiling coarse; channel_width 0 or >= 1 m.
  void check(std::vector<std::pair<std::string, std::string>>& problems) const;
};

/// Optional per-cell maps of a run, each width x height, row-major, of the
/// last time step.
struct stream_power_maps {
  std::vector<float> drainage_area;  ///< m^2 (>= cell_size^2)
  std::vector<float> erosion_rate;   ///< mm/yr: uplift minus the rate of height change (0 on the border and the sea)
  std::vector<float> uplift;         ///< mm/yr: the uplift rate applied (0 on the border and the sea)
};

/// The evolving landscape of one run, in metres and years, advanced step by
/// step. apply_stream_power_erosion() drives it; tests and benchmarks use it
/// directly (steady state, one-step timing).
///
/// Each step(dt), in this order:
/// 1. depressions and routing (route_depression_free_d8()): D8
///    steepest-descent receivers (rows in parallel) and the stack of Braun
///    and Willett (2013); the lakes of interior pits (basin nodes below their
///    spill level, found on the graph of basins) are filled by
///    Priority-Flood+epsilon (Barnes et al. 2014; instant lake infill) and
///    rerouted, so every cell drains to the map edge;
/// 2. drainage area A along the receivers
///    (`d8`) or by multiple flow direction (`mfd`, Freeman 1991, p = 1.1);
///    with `mfd` the incision still follows the steepest receiver, as
///    fastscapelib does;
/// 3. uplift: h += U dt on interior cells;
/// 4. incision: dh/dt = -K A^m S^n, implicit in time, solved node by node in
///    stack order (base level first): for n = 1 directly, h_i = (h_i + F h_r) /
///    (1 + F) with F = K dt A^m / L (Braun and Willett 2013, eq. 21), for
///    n != 1 by safeguarded Newton iterations on h_i - h_i* + F (h_i - h_r)^n = 0
///    with F = K dt A^m / L^n (their eq. 24). Serial;
/// 5. deposition (G > 0): Yuan et al. (2019, "A new efficient method to solve
///    the stream power law model taking into account sediment deposition",
///    JGR Earth Surface 124) add G / A * Qs, Qs the net eroded volume rate
///    from upstream (including the cell): 5 fixed lagged iterations of the
///    solve of step 4, each with Qs from the previous one;
/// 6. diffusion: dh/dt = D laplacian(h), implicit, split into a row pass and a
///    column pass (each an exact tridiagonal solve, unconditionally stable);
///    rows (then blocks of columns) in parallel, each solved in one fixed order.
/// The border cells, and the base nodes of set_base_nodes() (the sea), are
/// the base level: fixed at their input heights throughout (neither uplifted,
/// eroded nor diffused; they receive flow and pass none on, as fastscapelib's
/// fixed-value nodes).
class stream_power_model {
 public:
  /// @param heights      width x height metres, row-major (finite)
  /// @param uplift       width x height uplift rates in m/yr (border ignored)
  /// @param erodibility  width x height K values
  /// @throws std::invalid_argument for sizes that do not match or cell_size <= 0
  stream_power_model(int width, int height, double cell_size, std::vector<double> heights, std::vector<double> uplift,
                     std::vector<double> erodibility, const stream_power_erosion_params& p, int nthreads);

  /// Advances by dt years (> 0).
  /// @throws cancelled_error when the stop callback (set_stop) returns true;
  /// polled between the step's phases and every 65536 nodes of its serial
  /// loops (a few ms), so the model is then mid-step.
  void step(double dt);

  /// Marks nodes besides the border as base level (width x height flags,
  /// row-major, nonzero = base; e.g. the sea of find_ocean(), whose heights
  /// the caller sets to sea level): from the next step on they are outlets of
  /// the routing and keep their heights. Empty = the border only.
  /// @throws std::invalid_argument when the size is not width x height (or 0)
  void set_base_nodes(std::vector<std::uint8_t> base);

  /// A thread-safe callback polled during step(); empty: never stop.
  void set_stop(std::function<bool()> stop) { m_stop = std::move(stop); }

  /// Fills closed depressions left by the last diffusion step (Priority-Flood+epsilon).
  void fill_depressions();

  [[nodiscard]] int width() const { return m_width; }
  [[nodiscard]] int height() const { return m_height; }
  [[nodiscard]] double cell_size() const { return m_cell_size; }
  /// Heights in metres.
  [[nodiscard]] const std::vector<double>& elevation() const { return m_z; }
  /// Drainage area of the last step, m^2.
  [[nodiscard]] const std::vector<double>& drainage_area() const { return m_area; }
  /// Receivers and stack of the last step.
  [[nodiscard]] const flow_graph& graph() const { return m_graph; }
  /// Uplift rates, m/yr.
  [[nodiscard]] const std::vector<double>& uplift() const { return m_uplift; }
  /// Heights at the start of the last step (after depression filling), metres.
  [[nodiscard]] const std::vector<double>& previous_elevation() const { return m_previous; }

 private:
  /// The area in K A^m S^n: the drainage area, or with channel_width its
  /// per-contour-width form (stream_power_erosion.cpp, Pelletier 2010).
  [[nodiscard]] double incision_area(double area) const;
  /// m^2: where incision_area() and the hybrid MFD start channels; 0 without channel_width.
  [[nodiscard]] double channel_head_area() const;
  void solve_incision(double dt);
  void check_stop() const;
  // check_stop() every 65536 calls, counting in `count`.
  void poll_stop(std::size_t& count) const {
    if ((++count & 0xffffU) == 0) check_stop();
  }
  void diffuse(double dt);
  void diffuse_with_base(double dt);
  [[nodiscard]] const std::uint8_t* base_nodes() const { return m_base.empty() ? nullptr : m_base.data(); }

  int m_width = 0, m_height = 0;
  double m_cell_size = 1.0;
  stream_power_erosion_params m_p;
  int m_nthreads = 1;
  std::function<bool()> m_stop;
  // m_start: h* = h + U dt, the solve's start (m_z is overwritten by it).
  // Every buffer keeps its storage from step to step.
  std::vector<double> m_z, m_uplift, m_k, m_area, m_factor, m_previous, m_start, m_scratch, m_scratch_cp;
  std::vector<std::uint8_t> m_base;
  flow_graph m_graph;
};

/// Evolves a landscape under uplift, river incision and hillslope creep:
/// dh/dt = U - K A^m S^n + D laplacian(h) (+ G / A Qs), so that noise becomes
/// dendritic, fully drained valley networks with concave river profiles.
///
/// Method and order of operations: stream_power_model. Units: h in metres
/// (height units x ctx.height_scale), x in metres (the heightfield's
/// cell_size), t in years, U in mm/yr, K in yr^-1 m^(1-2m) (for n = 1), D in
/// m^2/yr. The same preset at another resolution over the same world gives the
/// same landscape up to the resolution of the channels when `channel_width`
/// is set (incision from the area per unit contour width, Pelletier 2010);
/// with the per-cell D8 area (channel_width 0) finer grids keep higher hills.
///
/// Parameters, visually:
/// - `uplift` (with `uplift_layer`): raises the land; steady-state relief
///   scales with U / K. A noise layer as `uplift_layer` raises ranges
///   where it is high (Cordonnier et al. 2016).
/// - `erodibility` K: how fast rivers cut; higher K gives lower relief and
///   reaches steady state sooner (response time ~ 1 / (K A^m)).
/// - `m`, `n`: the concavity m / n of river profiles (0.35 to 0.6 in nature);
///   larger m / n gives steeper headwaters and flatter trunk valleys.
/// - `diffusivity` D: rounds ridges and widens valleys; 0 gives knife-edge
///   ridges, 0.01 to 0.1 m^2/yr soil-mantled hills at 10 to 100 m cells.
/// - `channel_width`, `hillslope_length`: measure the incision area per unit
///   contour width, so 256^2 and 1024^2 of one world reach the same relief
///   (mean elevation within 3 %); 0 keeps the per-cell area (fastscapelib's
///   convention), whose relief grows about 20 % per halving of the cell.
/// - `time_step`, `duration`: duration x U is the rock uplifted; the implicit
///   solvers are stable for any step, but steps much longer than the response
///   time smooth the transient.
/// - `routing`: `d8` gives crisp single-thread valleys; `mfd` spreads area on
///   hillslopes and divergent ground (smoother, more natural hillslopes); with
///   channel_width, channels below the heads route by D8 (Pelletier 2010).
/// - `deposition` G: 0 is detachment-limited incision; around 1 valleys fill
///   with sediment and flat floors and fans form where rivers leave mountains.
/// - `base_level`: `edges` erodes down to the map's border (the sea floor of
///   an island is uplifted and incised like land); `sea` makes the sea the
///   base level, so rivers end at the coast.
///
/// Base level `sea`: the sea is find_ocean() of the input at ctx.sea_level
/// (cells below it, 8-connected to the border), computed once. Sea cells are
/// base nodes held fixed: in the model they stand at sea level (so rivers
/// and hillslope creep grade to the coast, not to the sea floor), receive
/// flow, and are neither uplifted, eroded nor diffused; the output keeps
/// their input heights bit for bit. Land border cells stay base level too.
/// Every land cell ends at or above sea level (a float at or above
/// ctx.sea_level; inland basins below sea level fill to their spill point,
/// as lakes do in this model), so the sea after the stage is the sea before
/// it. Without any sea cell the result is bit-identical to `edges`.
///
/// @pre finite heights; ctx.height_scale > 0; the heightfield's cell size > 0;
/// ctx.sea_level given when p.base_level is `sea`.
/// @post heights finite; border cells unchanged (and sea cells, for `sea`);
/// no closed depression (every cell drains to the border, or the sea, along
/// non-increasing heights).
/// @throws std::invalid_argument when `uplift_layer` or `erodibility_layer`
///         names a layer that no earlier stage wrote (or there are no layers),
///         or when base_level is `sea` and ctx.sea_level is not given.
///
/// Determinism and threading: rows run in parallel where cells are
/// independent (receivers, basin labels, per-cell factors, the diffusion row
/// and column solves); the lakes' flood runs in fixed shards of touching
/// lakes, and the stack, drainage area and incision solve in fixed parts of
/// whole drainage trees, each equal to the serial walk; only the Dijkstra over
/// the basin graph is serial. The result is bit-identical for every thread
/// count. Scope: world (needs the whole map).
/// Tiling `coarse`: apply_stream_power_erosion() on the world's input averaged
/// onto the coarse grid (coarse_grid.hpp: box means of coarse_factor^2 cells,
/// coarse cell size = coarse_factor x cell_size), then the change of every
/// coarse cell (and each wanted side layer) interpolated by a cubic B-spline onto
/// every cell of `h` and added: valleys and ranges at the coarse resolution,
/// the input's finer detail kept on top. Each cell's result depends only on
/// its input and its world position, so any region equals the window of the
/// whole world bit for bit, with memory of the region plus the coarse grid.
/// With base_level `sea`, cells whose input is below ctx.sea_level keep it and
/// land cells end at or above it.
///
/// The coarse input is ctx.coarse (a region build's coarse pass), or, when
/// null, the box means of `h`, which must then be the whole world.
/// Unlike full resolution, closed depressions finer than a coarse cell can
/// remain (those of the input's detail); a droplet stage after it drains them.
/// @throws std::invalid_argument as apply_stream_power_erosion(); std::logic_error
/// when ctx.coarse is null and `h` is not the whole world.
/// `result`: the coarse change from `coarse_result` (then neither the coarse
/// input nor the model is needed); null = compute it.
/// @throws std::domain_error when `result` is not the coarse grid's size;
/// std::invalid_argument also when side layers are wanted with a given result.
layer_set apply_stream_power_erosion_coarse(heightfield& h, const stream_power_erosion_params& p,
                                            const stage_context& ctx, const heightmap_samples* result = nullptr);

/// The change of every coarse cell (height units, in.heights' size) that
/// tiling coarse interpolates: the model run on `in` (stage_info::coarse_change,
/// what `landform tiles plan` writes as coarse_result); `maps` as in
/// apply_stream_power_erosion(), on the coarse grid.
std::vector<float> stream_power_coarse_change(const coarse_input& in, const stream_power_erosion_params& p,
                                              const stage_context& ctx, stream_power_maps* maps = nullptr);

void apply_stream_power_erosion(heightfield& h, const stream_power_erosion_params& p, const stage_context& ctx,
                                stream_power_maps* maps = nullptr);

stage_info stream_power_erosion_stage_info();

}  // namespace landform
