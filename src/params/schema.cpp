#include "landform/params/schema.hpp"

#include <algorithm>
#include <cmath>

namespace landform {

std::string show_value(const json& value) {
  std::string text = value.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

bool is_int64(const json& value) {
  if (value.is_number_unsigned()) return value.get<std::uint64_t>() <= static_cast<std::uint64_t>(INT64_MAX);
  return value.is_number_integer();
}

std::string show_key(std::string_view key) {
  constexpr std::size_t k_max = 64;
  if (key.size() <= k_max) return std::string(key);
  std::size_t cut = k_max - 3;
  while (cut > 0 && (static_cast<unsigned char>(key[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
  return std::string(key.substr(0, cut)) + "...";
}

namespace {

bool is_integral(const json& v) {
  if (v.is_number_integer() || v.is_number_unsigned()) return true;
  if (!v.is_number_float()) return false;
  const double d = v.get<double>();
  return std::isfinite(d) && d == std::floor(d) && std::abs(d) < 2147483648.0;
}

std::string check_range(const param_range& r, double v) {
  if (r.min) {
    if (r.min_exclusive ? !(v > *r.min) : !(v >= *r.min)) {
      return format_number(v) + (r.min_exclusive ? " must be greater than " : " is below the minimum ") +
             format_number(*r.min);
    }
  }
  if (r.max) {
    if (r.max_exclusive ? !(v < *r.max) : !(v <= *r.max)) {
      return format_number(v) + (r.max_exclusive ? " must be less than " : " is above the maximum ") +
             format_number(*r.max);
    }
  }
  return {};
}

// The range check on 64-bit integers, exact: compared as integers (the bounds
// are whole numbers within +-2^53, so converting them is exact), never via
// double or std::abs, which lose precision or overflow at INT64_MIN.
std::string check_range_int64(const param_range& r, std::int64_t v) {
  if (r.min) {
    const auto lo = static_cast<std::int64_t>(*r.min);
    if (r.min_exclusive ? !(v > lo) : !(v >= lo)) {
      return std::to_string(v) + (r.min_exclusive ? " must be greater than " : " is below the minimum ") +
             format_number(*r.min);
    }
  }
  if (r.max) {
    const auto hi = static_cast<std::int64_t>(*r.max);
    if (r.max_exclusive ? !(v < hi) : !(v <= hi)) {
      return std::to_string(v) + (r.max_exclusive ? " must be less than " : " is above the maximum ") +
             format_number(*r.max);
    }
  }
  return {};
}

// Optimal string alignment distance: insertions, deletions, substitutions and
// swaps of two neighbouring letters each cost 1 ("sede" is 1 from "seed").
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

std::string param_spec::kind_name() const {
  switch (kind) {
    case param_kind::integer:
      return "integer";
    case param_kind::number:
      return "number";
    case param_kind::boolean:
      return "boolean";
    case param_kind::choice:
      return "choice";
    case param_kind::string:
      return "string";
    case param_kind::number_list:
      return "number list";
    case param_kind::point_list:
      return "point list";
    case param_kind::interval:
      return "interval";
    case param_kind::object:
      return "object";
    case param_kind::list_of:
      return "list of objects";
    case param_kind::layer:
      return "layer";
    case param_kind::integer64:
      return "integer";
    case param_kind::extent:
      return "size";
    case param_kind::cell:
      return "cell";
  }
  return "?";
}

namespace {

std::string field_names(const std::vector<param_spec>& fields) {
  std::string text = "{";
  for (std::size_t k = 0; k < fields.size(); ++k) text += (k ? ", " : "") + fields[k].name;
  return text + "}";
}

std::string range_words(const param_range& r) {
  if (r.min && r.max) {
    if (!r.min_exclusive && !r.max_exclusive) return format_number(*r.min) + " to " + format_number(*r.max);
    return std::string(r.min_exclusive ? "(" : "[") + format_number(*r.min) + ", " + format_number(*r.max) +
           (r.max_exclusive ? ")" : "]");
  }
  if (r.min) return (r.min_exclusive ? "> " : ">= ") + format_number(*r.min);
  if (r.max) return (r.max_exclusive ? "< " : "<= ") + format_number(*r.max);
  return "any";
}

std::string count_words(std::size_t min_count, std::size_t max_count) {
  if (max_count == 0) return std::to_string(min_count) + " or more";
  if (max_count == min_count) return std::to_string(min_count);
  return std::to_string(min_count) + " to " + std::to_string(max_count);
}

}  // namespace

std::string param_spec::range_text() const {
  switch (kind) {
    case param_kind::choice: {
      std::string text;
      for (const auto& c : choices) text += (text.empty() ? "" : " | ") + c;
      return text;
    }
    case param_kind::boolean:
      return "true | false";
    case param_kind::string:
      return non_empty ? "non-empty text" : "text";
    case param_kind::layer:
      return "a layer written by an earlier stage";
    case param_kind::object:
      return field_names(fields) + (shorthand.empty() ? "" : ", or a " + shorthand + " alone");
    case param_kind::list_of:
      return count_words(min_count, max_count) + " objects " + field_names(fields);
    case param_kind::interval:
      return "[low, high], low <= high, each " + range_words(range);
    case param_kind::number_list:
      return count_words(min_count, max_count) + " values, each " + range_words(range);
    case param_kind::point_list: {
      std::string text = count_words(min_count, max_count);
      if (arity == 2) {
        text += " [x, y] points";
      } else {
        text += " tuples of ";
        text += std::to_string(arity);
        text += " numbers";
      }
      text += ", each number ";
      text += range_words(range);
      return text;
    }
    case param_kind::extent:
      return "N or [width, height], each " + range_words(range);
    case param_kind::cell:
      return "[x, y], each " + range_words(range);
    case param_kind::integer:
    case param_kind::integer64:
    case param_kind::number:
      return range_words(range);
  }
  return "any";
}

json param_spec::expanded(const json& value) const {
  if (kind == param_kind::object && !shorthand.empty() && !value.is_object()) return json{{shorthand, value}};
  return value;
}

std::string param_spec::check(const json& value) const {
  switch (kind) {
    case param_kind::boolean:
      return value.is_boolean() ? "" : show_value(value) + " must be true or false";
    case param_kind::choice: {
      if (!value.is_string()) return show_value(value) + " must be a string, one of " + range_text();
      const auto s = value.get<std::string>();
      if (std::find(choices.begin(), choices.end(), s) != choices.end()) return {};
      std::string message = show_value(value) + " is not one of " + range_text();
      if (auto guess = did_you_mean(s, choices)) message += "; did you mean \"" + *guess + "\"?";
      return message;
    }
    case param_kind::integer:
      if (!is_integral(value)) return show_value(value) + " must be an integer";
      return check_range(range, value.get<double>());
    case param_kind::number:
      if (!value.is_number()) return show_value(value) + " must be a number";
      if (!std::isfinite(value.get<double>())) return show_value(value) + " must be finite";
      return check_range(range, value.get<double>());
    case param_kind::string:
      if (!value.is_string()) return show_value(value) + " must be a string";
      if (non_empty && value.get<std::string>().empty()) return "must not be empty";
      return {};
    case param_kind::layer:
      if (!value.is_string() || value.get<std::string>().empty()) return show_value(value) + " must be a layer name";
      return {};
    case param_kind::interval: {
      if (!value.is_array() || value.size() != 2 || !value[0].is_number() || !value[1].is_number() ||
          !std::isfinite(value[0].get<double>()) || !std::isfinite(value[1].get<double>())) {
        return show_value(value) + " must be [low, high]";
      }
      if (!(value[0].get<double>() <= value[1].get<double>())) return show_value(value) + " must have low <= high";
      for (const json& bound : value) {
        if (auto problem = check_range(range, bound.get<double>()); !problem.empty()) return problem;
      }
      return {};
    }
    case param_kind::integer64:
      if (!is_int64(value)) return show_value(value) + " must be an integer from -2^63 to 2^63-1";
      return check_range_int64(range, value.get<std::int64_t>());
    case param_kind::extent:
      return check_extent(value);
    case param_kind::cell:
      return check_cell(value);
    case param_kind::number_list:
    case param_kind::point_list:
      return check_list(value);
    case param_kind::object:
    case param_kind::list_of: {
      std::vector<preset_issue> issues;
      check_value(*this, value, "", {}, issues);
      return issues.empty() ? std::string() : issues.front().to_string();
    }
  }
  return {};
}

std::string param_spec::check_extent(const json& value) const {
  const std::string unit_text = unit.empty() ? "" : " in " + unit;
  const bool pair = value.is_array() && value.size() == 2;
  if (!pair && !is_integral(value)) return show_value(value) + " must be an integer or [width, height]" + unit_text;
  if (!pair) return check_range(range, value.get<double>());
  for (const json& side : value) {
    if (!is_integral(side))
      return show_value(value) + ": " + show_value(side) + " is not a whole number" +
             (unit.empty() ? "" : " of " + unit);
    if (auto problem = check_range(range, side.get<double>()); !problem.empty())
      return show_value(value) + ": " + problem;
  }
  return {};
}

std::string param_spec::check_cell(const json& value) const {
  const std::string unit_text = unit.empty() ? "" : " in whole " + unit;
  if (!value.is_array() || value.size() != 2 || !is_int64(value[0]) || !is_int64(value[1])) {
    return show_value(value) + " must be [x, y]" + unit_text;
  }
  for (const json& coordinate : value) {
    if (auto problem = check_range_int64(range, coordinate.get<std::int64_t>()); !problem.empty())
      return show_value(value) + ": " + problem;
  }
  return {};
}

std::string param_spec::check_list(const json& value) const {
  const bool points = kind == param_kind::point_list;
  // Appended piecewise: GCC 12 warns falsely (-Wrestrict, PR105329) on
  // "literal" + std::string temporaries.
  std::string tuple = "[x, y]";
  if (arity != 2) {
    tuple = "[";
    tuple += std::to_string(arity);
    tuple += " numbers]";
  }
  const std::string what = points ? "a list of " + tuple : "a list of numbers";
  if (!value.is_array()) return show_value(value) + " must be " + what;
  if (value.size() < min_count) {
    return "has " + std::to_string(value.size()) + " elements, needs at least " + std::to_string(min_count);
  }
  if (max_count && value.size() > max_count) {
    return "has " + std::to_string(value.size()) + " elements, at most " + std::to_string(max_count) + " allowed";
  }
  for (std::size_t k = 0; k < value.size(); ++k) {
    const json& e = value[k];
    const std::string where = "element " + std::to_string(k) + ": ";
    if (points && (!e.is_array() || e.size() != arity)) return where + show_value(e) + " must be " + tuple;
    for (const json& number : points ? e : json::array({e})) {
      if (!number.is_number() || !std::isfinite(number.get<double>()))
        return where + show_value(e) + " must be finite numbers";
      if (auto problem = check_range(range, number.get<double>()); !problem.empty()) return where + problem;
    }
  }
  return {};
}

json param_spec::to_json() const {
  json out = {{"name", name}, {"type", kind_name()}, {"default", default_value}, {"doc", doc}};
  if (!effect.empty()) out["effect"] = effect;
  if (!unit.empty()) out["unit"] = unit;
  if (range.min) out[range.min_exclusive ? "exclusive_minimum" : "minimum"] = *range.min;
  if (range.max) out[range.max_exclusive ? "exclusive_maximum" : "maximum"] = *range.max;
  if (!choices.empty()) out["choices"] = choices;
  if (kind == param_kind::number_list || kind == param_kind::point_list || kind == param_kind::list_of) {
    out["min_count"] = min_count;
    if (max_count) out["max_count"] = max_count;
  }
  if (required) out["required"] = true;
  if (!shorthand.empty()) out["shorthand"] = shorthand;
  if (!fields.empty()) {
    json sub = json::array();
    for (const auto& field : fields) sub.push_back(field.to_json());
    out["fields"] = sub;
  }
  return out;
}

std::optional<std::string> did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  // The distance is quadratic in the lengths: a word far longer than any
  // name is no typo of one, and a 10 MB key must not cost seconds.
  constexpr std::size_t k_longest_typo = 64;
  if (word.size() > k_longest_typo) return std::nullopt;
  std::optional<std::string> best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (const auto& c : candidates) {
    // The distance is at least the difference in length.
    const std::size_t gap = c.size() > word.size() ? c.size() - word.size() : word.size() - c.size();
    if (gap >= best_distance) continue;
    const std::size_t d = edit_distance(word, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

std::string check_layer_name(const std::string& name, const std::vector<std::string>& known) {
  if (std::find(known.begin(), known.end(), name) != known.end()) return {};
  std::string message = "\"" + show_key(name) + "\" is not a layer written by an earlier stage (";
  if (known.empty()) {
    message += "none is written)";
  } else {
    message += "written: ";
    for (std::size_t k = 0; k < known.size(); ++k) message += (k ? ", " : "") + known[k];
    message += ")";
  }
  if (auto guess = did_you_mean(name, known)) message += "; did you mean \"" + *guess + "\"?";
  return message;
}

namespace {
void check_fields(const std::vector<param_spec>& specs, const json& object, const std::string& path,
                  const std::vector<std::string>& extra_keys, std::vector<preset_issue>& issues,
                  const check_scope& scope, const char* unknown);
}  // namespace

void check_value(const param_spec& spec, const json& given, const std::string& path, const check_scope& scope,
                 std::vector<preset_issue>& issues) {
  const json value = spec.expanded(given);
  if (spec.kind == param_kind::object) {
    const std::size_t before = issues.size();
    if (!given.is_object() && !spec.shorthand.empty()) {
      // The shorthand stands for one field: its problems are the value's own.
      for (const auto& field : spec.fields) {
        if (field.name == spec.shorthand) check_value(field, given, path, scope, issues);
      }
    } else if (!value.is_object()) {
      issues.push_back({path, show_value(value) + " must be an object " + field_names(spec.fields)});
      return;
    } else {
      check_fields(spec.fields, value, path, {}, issues, scope, "unknown key");
    }
    if (issues.size() != before || !spec.rules) return;
    std::vector<std::pair<std::string, std::string>> problems;
    spec.rules(value, problems);
    for (auto& [key, message] : problems) issues.push_back({key.empty() ? path : path + "." + key, message});
    return;
  }
  if (spec.kind == param_kind::list_of) {
    if (!value.is_array()) {
      issues.push_back({path, show_value(value) + " must be a list of objects " + field_names(spec.fields)});
      return;
    }
    if (value.size() < spec.min_count || (spec.max_count && value.size() > spec.max_count)) {
      issues.push_back({path, "has " + std::to_string(value.size()) + " elements, needs " +
                                  count_words(spec.min_count, spec.max_count)});
      return;
    }
    param_spec element = spec;
    element.kind = param_kind::object;
    for (std::size_t k = 0; k < value.size(); ++k) {
      check_value(element, value[k], path + "[" + std::to_string(k) + "]", scope, issues);
    }
    return;
  }
  if (auto problem = spec.check(value); !problem.empty()) {
    issues.push_back({path, problem});
    return;
  }
  if (spec.kind == param_kind::layer && scope.layers) {
    const auto name = value.get<std::string>();
    if (spec.fallback && json(name) == spec.default_value) return;
    if (auto problem = check_layer_name(name, *scope.layers); !problem.empty()) issues.push_back({path, problem});
  }
}

namespace {

// "a.b", or "b" at a document's top level (path "").
std::string child_path(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

// The parameter that offers `value` as one of its choices, if one does: a key
// named after what it does ("mode": "ridged") rather than the field's term
// ("fractal") is no typo of it.
std::optional<std::string> choice_owner(const std::vector<param_spec>& specs, const json& value) {
  if (!value.is_string()) return std::nullopt;
  const auto& text = value.get_ref<const std::string&>();
  for (const auto& spec : specs) {
    if (std::find(spec.choices.begin(), spec.choices.end(), text) != spec.choices.end()) return spec.name;
  }
  return std::nullopt;
}

// check_params with the word for an unknown key: "parameter" at a stage's or
// output's top level, "key" inside nested objects.
void check_fields(const std::vector<param_spec>& specs, const json& object, const std::string& path,
                  const std::vector<std::string>& extra_keys, std::vector<preset_issue>& issues,
                  const check_scope& scope, const char* unknown) {
  std::vector<std::string> known = extra_keys;
  for (const auto& spec : specs) known.push_back(spec.name);
  for (const auto& [key, value] : object.items()) {
    if (std::find(extra_keys.begin(), extra_keys.end(), key) != extra_keys.end()) continue;
    // (init-capture: clang 14, hence clang-tidy, cannot capture a structured binding)
    auto spec = std::find_if(specs.begin(), specs.end(), [&name = key](const param_spec& s) { return s.name == name; });
    if (spec == specs.end()) {
      std::string message = unknown;
      if (auto guess = did_you_mean(key, known)) {
        message += "; did you mean \"" + *guess + "\"?";
      } else if (auto owner = choice_owner(specs, value)) {
        message += "; \"" + show_key(value.get<std::string>()) + "\" is a choice of \"" + *owner + "\"";
      }
      issues.push_back({child_path(path, show_key(key)), message});
      continue;
    }
    check_value(*spec, value, child_path(path, show_key(key)), scope, issues);
  }
  for (const auto& spec : specs) {
    if (spec.required && !object.contains(spec.name)) issues.push_back({child_path(path, spec.name), "missing"});
  }
}

}  // namespace

void check_params(const std::vector<param_spec>& specs, const json& object, const std::string& path,
                  const std::vector<std::string>& extra_keys, std::vector<preset_issue>& issues,
                  const check_scope& scope) {
  check_fields(specs, object, path, extra_keys, issues, scope, "unknown parameter");
}

void check_top_keys(const std::vector<param_spec>& specs, const json& object,
                    const std::vector<std::string>& extra_keys, std::vector<preset_issue>& issues) {
  check_fields(specs, object, "", extra_keys, issues, {}, "unknown key");
}

}  // namespace landform
