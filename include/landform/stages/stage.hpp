#pragma once
/// @file
/// What a stage is: a function of (heightfield, params, seed, world) and
/// nothing else, plus the metadata that describes it.

#include <concepts>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "landform/core/error.hpp"
#include "landform/core/heightfield.hpp"
#include "landform/core/layer_set.hpp"
#include "landform/params/schema.hpp"

namespace landform {

enum class stage_category { generator, filter };

/// Whether a stage can run on a region alone.
enum class stage_scope {
  /// Each cell depends only on its world position (and the cell's input
  /// value): a region equals the same window of the whole world.
  pointwise,
  /// Needs its neighbours or global statistics (perturb, erosion, smoothing,
  /// min-max normalize). A region build of a preset with such a stage
  /// computes the whole world and crops it, so tiles still agree.
  world,
};

/// Everything a stage may use besides its params and the heightfield.
struct stage_context {
  std::uint64_t seed = 0;     ///< this stage's seed (derived from the preset seed or given)
  world_extent world;         ///< where global shapes are laid out
  double height_scale = 1.0;  ///< metres (world units) for a height of 1.0; cell size is in the heightfield's placement
  int nthreads = 0;           ///< 0 = all cores, 1 = serial; results never depend on it
  /// Side layers (same size as the heightfield) for stages that declare them
  /// in stage_info::writes; may be null outside a pipeline.
  layer_set* layers = nullptr;
  /// Reports progress within the stage, fraction in [0, 1]. Throws
  /// cancelled_error when the caller asked to stop. Never null.
  std::function<void(double)> progress = [](double) {};
};

/// A configured stage, ready to run: modifies the heightfield in place.
using stage_fn = std::function<void(heightfield&, const stage_context&)>;

/// A registered stage type: metadata plus a factory.
struct stage_info {
  std::string name;  ///< stable snake_case key used in presets; never renamed
  stage_category category = stage_category::generator;
  stage_scope scope = stage_scope::pointwise;
  std::string summary;      ///< one line
  std::string description;  ///< method, source document or paper, notes
  std::vector<param_spec> params;
  /// Side layers the stage writes into stage_context::layers (each can be
  /// requested as an output by name), e.g. {"erosion", "deposition"}.
  std::vector<std::string> writes;
  /// The scope of a configured stage (some stages are pointwise in one mode
  /// and need the whole world in another, e.g. normalize).
  std::function<stage_scope(const json& params)> scope_of;
  /// Rules that involve several parameters; appends issues (path = the key).
  std::function<void(const json& params, std::vector<preset_issue>& issues)> check_rules;
  /// The canonical form of a checked params object: every parameter present.
  std::function<json(const json& params)> canonical;
  /// Builds the runnable stage from checked params.
  std::function<stage_fn(const json& params)> create;
};

/// Describes a stage whose params struct `P` provides
/// `static const param_schema<P>& schema()` and, optionally,
/// `void check(std::vector<std::pair<std::string, std::string>>&) const` for
/// rules across parameters. `apply` does the work.
template <class P>
stage_info make_stage_info(std::string name, stage_category category, stage_scope scope, std::string summary,
                           std::string description, void (*apply)(heightfield&, const P&, const stage_context&)) {
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
  info.create = [apply](const json& params) -> stage_fn {
    P p = P::schema().parse(params);
    return [apply, p](heightfield& h, const stage_context& ctx) { apply(h, p, ctx); };
  };
  return info;
}

/// "generator" or "filter".
std::string to_string(stage_category category);

}  // namespace landform
