#pragma once
/// @file
/// What a stage is: a function of (heightfield, params, seed, world) and
/// nothing else, plus the metadata that describes it.

#include <concepts>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "landform/core/coarse_grid.hpp"
#include "landform/core/error.hpp"
#include "landform/core/heightfield.hpp"
#include "landform/core/heightmap_file.hpp"
#include "landform/core/layer_set.hpp"
#include "landform/params/schema.hpp"

namespace landform {

enum class stage_category { generator, filter };

/// Whether a stage can run on a region alone.
enum class stage_scope {
  /// Each cell depends only on its world position (and the cell's input
  /// value): a region equals the same window of the whole world.
  pointwise,
  /// Needs its neighbours up to a finite distance, the stage's halo
  /// (stage_info::halo_of: perturb, thermal erosion, separable smoothing). A
  /// region build computes the region grown by the summed halos of its
  /// stages (clipped to the world) and crops it: bit-identical to the same
  /// window of the whole world.
  local,
  /// Pointwise given the world's minimum and maximum of its input (min-max
  /// normalize). A region build measures them with a stats pass over the
  /// world (stage_context::world_range), or the preset gives them.
  stats,
  /// Pointwise given the world's input at a coarse resolution (a stage's
  /// `tiling: "coarse"`): the stage runs its whole-world computation on the
  /// coarse grid (coarse_grid.hpp) and adds the interpolated change to every
  /// cell. A region build averages the world's input onto that grid with a
  /// coarse pass (stage_context::coarse), strip by strip as the stats pass.
  coarse,
  /// Needs the whole world: information travels without bound (in-place scan
  /// order, droplets, drainage). A region build of a preset with such a stage
  /// computes the whole world and crops it, so tiles still agree.
  world,
};

/// "pointwise", "local", "stats", "coarse" or "world".
std::string to_string(stage_scope scope);

/// Everything a stage may use besides its params and the heightfield.
/// A stage's input over the whole world on its coarse grid (a coarse-scope
/// stage; stage_context::coarse).
struct coarse_input {
  coarse_grid grid;
  /// grid.width() x grid.height() box means of the stage's input (its target
  /// layer when it has one), row-major; placement grid.coarse_region().
  heightfield heights;
  /// The same means of each layer the stage reads that an earlier stage wrote.
  layer_set layers;
  /// The stage's change on the grid (stage_info::coarse_change), computed
  /// once by the coarse pass when no side layer is wanted; else empty.
  std::vector<float> change;
};

struct stage_context {
  std::uint64_t seed = 0;  ///< this stage's seed (derived from the preset seed or given)
  /// The stage's place in the preset, e.g. "stages[2] (road_flatten)", for
  /// the text of errors; empty outside a pipeline.
  std::string where;
  world_extent world;         ///< where global shapes are laid out
  double height_scale = 1.0;  ///< metres (world units) for a height of 1.0; cell size is in the heightfield's placement
  int nthreads = 0;           ///< 0 = all cores, 1 = serial; results never depend on it
  /// The preset's top-level sea_level in height units, when given; a stage
  /// that uses a sea level keeps its own documented default otherwise.
  std::optional<double> sea_level;
  /// The side layers (of those the stage declares in stage_info::writes) that
  /// the caller keeps: an output, a mask or a later stage uses them. A stage
  /// computes and returns only these; outside a pipeline it is empty.
  std::vector<std::string> wanted;
  /// Reports progress within the stage, fraction in [0, 1]. Throws
  /// cancelled_error when the caller asked to stop. Never null.
  std::function<void(double)> progress = [](double) {};
  /// True once the caller asked to stop; thread-safe, cheap, polled from
  /// worker threads at least every ~100 ms of work (a stage then throws
  /// cancelled_error). Never null.
  std::function<bool()> stop_requested = [] { return false; };
  /// Records a figure of the run (e.g. hydraulic erosion's sediment budget in
  /// m^3) under `key`; the manifest lists them under the stage's `computed`
  /// entry as "report". Keys in the field's terms, units in the name
  /// (`_m3`, `_m`). Figures must not depend on the thread count. Never null.
  std::function<void(const std::string& key, double value)> report = [](const std::string&, double) {};
  /// The layers the stage declares in stage_info::reads, by name, as earlier
  /// stages wrote them (null when none did), and no others: the pipeline
  /// fills one entry per declared read. Read them with read_layer().
  std::vector<std::pair<std::string, const std::vector<float>*>> read_layers;
  /// For a stats-scope stage (stage_scope::stats) in a region build: the
  /// world's minimum and maximum of the stage's input, measured by the
  /// pipeline's stats pass; null when the field is the whole world (the
  /// stage measures it itself).
  const std::pair<float, float>* world_range = nullptr;
  /// For a coarse-scope stage (stage_scope::coarse) in a region build: the
  /// world's input averaged onto the stage's coarse grid by the pipeline's
  /// coarse pass; null when the field is the whole world (the stage averages
  /// it itself, with the same bits).
  const coarse_input* coarse = nullptr;

  /// landform::parallel_rows with this context's threads, stopping between
  /// row blocks when stop_requested() (cancelled_error).
  void parallel_rows(int rows, const std::function<void(int, int)>& fn) const;
  /// Throws cancelled_error when stop_requested(): for loops that are not
  /// row blocks (passes, faults, droplets).
  void check_stop() const;
  /// True when the caller keeps the side layer `name`.
  [[nodiscard]] bool wants(std::string_view name) const;
  /// The layer `name`, which the stage must declare in stage_info::reads
  /// (std::logic_error otherwise: it is not in read_layers); nullptr when no
  /// earlier stage wrote it.
  [[nodiscard]] const std::vector<float>* read_layer(const std::string& name) const;
};

/// A configured stage, ready to run: modifies the heightfield in place and
/// returns the side layers it computed (only those in stage_context::wanted,
/// each the heightfield's size). The pipeline checks them against
/// stage_info::writes.
using stage_fn = std::function<layer_set(heightfield&, const stage_context&)>;

/// A heightmap file a stage reads, named by one of its path parameters. The
/// pipeline loads and decodes it when the preset is built, so a missing or
/// corrupt file is a preset error before any stage runs, and the stage only
/// sees the samples.
struct stage_file {
  std::string param;  ///< the path parameter, e.g. "path"
  /// How to decode it, from the checked params (format, raw sizes).
  std::function<heightmap_request(const json& params)> request;
  /// The parameters a size mismatch is reported on.
  std::string width_param = "raw_width";
  std::string height_param = "raw_height";
  /// An empty path is allowed (nothing loaded; stage_inputs::file throws).
  bool optional = false;
  /// The file is known by its content (a generated file, e.g. a tile plan's
  /// coarse result): the canonical params keep only its file name besides
  /// its SHA-256, so where it lies does not change the preset's hash.
  bool by_content = false;
};

/// The decoded files of a configured stage, by path parameter.
struct stage_inputs {
  std::map<std::string, std::shared_ptr<const heightmap_samples>> files;
  /// The samples of the file named by `param`; std::logic_error when the
  /// stage did not declare it in stage_info::files.
  [[nodiscard]] std::shared_ptr<const heightmap_samples> file(const std::string& param) const;
};

/// Work per cell of a stage that visits each cell once with a few
/// operations (the cost of a stage that declares none), in nanoseconds.
inline constexpr double k_nominal_cell_cost_ns = 5.0;

/// A registered stage type: metadata plus a factory.
struct stage_info {
  std::string name;  ///< stable snake_case key used in presets; never renamed
  stage_category category = stage_category::generator;
  stage_scope scope = stage_scope::pointwise;
  std::string summary;      ///< one line
  std::string description;  ///< method, source document or paper, notes
  std::vector<param_spec> params;
  /// Side layers the stage can return (each can be requested as an output by
  /// name, read by a mask or by a later stage), e.g. {"erosion", "deposition"}.
  /// The pipeline asks only for those used and rejects any other.
  std::vector<std::string> writes;
  /// Those of `writes` that add to the layer an earlier stage wrote (two
  /// hydraulic stages add up) instead of replacing it.
  std::vector<std::string> accumulates;
  /// Layers the stage reads (stage_context::read_layer); each must be written
  /// by an earlier stage.
  std::vector<std::string> reads;
  /// The scope of a configured stage (some stages are pointwise in one mode
  /// and need the whole world in another, e.g. normalize).
  std::function<stage_scope(const json& params)> scope_of;
  /// World cells per coarse cell of a configured coarse-scope stage
  /// (stage_scope::coarse; its params' coarse_factor_of()); 0 otherwise.
  std::function<int(const json& params)> coarse_factor_of = [](const json&) { return 0; };
  /// The halo of a configured stage, in cells: how far from a cell the input
  /// cells its result depends on can lie (0 = pointwise; -1 = the whole
  /// world). A region grown by it is exact in the region.
  std::function<int(const json& params)> halo_of;
  /// The halo as a rule of the parameters, for the docs (e.g. "ceil(magnitude) + 1").
  std::string halo_rule;
  /// Rules that involve several parameters; appends issues (path = the key).
  std::function<void(const json& params, std::vector<preset_issue>& issues)> check_rules;
  /// The parameter of a configured stage whose value needs the preset's
  /// top-level `sea_level` (e.g. stream_power_erosion's `base_level: "sea"`),
  /// or "" when it needs none; null = never. The pipeline reports a preset
  /// without `sea_level` at that parameter.
  std::function<std::string(const json& params)> sea_level_param;
  /// The canonical form of a checked params object: every parameter present.
  std::function<json(const json& params)> canonical;
  /// Warnings about a configured stage that is valid but likely not what the
  /// author meant (e.g. droplet blocks whose overlap is shorter than a
  /// droplet's path): (key, message) pairs from checked params and the
  /// preset's grid (cell size in metres, height scale in metres per unit).
  /// validate and build print them; they never stop a build. Null = none.
  std::function<std::vector<std::pair<std::string, std::string>>(const json& params, double cell_size,
                                                                 double height_scale)>
      advise;
  /// Problems of a configured stage that only the preset's world shows
  /// (e.g. a coarse grid too small, a coarse_result of another size, road
  /// points outside the world): (key, message) pairs from checked params,
  /// the world, its cell size in metres and the decoded
  /// files, reported as preset errors before anything runs. Null = none.
  std::function<std::vector<std::pair<std::string, std::string>>(const json& params, const world_extent& world,
                                                                 double cell_size, const stage_inputs& inputs)>
      check_world;
  /// For a stage that needs the whole world in its default configuration:
  /// the parameter and value that make it tile without the world (e.g.
  /// {"tiling", "overlap"}). `landform tiles plan` names it when the stage
  /// makes every tile compute the world. Empty = none.
  std::pair<std::string, std::string> tile_mode;
  /// Files the stage reads (loaded and decoded by the pipeline).
  std::vector<stage_file> files;
  /// For a coarse-scope stage: the change of every coarse cell (height
  /// units, in.heights' size) that it interpolates onto the cells, from
  /// checked params and its coarse input; `landform tiles plan` computes it
  /// once for all tiles. Null = none.
  std::function<std::vector<float>(const json& params, const coarse_input& in, const stage_context& ctx)> coarse_change;
  /// Estimated work of the stage on one core, in nanoseconds, from checked
  /// params and the cells it computes: cells x iterations x a per-cell cost
  /// measured on a 2020s x86 core. Rough (a factor of a few either way); it
  /// only has to tell seconds from hours (pipeline::estimated_seconds).
  std::function<double(const json& params, double cells)> cost = [](const json&, double cells) {
    return k_nominal_cell_cost_ns * cells;
  };
  /// Builds the runnable stage from checked params and its decoded files.
  std::function<stage_fn(const json& params, const stage_inputs& inputs)> create;
};

/// Describes a stage whose params struct `P` provides
/// `static const param_schema<P>& schema()` and, optionally,
/// `void check(std::vector<std::pair<std::string, std::string>>&) const` for
/// rules across parameters. `apply` does the work and returns either nothing
/// or the side layers it computed (a layer_set).
template <class P, class R>
requires std::same_as<R, void> || std::same_as<R, layer_set> stage_info
make_stage_info(std::string name, stage_category category, stage_scope scope, std::string summary,
                std::string description, R (*apply)(heightfield&, const P&, const stage_context&)) {
  stage_info info;
  info.name = std::move(name);
  info.category = category;
  info.scope = scope;
  info.summary = std::move(summary);
  info.description = std::move(description);
  info.params = P::schema().specs();
  info.scope_of = [scope](const json& params) {
    if constexpr (requires(const P& p) {
                    { p.scope() } -> std::same_as<stage_scope>;
                  }) {
      (void)scope;
      return P::schema().parse(params).scope();
    } else {
      (void)params;
      return scope;
    }
  };
  if constexpr (requires(const P& p) {
                  { p.coarse_factor_of() } -> std::same_as<int>;
                }) {
    info.coarse_factor_of = [](const json& params) { return P::schema().parse(params).coarse_factor_of(); };
  }
  info.halo_of = [scope](const json& params) {
    if constexpr (requires(const P& p) {
                    { p.halo() } -> std::same_as<int>;
                  }) {
      (void)scope;
      return P::schema().parse(params).halo();
    } else {
      (void)params;
      return scope == stage_scope::pointwise ? 0 : -1;
    }
  };
  info.halo_rule = scope == stage_scope::pointwise ? "0" : "whole world";
  info.check_rules = [](const json& params, std::vector<preset_issue>& issues) {
    if constexpr (has_rules<P>) {
      std::vector<std::pair<std::string, std::string>> problems;
      P::schema().parse(params).check(problems);
      for (auto& [key, message] : problems) issues.push_back({key, message});
    } else {
      (void)params;
      (void)issues;
    }
  };
  info.canonical = [](const json& params) { return P::schema().to_json(P::schema().parse(params)); };
  info.create = [apply](const json& params, const stage_inputs&) -> stage_fn {
    P p = P::schema().parse(params);
    return [apply, p](heightfield& h, const stage_context& ctx) -> layer_set {
      if constexpr (std::same_as<R, void>) {
        apply(h, p, ctx);
        return {};
      } else {
        return apply(h, p, ctx);
      }
    };
  };
  return info;
}

/// "generator" or "filter".
std::string to_string(stage_category category);

/// A stage_info::sea_level_param rule: the parameter `key` needs the preset's
/// sea_level when its (canonical) value is the string `value`, e.g.
/// `sea_level_when("base_level", "sea")`.
std::function<std::string(const json& params)> sea_level_when(std::string key, std::string value);

/// Sets `info.cost` from the typed params: `ns(params, cells)` estimates
/// the stage's work in nanoseconds on one core (see stage_info::cost).
template <class P, class F>
void set_cost(stage_info& info, F ns) {
  info.cost = [ns](const json& params, double cells) { return ns(P::schema().parse(params), cells); };
}

}  // namespace landform
