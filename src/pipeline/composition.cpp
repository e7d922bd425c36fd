#include "landform/pipeline/composition.hpp"

#include <algorithm>
#include <cmath>

#include "landform/core/parallel.hpp"
#include "landform/outputs/output_kind.hpp"

namespace landform {

namespace {

using pair = std::array<double, 2>;

bool valid_layer_name(const std::string& name) {
  if (name.empty() || name == "height") return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
  });
}

// A mask as written in a preset; mask_spec is what the pipeline evaluates.
struct mask_fields {
  std::string layer;
  std::optional<pair> height;
  double falloff = 0.0;
  std::optional<pair> slope;
  double slope_falloff = 0.0;
  bool invert = false;

  static const param_schema<mask_fields>& schema() {
    using P = mask_fields;
    static const auto s =
        param_schema<P>()
            .layer("layer", &P::layer)
            .doc("a layer written by an earlier stage; its values, clamped to 0..1, weight the effect")
            .interval("height", &P::height)
            .unit("height units")
            .doc("the height band where the stage applies")
            .number("falloff", &P::falloff)
            .optional()
            .unit("height units")
            .range(at_least(0))
            .doc("distance over which the height band fades out")
            .interval("slope", &P::slope)
            .unit("degrees")
            .range(between(0, 90))
            .doc("the slope band where the stage applies")
            .number("slope_falloff", &P::slope_falloff)
            .optional()
            .unit("degrees")
            .range(at_least(0))
            .doc("degrees over which the slope band fades out")
            .boolean("invert", &P::invert)
            .optional()
            .doc("apply where the mask is 0 instead");
    return s;
  }
  void check(std::vector<std::pair<std::string, std::string>>& problems) const {
    if (layer.empty() && !height && !slope) {
      problems.emplace_back("", "a mask needs a \"layer\", a \"height\" band or a \"slope\" band");
    }
  }
};

// The composition keys as written in a stage entry.
struct composition_fields {
  blend_mode blend = blend_mode::replace;
  double weight = 1.0;
  std::string target;
  std::optional<mask_fields> mask;

  static const param_schema<composition_fields>& schema() {
    using P = composition_fields;
    static const auto s = [] {
      std::vector<std::pair<std::string, blend_mode>> modes;
      for (std::size_t k = 0; k < blend_mode_names().size(); ++k)
        modes.emplace_back(blend_mode_names()[k], static_cast<blend_mode>(k));
      return param_schema<P>()
          .choice("blend", &P::blend, modes)
          .optional()
          .doc("generators: how the new layer combines with the target")
          .number("weight", &P::weight)
          .optional()
          .doc("generators: scale of the new layer before blending")
          .string("target", &P::target)
          .optional()
          .doc("a named layer to write instead of the heights")
          .object("mask", &P::mask, mask_fields::schema())
          .shorthand("layer")
          .doc("where the stage applies: a layer and/or height and slope bands");
    }();
    return s;
  }
  void check(std::vector<std::pair<std::string, std::string>>& problems) const {
    if (!target.empty() && !valid_layer_name(target)) {
      problems.emplace_back(
          "target", show_value(target) + " must be a layer name of lower-case letters, digits and _ (not \"height\")");
    } else if (builtin_outputs().find(target) != nullptr) {
      // An output's "map" names the built-in map first: the layer could never be written.
      problems.emplace_back("target", show_value(target) +
                                          " is the name of a built-in map (landform outputs lists them): an output "
                                          "with that map would write the built-in one, never this layer");
    }
  }
};

}  // namespace

const std::vector<std::string>& blend_mode_names() {
  static const std::vector<std::string> names = {"replace", "add", "subtract", "multiply", "min", "max", "lerp"};
  return names;
}

const std::vector<param_spec>& composition_specs() {
  return composition_fields::schema().specs();
}

const std::vector<std::string>& composition_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> names;
    for (const auto& spec : composition_specs()) names.push_back(spec.name);
    return names;
  }();
  return keys;
}

composition check_composition(const json& entry, const std::string& path, bool generator,
                              const std::vector<std::string>& known_layers, std::vector<preset_issue>& issues) {
  json keys = json::object();
  for (const auto& key : composition_keys()) {
    if (auto it = entry.find(key); it != entry.end()) keys[key] = *it;
  }
  if (!generator) {
    if (keys.erase("blend")) {
      issues.push_back({path + ".blend", "only generators blend; confine a filter with \"mask\" instead"});
    }
    if (keys.erase("weight")) {
      issues.push_back({path + ".weight", "only generators take a weight; confine a filter with \"mask\" instead"});
    }
  }
  const std::size_t before = issues.size();
  check_params(composition_specs(), keys, path, {}, issues, check_scope{&known_layers});
  // parse() needs values that passed check_params (a wrong type would throw).
  if (issues.size() != before) return composition{};
  const composition_fields f = composition_fields::schema().parse(keys);
  std::vector<std::pair<std::string, std::string>> problems;
  f.check(problems);
  for (auto& [key, message] : problems) issues.push_back({path + "." + key, message});
  composition c;
  c.blend = f.blend;
  c.weight = f.weight;
  c.target = f.target;
  if (f.mask) {
    mask_spec m;
    m.layer = f.mask->layer;
    if (f.mask->height) {
      m.height_lo = (*f.mask->height)[0];
      m.height_hi = (*f.mask->height)[1];
    }
    m.falloff = f.mask->falloff;
    if (f.mask->slope) {
      m.slope_lo = (*f.mask->slope)[0];
      m.slope_hi = (*f.mask->slope)[1];
    }
    m.slope_falloff = f.mask->slope_falloff;
    m.invert = f.mask->invert;
    c.mask = m;
  }
  return c;
}

json composition_to_json(const composition& c) {
  composition_fields f;
  f.blend = c.blend;
  f.weight = c.weight;
  f.target = c.target;
  if (c.mask) {
    mask_fields m;
    m.layer = c.mask->layer;
    if (c.mask->height_lo) m.height = pair{*c.mask->height_lo, *c.mask->height_hi};
    m.falloff = c.mask->falloff;
    if (c.mask->slope_lo) m.slope = pair{*c.mask->slope_lo, *c.mask->slope_hi};
    m.slope_falloff = c.mask->slope_falloff;
    m.invert = c.mask->invert;
    f.mask = m;
  }
  return composition_fields::schema().to_json(f);
}

void blend_into(std::vector<float>& target, const std::vector<float>& layer, blend_mode mode, double weight, int width,
                int nthreads) {
  const int rows = width > 0 ? static_cast<int>(target.size() / static_cast<std::size_t>(width)) : 0;
  const auto w = static_cast<float>(weight);
  parallel_rows(rows, nthreads, [&](int y0, int y1) {
    const std::size_t begin = static_cast<std::size_t>(y0) * static_cast<std::size_t>(width);
    const std::size_t end = static_cast<std::size_t>(y1) * static_cast<std::size_t>(width);
    float* t = target.data();
    const float* l = layer.data();
    switch (mode) {
      case blend_mode::replace:
        for (std::size_t k = begin; k < end; ++k) t[k] = w * l[k];
        break;
      case blend_mode::add:
        for (std::size_t k = begin; k < end; ++k) t[k] = t[k] + w * l[k];
        break;
      case blend_mode::subtract:
        for (std::size_t k = begin; k < end; ++k) t[k] = t[k] - w * l[k];
        break;
      case blend_mode::multiply:
        for (std::size_t k = begin; k < end; ++k) t[k] = t[k] * (w * l[k]);
        break;
      case blend_mode::min:
        for (std::size_t k = begin; k < end; ++k) t[k] = std::min(t[k], w * l[k]);
        break;
      case blend_mode::max:
        for (std::size_t k = begin; k < end; ++k) t[k] = std::max(t[k], w * l[k]);
        break;
      case blend_mode::lerp:
        for (std::size_t k = begin; k < end; ++k) t[k] = t[k] + w * (l[k] - t[k]);
        break;
    }
  });
}

}  // namespace landform
