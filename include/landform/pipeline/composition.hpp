#pragma once
/// @file
/// How a stage's result is combined with what was there: blend modes and
/// weight for generators, masks for any stage, and named target layers.

#include <optional>
#include <string>
#include <vector>

#include "landform/core/error.hpp"
#include "landform/core/heightfield.hpp"
#include "landform/core/layer_set.hpp"
#include "landform/derive/mask.hpp"
#include "landform/params/schema.hpp"

namespace landform {

/// How a generator's layer L (scaled by `weight`) combines with the current
/// value c of its target:
/// replace: w·L; add: c + w·L; subtract: c − w·L; multiply: c · w·L;
/// min: min(c, w·L); max: max(c, w·L); lerp: c + w·(L − c).
enum class blend_mode { replace, add, subtract, multiply, min, max, lerp };

/// Names in preset order: "replace", "add", ...
const std::vector<std::string>& blend_mode_names();

/// Composition keys of one stage entry, after validation.
struct composition {
  blend_mode blend = blend_mode::replace;
  double weight = 1.0;
  std::string target;  ///< empty: the heightfield; else a named layer
  std::optional<mask_spec> mask;
  /// True when the stage can write straight into its target.
  [[nodiscard]] bool in_place() const { return blend == blend_mode::replace && weight == 1.0 && !mask; }
};

/// The schema of the composition keys every stage entry may carry besides its
/// parameters: blend, weight, target and mask (a nested object).
const std::vector<param_spec>& composition_specs();

/// The names of composition_specs().
const std::vector<std::string>& composition_keys();

/// Reads and checks "blend", "weight", "target" and "mask" of a stage entry.
/// `generator` allows blend and weight; `known_layers` are the layers written
/// by earlier stages (a mask may only read those). Problems go to `issues`
/// with paths `<path>.<key>`.
composition check_composition(const json& entry, const std::string& path, bool generator,
                              const std::vector<std::string>& known_layers, std::vector<preset_issue>& issues);

/// The canonical JSON of the composition keys (only those not at default).
json composition_to_json(const composition& c);

/// target[k] = blend(target[k], layer[k]) for every cell (row-parallel,
/// result independent of the thread count).
void blend_into(std::vector<float>& target, const std::vector<float>& layer, blend_mode mode, double weight, int width,
                int nthreads);

}  // namespace landform
