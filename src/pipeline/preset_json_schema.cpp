#include "landform/pipeline/preset_json_schema.hpp"

#include <cstdint>
#include <limits>

#include "landform/outputs/output_kind.hpp"
#include "landform/pipeline/composition.hpp"
#include "landform/pipeline/engine_target.hpp"
#include "landform/pipeline/preset_header.hpp"
#include "landform/pipeline/registry.hpp"

namespace landform {

namespace {

// minimum / exclusiveMinimum / maximum / exclusiveMaximum of a range.
void add_range(json& s, const param_range& r) {
  if (r.min) s[r.min_exclusive ? "exclusiveMinimum" : "minimum"] = *r.min;
  if (r.max) s[r.max_exclusive ? "exclusiveMaximum" : "maximum"] = *r.max;
}

json ranged(const char* type, const param_range& r) {
  json s = {{"type", type}};
  add_range(s, r);
  return s;
}

json fixed_array(json item, std::size_t n) {
  return {{"type", "array"}, {"items", std::move(item)}, {"minItems", n}, {"maxItems", n}};
}

json counted_array(json item, const param_spec& spec) {
  json s = {{"type", "array"}, {"items", std::move(item)}};
  if (spec.min_count) s["minItems"] = spec.min_count;
  if (spec.max_count) s["maxItems"] = spec.max_count;
  return s;
}

// An object whose properties are `fields`, closed to other keys except `extra`
// (each allowed with any value, described by the caller).
json object_schema(const std::vector<param_spec>& fields, const json& extra = json::object()) {
  json properties = extra;
  json required = json::array();
  for (const auto& f : fields) {
    properties[f.name] = param_json_schema(f);
    if (f.required) required.push_back(f.name);
  }
  json s = {{"type", "object"}, {"properties", properties}, {"additionalProperties", false}};
  if (!required.empty()) s["required"] = required;
  return s;
}

json value_schema(const param_spec& spec) {
  switch (spec.kind) {
    case param_kind::integer:
      return ranged("integer", spec.range);
    case param_kind::integer64: {
      json s = ranged("integer", spec.range);
      // Without a range of its own, the signed 64-bit range the tool reads.
      if (!spec.range.min) s["minimum"] = std::numeric_limits<std::int64_t>::min();
      if (!spec.range.max) s["maximum"] = std::numeric_limits<std::int64_t>::max();
      return s;
    }
    case param_kind::number:
      return ranged("number", spec.range);
    case param_kind::boolean:
      return {{"type", "boolean"}};
    case param_kind::choice:
      return {{"enum", spec.choices}};
    case param_kind::string:
    case param_kind::layer: {
      json s = {{"type", "string"}};
      if (spec.non_empty || spec.kind == param_kind::layer) s["minLength"] = 1;
      return s;
    }
    case param_kind::number_list:
      return counted_array(ranged("number", spec.range), spec);
    case param_kind::point_list:
      return counted_array(fixed_array(ranged("number", spec.range), spec.arity), spec);
    case param_kind::interval:
      return fixed_array(ranged("number", spec.range), 2);
    case param_kind::extent:
      return {{"oneOf", {ranged("integer", spec.range), fixed_array(ranged("integer", spec.range), 2)}}};
    case param_kind::cell:
      return fixed_array(ranged("integer", spec.range), 2);
    case param_kind::object: {
      json s = object_schema(spec.fields);
      for (const auto& f : spec.fields) {
        if (f.name == spec.shorthand) return {{"oneOf", {s, value_schema(f)}}};
      }
      return s;
    }
    case param_kind::list_of:
      return counted_array(object_schema(spec.fields), spec);
  }
  return json::object();
}

std::string description(const param_spec& spec) {
  std::string text = spec.doc;
  if (!spec.unit.empty()) text += " (" + spec.unit + ")";
  if (!spec.effect.empty()) text += ". Effect: " + spec.effect;
  return text;
}

// The keys every stage entry takes besides its parameters.
json stage_common_keys(const std::string& type) {
  json keys = {{"type", {{"const", type}}},
               {"seed",
                {{"description",
                  "the stage's own seed, or \"preset\" for the preset's seed; absent = derived from the "
                  "preset seed and the stage's id"},
                 {"oneOf", {{{"type", "integer"}}, {{"const", "preset"}}}}}},
               {"id", {{"type", "string"}, {"minLength", 1}, {"description", "names the stage's seed stream"}}},
               {"enabled", {{"type", "boolean"}, {"default", true}, {"description", "false skips the stage"}}}};
  for (const auto& spec : composition_specs()) keys[spec.name] = param_json_schema(spec);
  return keys;
}

json stage_entries() {
  json variants = json::array();
  for (const stage_info* s : builtin_stages().all()) {
    json v = object_schema(s->params, stage_common_keys(s->name));
    v["title"] = s->name;
    v["description"] = s->summary;
    v["required"] = json::array({"type"});
    for (const auto& p : s->params)
      if (p.required) v["required"].push_back(p.name);
    variants.push_back(v);
  }
  return {{"type", "array"}, {"minItems", 1}, {"items", {{"oneOf", variants}}}};
}

// An output's file name, with the portable-name rules a schema can state (as
// the manifest's portability check): no control character, at most 1024
// characters, no path component longer than 200. The extension rule (no
// other format's extension) is left to landform validate.
json output_file_schema() {
  return {{"type", "string"},
          {"minLength", 1},
          {"maxLength", 1024},
          {"pattern", R"(^(?![\s\S]*[^/]{201})[^\x00-\x1f\x7f]*$)"},
          {"description", "file name in the output folder"}};
}

// Output entries: one variant per kind; a side layer's name (a string that is
// not a kind) takes the side-layer kind's options.
json output_entries() {
  json variants = json::array();
  json kind_names = json::array();
  auto variant = [](const output_kind& k, json map) {
    json common = {
        {"map", std::move(map)},
        {"format", {{"enum", k.formats}, {"default", k.formats.front()}}},
        {"file", output_file_schema()},
        {"compression",
         {{"enum", {"fast", "default", "best"}},
          {"default", "default"},
          {"description",
           "how hard PNG and OpenEXR files are deflated: fast; default; best (PNG: zlib Z_RLE; the smaller of Z_RLE "
           "and level 3; the smallest of those and level 9. OpenEXR: zlib 1; its library's own; 9)"}}}};
    json v = object_schema(k.options, common);
    v["title"] = k.name;
    v["description"] = k.summary;
    // "map" defaults to height (check_outputs), so only the other kinds need it.
    v["required"] = k.name == "height" ? json::array() : json::array({"map"});
    return v;
  };
  for (const output_kind* k : builtin_outputs().all()) {
    kind_names.push_back(k->name);
    variants.push_back(variant(*k, {{"const", k->name}}));
  }
  variants.push_back(variant(layer_output_kind(), {{"type", "string"}, {"not", {{"enum", kind_names}}}}));
  return {{"type", "array"}, {"items", {{"oneOf", variants}}}};
}

}  // namespace

json param_json_schema(const param_spec& spec) {
  json s = value_schema(spec);
  s["description"] = description(spec);
  if (!spec.default_value.is_null()) s["default"] = spec.default_value;
  return s;
}

json preset_json_schema() {
  json s = object_schema(preset_header::schema().specs());
  s["properties"]["stages"] = stage_entries();
  s["properties"]["stages"]["description"] = "the stages, run in order";
  s["properties"]["outputs"] = output_entries();
  s["properties"]["outputs"]["description"] = "the files to write; absent = one png16 height map";
  // Rules of preset_header::check that a schema can state.
  s["properties"]["landform"]["enum"] = json::array({1});
  json targets = engine_target_names();
  targets.push_back("");  // "" = no target, as when absent
  s["properties"]["target"]["enum"] = targets;
  s["required"] = json::array({"stages"});
  s["$schema"] = "https://json-schema.org/draft/2020-12/schema";
  s["title"] = "landform preset (format 1)";
  return s;
}

}  // namespace landform
