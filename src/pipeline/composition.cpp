#include "landform/pipeline/composition.hpp"

#include <algorithm>
#include <cmath>

#include "landform/core/parallel.hpp"

namespace landform {

namespace {

std::string show(const json& v) {
  std::string s = v.dump();
  return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}

std::string layer_list(const std::vector<std::string>& layers) {
  if (layers.empty()) return "no layer is written before this stage";
  std::string text = "layers written before this stage: ";
  for (std::size_t k = 0; k < layers.size(); ++k) text += (k ? ", " : "") + layers[k];
  return text;
}

bool valid_layer_name(const std::string& name) {
  if (name.empty() || name == "height") return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
  });
}

void check_mask_layer(const std::string& name, const std::string& path, const std::vector<std::string>& known,
                      std::vector<preset_issue>& issues) {
  if (std::find(known.begin(), known.end(), name) != known.end()) return;
  std::string message = "\"" + name + "\" is not a layer (" + layer_list(known) + ")";
  if (auto guess = did_you_mean(name, known)) message += "; did you mean \"" + *guess + "\"?";
  issues.push_back({path, message});
}

std::optional<mask_spec> read_mask(const json& v, const std::string& path, const std::vector<std::string>& known,
                                   std::vector<preset_issue>& issues) {
  mask_spec m;
  if (v.is_string()) {
    m.layer = v.get<std::string>();
    check_mask_layer(m.layer, path, known, issues);
    return m;
  }
  if (!v.is_object()) {
    issues.push_back(
        {path, show(v) + " must be a layer name or {\"layer\", \"height\": [lo, hi], \"falloff\", \"invert\"}"});
    return std::nullopt;
  }
  for (const auto& [key, value] : v.items()) {
    const std::string p = path + "." + key;
    if (key == "layer") {
      if (!value.is_string()) {
        issues.push_back({p, show(value) + " must be a layer name"});
      } else {
        m.layer = value.get<std::string>();
        check_mask_layer(m.layer, p, known, issues);
      }
    } else if (key == "height") {
      if (!value.is_array() || value.size() != 2 || !value[0].is_number() || !value[1].is_number() ||
          !(value[0].get<double>() <= value[1].get<double>())) {
        issues.push_back({p, show(value) + " must be [low, high] heights with low <= high"});
      } else {
        m.height_lo = value[0].get<double>();
        m.height_hi = value[1].get<double>();
      }
    } else if (key == "slope") {
      if (!value.is_array() || value.size() != 2 || !value[0].is_number() || !value[1].is_number() ||
          !(value[0].get<double>() <= value[1].get<double>()) || value[0].get<double>() < 0.0 ||
          value[1].get<double>() > 90.0) {
        issues.push_back({p, show(value) + " must be [low, high] degrees within 0..90 with low <= high"});
      } else {
        m.slope_lo = value[0].get<double>();
        m.slope_hi = value[1].get<double>();
      }
    } else if (key == "slope_falloff") {
      if (!value.is_number() || !(value.get<double>() >= 0.0)) {
        issues.push_back({p, show(value) + " must be a number >= 0 (degrees)"});
      } else {
        m.slope_falloff = value.get<double>();
      }
    } else if (key == "falloff") {
      if (!value.is_number() || !(value.get<double>() >= 0.0)) {
        issues.push_back({p, show(value) + " must be a number >= 0 (height units)"});
      } else {
        m.falloff = value.get<double>();
      }
    } else if (key == "invert") {
      if (!value.is_boolean()) {
        issues.push_back({p, show(value) + " must be true or false"});
      } else {
        m.invert = value.get<bool>();
      }
    } else {
      std::string message = "unknown key";
      if (auto guess = did_you_mean(key, {"layer", "height", "falloff", "slope", "slope_falloff", "invert"})) {
        message += "; did you mean \"" + *guess + "\"?";
      }
      issues.push_back({p, message});
    }
  }
  if (!v.contains("layer") && !v.contains("height") && !v.contains("slope")) {
    issues.push_back({path, "a mask needs a \"layer\", a \"height\" band or a \"slope\" band"});
  }
  return m;
}

}  // namespace

const std::vector<std::string>& blend_mode_names() {
  static const std::vector<std::string> names = {"replace", "add", "subtract", "multiply", "min", "max", "lerp"};
  return names;
}

const std::vector<std::string>& composition_keys() {
  static const std::vector<std::string> keys = {"blend", "weight", "target", "mask"};
  return keys;
}

composition check_composition(const json& entry, const std::string& path, bool generator,
                              const std::vector<std::string>& known_layers, std::vector<preset_issue>& issues) {
  composition c;
  if (auto it = entry.find("blend"); it != entry.end()) {
    const auto& names = blend_mode_names();
    auto found = it->is_string() ? std::find(names.begin(), names.end(), it->get<std::string>()) : names.end();
    if (!generator) {
      issues.push_back({path + ".blend", "only generators blend; confine a filter with \"mask\" instead"});
    } else if (found == names.end()) {
      std::string message = show(*it) + " is not one of replace | add | subtract | multiply | min | max | lerp";
      if (it->is_string()) {
        if (auto guess = did_you_mean(it->get<std::string>(), names)) message += "; did you mean \"" + *guess + "\"?";
      }
      issues.push_back({path + ".blend", message});
    } else {
      c.blend = static_cast<blend_mode>(found - names.begin());
    }
  }
  if (auto it = entry.find("weight"); it != entry.end()) {
    if (!generator) {
      issues.push_back({path + ".weight", "only generators take a weight; confine a filter with \"mask\" instead"});
    } else if (!it->is_number() || !std::isfinite(it->get<double>())) {
      issues.push_back({path + ".weight", show(*it) + " must be a finite number"});
    } else {
      c.weight = it->get<double>();
    }
  }
  if (auto it = entry.find("target"); it != entry.end()) {
    if (!it->is_string() || !valid_layer_name(it->get<std::string>())) {
      issues.push_back(
          {path + ".target", show(*it) + " must be a layer name of lower-case letters, digits and _ (not \"height\")"});
    } else {
      c.target = it->get<std::string>();
    }
  }
  if (auto it = entry.find("mask"); it != entry.end()) c.mask = read_mask(*it, path + ".mask", known_layers, issues);
  return c;
}

json composition_to_json(const composition& c) {
  json out = json::object();
  if (c.blend != blend_mode::replace) out["blend"] = blend_mode_names()[static_cast<std::size_t>(c.blend)];
  if (c.weight != 1.0) out["weight"] = c.weight;
  if (!c.target.empty()) out["target"] = c.target;
  if (c.mask) {
    json m = json::object();
    if (!c.mask->layer.empty()) m["layer"] = c.mask->layer;
    if (c.mask->height_lo) m["height"] = {*c.mask->height_lo, *c.mask->height_hi};
    if (c.mask->falloff != 0.0) m["falloff"] = c.mask->falloff;
    if (c.mask->slope_lo) m["slope"] = {*c.mask->slope_lo, *c.mask->slope_hi};
    if (c.mask->slope_falloff != 0.0) m["slope_falloff"] = c.mask->slope_falloff;
    if (c.mask->invert) m["invert"] = true;
    out["mask"] = m;
  }
  return out;
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
