#include "landform/params/schema.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace landform {
namespace {

std::string format_number(double v) {
  std::ostringstream s;
  s.precision(15);
  s << v;
  return s.str();
}

// A JSON value as the user wrote it, shortened for one-line messages.
std::string show(const json& value) {
  std::string text = value.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

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
    case param_kind::custom:
      return custom_type;
  }
  return "?";
}

std::string param_spec::range_text() const {
  if (kind == param_kind::choice) {
    std::string text;
    for (const auto& c : choices) text += (text.empty() ? "" : " | ") + c;
    return text;
  }
  if (kind == param_kind::boolean) return "true | false";
  if (kind == param_kind::string) return range.min ? "non-empty text" : "text";
  if (kind == param_kind::custom) return custom_range;
  if (kind == param_kind::number_list || kind == param_kind::point_list) {
    param_spec element = *this;
    element.kind = param_kind::number;
    std::string count = std::to_string(min_count) + (max_count ? " to " + std::to_string(max_count) : " or more");
    if (kind == param_kind::number_list) return count + " values, each " + element.range_text();
    std::string text = count;
    if (arity == 2) {
      text += " [x, y] points";
    } else {
      text += " tuples of ";
      text += std::to_string(arity);
      text += " numbers";
    }
    text += ", each number ";
    text += element.range_text();
    return text;
  }
  const auto& r = range;
  if (r.min && r.max) {
    if (!r.min_exclusive && !r.max_exclusive) return format_number(*r.min) + " to " + format_number(*r.max);
    return std::string(r.min_exclusive ? "(" : "[") + format_number(*r.min) + ", " + format_number(*r.max) +
           (r.max_exclusive ? ")" : "]");
  }
  if (r.min) return (r.min_exclusive ? "> " : ">= ") + format_number(*r.min);
  if (r.max) return (r.max_exclusive ? "< " : "<= ") + format_number(*r.max);
  return "any";
}

std::string param_spec::check(const json& value) const {
  switch (kind) {
    case param_kind::boolean:
      return value.is_boolean() ? "" : show(value) + " must be true or false";
    case param_kind::choice: {
      if (!value.is_string()) return show(value) + " must be a string, one of " + range_text();
      const auto s = value.get<std::string>();
      if (std::find(choices.begin(), choices.end(), s) != choices.end()) return {};
      std::string message = show(value) + " is not one of " + range_text();
      if (auto guess = did_you_mean(s, choices)) message += "; did you mean \"" + *guess + "\"?";
      return message;
    }
    case param_kind::integer:
      if (!is_integral(value)) return show(value) + " must be an integer";
      return check_range(range, value.get<double>());
    case param_kind::number:
      if (!value.is_number()) return show(value) + " must be a number";
      if (!std::isfinite(value.get<double>())) return show(value) + " must be finite";
      return check_range(range, value.get<double>());
    case param_kind::string:
      if (!value.is_string()) return show(value) + " must be a string";
      if (range.min && value.get<std::string>().empty()) return "must not be empty";
      return {};
    case param_kind::number_list:
    case param_kind::point_list:
      return check_list(value);
    case param_kind::custom:
      return custom_check ? custom_check(value) : std::string();
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
  if (!value.is_array()) return show(value) + " must be " + what;
  if (value.size() < min_count) {
    return "has " + std::to_string(value.size()) + " elements, needs at least " + std::to_string(min_count);
  }
  if (max_count && value.size() > max_count) {
    return "has " + std::to_string(value.size()) + " elements, at most " + std::to_string(max_count) + " allowed";
  }
  for (std::size_t k = 0; k < value.size(); ++k) {
    const json& e = value[k];
    const std::string where = "element " + std::to_string(k) + ": ";
    if (points && (!e.is_array() || e.size() != arity)) return where + show(e) + " must be " + tuple;
    for (const json& number : points ? e : json::array({e})) {
      if (!number.is_number() || !std::isfinite(number.get<double>()))
        return where + show(e) + " must be finite numbers";
      if (auto problem = check_range(range, number.get<double>()); !problem.empty()) return where + problem;
    }
  }
  return {};
}

json param_spec::to_json() const {
  json out = {{"name", name}, {"type", kind_name()}, {"default", default_value}, {"doc", doc}};
  if (!unit.empty()) out["unit"] = unit;
  if (range.min) out[range.min_exclusive ? "exclusive_minimum" : "minimum"] = *range.min;
  if (range.max) out[range.max_exclusive ? "exclusive_maximum" : "maximum"] = *range.max;
  if (!choices.empty()) out["choices"] = choices;
  if (kind == param_kind::number_list || kind == param_kind::point_list) {
    out["min_count"] = min_count;
    if (max_count) out["max_count"] = max_count;
  }
  return out;
}

std::optional<std::string> did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

void check_params(const std::vector<param_spec>& specs, const json& object, const std::string& path,
                  const std::vector<std::string>& extra_keys, std::vector<preset_issue>& issues) {
  std::vector<std::string> known = extra_keys;
  for (const auto& spec : specs) known.push_back(spec.name);
  for (const auto& [key, value] : object.items()) {
    if (std::find(extra_keys.begin(), extra_keys.end(), key) != extra_keys.end()) continue;
    // (init-capture: clang 14, hence clang-tidy, cannot capture a structured binding)
    auto spec = std::find_if(specs.begin(), specs.end(), [&name = key](const param_spec& s) { return s.name == name; });
    if (spec == specs.end()) {
      std::string message = "unknown parameter";
      if (auto guess = did_you_mean(key, known)) message += "; did you mean \"" + *guess + "\"?";
      issues.push_back({path + "." + key, message});
      continue;
    }
    if (auto problem = spec->check(value); !problem.empty()) issues.push_back({path + "." + key, problem});
  }
}

}  // namespace landform
