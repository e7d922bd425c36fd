#pragma once
/// @file
/// A validated preset, ready to run.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "landform/core/heightfield.hpp"
#include "landform/io/png_encode.hpp"
#include "landform/pipeline/composition.hpp"
#include "landform/pipeline/registry.hpp"
#include "landform/stages/stage.hpp"

namespace landform {

struct output_kind;
class stage_cache;

/// One requested file: which map, how it is encoded, where it goes.
struct output_spec {
  std::string map;     ///< an output kind ("height", "normal", ...) or a stage's side layer
  std::string format;  ///< one of the kind's formats, e.g. "png16"
  std::string file;    ///< path relative to the output directory
  json options;        ///< the kind's options, canonical (every option present)
  const output_kind* kind = nullptr;
  bool is_layer = false;  ///< a side layer written by a stage
  /// The entry's "compression" (PNG and OpenEXR formats): fast, default, best.
  png_compression compression = png_compression::standard;
};

/// What a run computed: the heights (and side layers) over the computed area,
/// which is the region plus the halos the stages and outputs need (clipped to
/// the world), or the whole world.
struct build_result {
  heightfield field;
  layer_set layers;
  int x0 = 0, y0 = 0;  ///< the region's window inside `field`
  landform::region region;
  /// The world's [min, max] of the input of each stats-scope stage that the
  /// stats pass measured (a region build), by stage index.
  std::vector<std::pair<std::size_t, std::pair<float, float>>> world_ranges;
  /// What stages reported (stage_context::report), by stage index, in the
  /// order reported.
  std::vector<std::pair<std::size_t, std::vector<std::pair<std::string, double>>>> stage_reports;
  /// Stages whose result came from run_options::cache instead of running.
  std::size_t stages_cached = 0;
  /// The region's heights.
  [[nodiscard]] heightfield heights() const { return field.crop(x0, y0, region.width, region.height); }
};

/// What a region build measures over the whole world before it runs its
/// area, by stage index (pipeline::run_full).
struct world_passes {
  /// Stats-scope stages: the world's [min, max] of their input (stats pass).
  std::vector<std::pair<std::size_t, std::pair<float, float>>> ranges;
  /// Coarse-scope stages: the world's input on their coarse grids (coarse pass).
  std::vector<std::pair<std::size_t, std::shared_ptr<const coarse_input>>> coarse;
};

/// One stage of a built pipeline.
struct pipeline_stage {
  const stage_info* info = nullptr;
  std::string key;         ///< seed key: the stage's "id", else "<type>#<n>"
  json params;             ///< canonical params (every parameter present)
  std::uint64_t seed = 0;  ///< derived or explicit
  stage_scope scope = stage_scope::pointwise;
  /// Cells of input the stage needs around a cell (its type's halo_of, plus
  /// one for a slope mask); -1 = the whole world.
  int halo = 0;
  /// World cells per coarse cell of a coarse-scope stage (stage_scope::coarse), else 0.
  int coarse_factor = 0;
  composition comp;  ///< blend, weight, target layer, mask
  std::string path;  ///< "stages[2] (perturb)", for messages
  /// The side layers (of info->writes) that an output, a mask or a later stage
  /// uses: the only ones the stage is asked to compute and the only ones kept.
  std::vector<std::string> wanted;
  /// The layers the stage reads: its type's stage_info::reads plus the layers
  /// named by its layer-reference parameters (e.g. an uplift layer).
  std::vector<std::string> reads;
  stage_fn run;
};

/// How to run: threads and progress. Results never depend on these.
struct run_options {
  int nthreads = 0;  ///< 0 = all cores, 1 = serial
  /// Called with the stage name and the overall fraction done in [0, 1];
  /// return false to cancel (run() then throws cancelled_error). May be empty.
  std::function<bool(std::string_view stage, double fraction)> progress;
  /// Polled from worker threads (so thread-safe) at least every ~100 ms of
  /// work; returning true cancels (cancelled_error). May be empty.
  std::function<bool()> stop_requested;
  /// Called after each stage that runs, from the calling thread, with its
  /// index in pipeline::stages() and its wall time in seconds. A region
  /// build's stats pass for stats-scope stage k (pipeline::measure_world_range)
  /// is reported once with `stats_pass` true and the time of the whole pass.
  /// Only for reporting (`landform build --timings`); may be empty.
  std::function<void(std::size_t stage, bool stats_pass, double seconds)> stage_timed;
  /// Snapshots of earlier runs (`landform watch`): run_full() starts after
  /// the last stage whose inputs and parameters are unchanged and stores the
  /// state after each stage it runs. The result is the same bit for bit.
  /// May be null.
  stage_cache* cache = nullptr;
};

/// A preset that passed validation, with its stages created.
///
/// Build validates everything first (every stage's type and parameters, the
/// rules across parameters, sizes, outputs) and reports all problems at once;
/// no stage runs until the whole preset is valid.
class pipeline {
 public:
  /// Validates `preset` and builds the stages. Throws preset_error carrying
  /// every problem, each with a JSON path such as
  /// `stages[1] (perturb).magnitude`.
  static pipeline build(const json& preset, const stage_registry& registry = builtin_stages());
  /// As above; the files stages read (e.g. image.path) are loaded and
  /// decoded here, so a missing or corrupt file is a preset error. Relative
  /// paths start at `base_dir`, the folder of the preset file (empty: the
  /// working directory). The canonical preset keeps each path as written and
  /// adds the file's SHA-256 (`path_sha256`).
  static pipeline build(const json& preset, const std::filesystem::path& base_dir,
                        const stage_registry& registry = builtin_stages());
  /// As build(preset, base_dir), for a world that is built as tiles
  /// (`landform tiles plan`): the region may be larger than one process
  /// holds (2^28 cells), since only its tiles are ever run. Everything else
  /// is validated as build() does.
  static pipeline build_tiled_world(const json& preset, const std::filesystem::path& base_dir,
                                    const stage_registry& registry = builtin_stages());

  /// Runs every stage and returns the region's heightfield. When a stage
  /// needs the whole world and the region is smaller, the world is computed
  /// and the region cropped from it, so a region always equals the same window
  /// of the world. Throws cancelled_error if progress asked to stop.
  [[nodiscard]] heightfield run(const run_options& options = {}) const;

  /// Runs every stage over the computed area (the region grown by the halo
  /// the outputs need, clipped to the world; or the whole world when a stage
  /// needs it) and returns it with the stages' side layers.
  [[nodiscard]] build_result run_full(const run_options& options = {}) const;

  [[nodiscard]] const landform::region& region() const { return m_region; }
  [[nodiscard]] const world_extent& world() const { return m_world; }
  [[nodiscard]] std::int64_t seed() const { return m_seed; }
  [[nodiscard]] double height_scale() const { return m_height_scale; }
  /// The preset's top-level sea_level (height units), when given.
  [[nodiscard]] std::optional<double> sea_level() const { return m_sea_level; }
  /// The preset's engine target ("unity", "unreal", "godot"), or "" for none.
  [[nodiscard]] const std::string& target() const { return m_target; }
  [[nodiscard]] const std::vector<pipeline_stage>& stages() const { return m_stages; }
  [[nodiscard]] const std::vector<output_spec>& outputs() const { return m_outputs; }
  /// The preset with every default filled in: what was actually run.
  [[nodiscard]] const json& canonical() const { return m_canonical; }
  /// True when run() computes the whole world and crops the region from it:
  /// the region is smaller than the world and a stage or an output needs the
  /// whole world.
  [[nodiscard]] bool computes_world() const;
  /// The running stages that need the whole world (stage_scope::world), in
  /// order: those that make a region build compute the world.
  [[nodiscard]] std::vector<const pipeline_stage*> world_stages() const;
  /// Estimated run time of the stages on one core, in seconds: the sum of
  /// each stage's stage_info::cost over the cells run() computes. Rough (a
  /// factor of a few); meant to tell a preset that runs for hours from one
  /// that runs for seconds before anything runs.
  [[nodiscard]] double estimated_seconds() const;
  /// The same estimate per stage, in the order of stages() (0 for a stage
  /// that does not run).
  [[nodiscard]] std::vector<double> estimated_stage_seconds() const;
  /// The running stages' warnings (stage_info::advise), each at its JSON
  /// path: valid settings that are likely a mistake.
  [[nodiscard]] std::vector<preset_issue> advice() const;
  /// Cells of terrain the outputs need around the region; -1 = the whole world.
  [[nodiscard]] int halo() const { return m_halo; }
  /// Sum of the running stages' halos; -1 when one needs the whole world.
  [[nodiscard]] int stage_halo() const;
  /// What run_full() computes: the region grown by stage_halo() + halo(),
  /// clipped to the world; or the whole world (computes_world()).
  [[nodiscard]] landform::region computed_area() const;
  /// The world's [min, max] of the input of stage `k` (a stats-scope stage),
  /// measured by running the stages before it over the world in strips of
  /// rows, each grown by their halos: memory proportional to a strip, and
  /// bit-identical to what the stage measures on the whole world. Needs
  /// stage_halo() >= 0 for the stages before `k`; `known` holds what the
  /// passes of earlier stats- and coarse-scope stages measured.
  [[nodiscard]] std::pair<float, float> measure_world_range(std::size_t k, const world_passes& known,
                                                            const run_options& options = {}) const;
  /// The world's input of stage `k` (a coarse-scope stage) and of the layers
  /// it reads, averaged onto its coarse grid (box_mean_rows): the stages
  /// before it run over the world in strips of whole coarse rows, each grown
  /// by their halos, so memory is a strip plus the coarse grid and the bits
  /// are those the stage averages on the whole world; then, when no side
  /// layer of the stage is wanted, its change (coarse_change()), once. Needs
  /// stage_halo() >= 0 for the stages before `k`.
  [[nodiscard]] std::shared_ptr<const coarse_input> measure_coarse_input(std::size_t k, const world_passes& known,
                                                                         const run_options& options = {}) const;
  /// The change of every coarse cell of stage `k` (a coarse-scope stage whose
  /// type has stage_info::coarse_change) from its coarse input, as the stage
  /// computes it: what a tile plan gives every tile as the stage's coarse
  /// result. Throws std::logic_error for another stage.
  [[nodiscard]] std::vector<float> coarse_change(std::size_t k, const coarse_input& in,
                                                 const run_options& options = {}) const;

 private:
  /// Runs stages [0, k) over the world in strips of rows (a multiple of
  /// `row_multiple`, each grown by their halos) and calls `fn` with each
  /// strip's result, the strip and the area computed; for the world passes.
  void for_each_world_strip(
      std::size_t k, const world_passes& known, const run_options& options, int row_multiple,
      const std::function<void(const build_result&, const landform::region&, const landform::region&)>& fn) const;
  /// build(), with the 2^28-cell region limit when `one_process`.
  static pipeline build_impl(const json& preset, const std::filesystem::path& base_dir, const stage_registry& registry,
                             bool one_process);
  /// Runs stages [0, stop) over `area`, giving stats- and coarse-scope
  /// stages what `passes` measured.
  build_result run_area(const landform::region& area, std::size_t stop, const world_passes& passes,
                        const run_options& options, stage_cache* cache = nullptr) const;
  /// The context stage `s` runs in: the preset's frame, `layers` for its
  /// reads, its wanted side layers, the threads and stop callback of `options`.
  [[nodiscard]] stage_context context_of(const pipeline_stage& s, const layer_set& layers,
                                         const run_options& options) const;
  /// The stage_cache keys of run_area(area, all stages, passes): entry k
  /// holds everything the state after stages [0, k] depends on.
  [[nodiscard]] std::vector<std::string> cache_keys(const landform::region& area, const world_passes& passes) const;

  landform::region m_region;
  world_extent m_world;
  std::int64_t m_seed = 0;
  double m_height_scale = 1.0;
  std::optional<double> m_sea_level;
  std::string m_target;
  std::vector<pipeline_stage> m_stages;
  std::vector<output_spec> m_outputs;
  json m_canonical;
  int m_halo = 0;
};

/// The seed of a stage: `hash(preset seed, key)` with key = the stage's "id"
/// or "<type>#<n>" (n-th stage of that type), so editing other stages does not
/// change it.
std::uint64_t derive_stage_seed(std::int64_t preset_seed, const std::string& key);

}  // namespace landform
