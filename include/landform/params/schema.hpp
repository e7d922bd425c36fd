#pragma once
/// @file
/// Parameter schemas: each stage declares its parameters once (name, type,
/// default, range or choices, unit, one-line doc). The same declaration drives
/// preset validation, `landform stages`, the generated `docs/stages.md` and the
/// canonical preset written into every manifest.

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "landform/core/error.hpp"

namespace landform {

using json = nlohmann::json;

enum class param_kind { integer, number, boolean, choice, string, number_list, point_list, custom };

/// Inclusive or exclusive numeric bounds; absent = unbounded.
struct param_range {
  std::optional<double> min;
  std::optional<double> max;
  bool min_exclusive = false;
  bool max_exclusive = false;
};

/// [lo, hi]
inline param_range between(double lo, double hi) {
  return {lo, hi, false, false};
}
/// >= lo
inline param_range at_least(double lo) {
  return {lo, std::nullopt, false, false};
}
/// > lo
inline param_range above(double lo) {
  return {lo, std::nullopt, true, false};
}
/// (lo, hi]
inline param_range above_to(double lo, double hi) {
  return {lo, hi, true, false};
}
inline param_range unbounded() {
  return {};
}

/// One parameter, type-erased: what `landform stages` prints and what
/// validation checks against.
struct param_spec {
  std::string name;
  param_kind kind = param_kind::number;
  json default_value;
  param_range range;
  std::vector<std::string> choices;  ///< for param_kind::choice
  std::string unit;                  ///< e.g. "cells", "world units", "" if unitless
  std::string doc;                   ///< one line
  std::size_t min_count = 0;         ///< lists: fewest elements
  std::size_t max_count = 0;         ///< lists: most elements (0 = no limit)
  std::size_t arity = 2;             ///< point lists: numbers per element
  bool is_path = false;              ///< string kind: a file path, resolved against the preset's folder
  std::string custom_type;           ///< custom kind: type name shown to users, e.g. "list of layer rules"
  std::string custom_range;          ///< custom kind: allowed values in words
  std::function<std::string(const json&)> custom_check;  ///< custom kind: "" or the problem

  /// "integer", "number", "boolean", "choice", "string", "number list" or "point list".
  [[nodiscard]] std::string kind_name() const;
  /// Human text for the allowed values: "0 to 64", "> 0", "nearest | bilinear".
  [[nodiscard]] std::string range_text() const;
  /// Empty when `value` is acceptable, else the problem, e.g.
  /// `-3 is below the minimum 0` or `"x" must be a number`.
  [[nodiscard]] std::string check(const json& value) const;
  [[nodiscard]] json to_json() const;

 private:
  [[nodiscard]] std::string check_list(const json& value) const;
};

/// Checks a JSON object of parameters against `specs`: every key must be a
/// spec or one of `extra_keys`; every value must pass its spec. Problems are
/// appended to `issues` with paths `<path>.<key>`; unknown keys get a
/// did-you-mean suggestion.
void check_params(const std::vector<param_spec>& specs, const json& object, const std::string& path,
                  const std::vector<std::string>& extra_keys, std::vector<preset_issue>& issues);

/// The closest name in `candidates` by edit distance, if close enough to be a
/// plausible typo.
std::optional<std::string> did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

/// A typed schema over a params struct `P`: binds each spec to a member so that
/// parsing, defaults and serialisation come from the one declaration. Defaults
/// are the member initialisers of `P`.
template <class P>
class param_schema {
 public:
  param_schema& integer(std::string name, int P::*member, param_range range, std::string unit, std::string doc) {
    return add<int>(std::move(name), param_kind::integer, member, range, {}, std::move(unit), std::move(doc));
  }
  param_schema& number(std::string name, double P::*member, param_range range, std::string unit, std::string doc) {
    return add<double>(std::move(name), param_kind::number, member, range, {}, std::move(unit), std::move(doc));
  }
  param_schema& boolean(std::string name, bool P::*member, std::string doc) {
    return add<bool>(std::move(name), param_kind::boolean, member, {}, {}, "", std::move(doc));
  }
  /// Free text (e.g. a file path); `required` text must not be empty.
  param_schema& string(std::string name, std::string P::*member, bool required, std::string doc) {
    param_range r;
    if (required) r.min = 1;  // minimum length
    return add<std::string>(std::move(name), param_kind::string, member, r, {}, "", std::move(doc));
  }
  /// A file path (required): relative paths are resolved against the folder
  /// of the preset file by the pipeline.
  param_schema& path(std::string name, std::string P::*member, std::string doc) {
    string(std::move(name), member, true, std::move(doc));
    m_specs.back().is_path = true;
    return *this;
  }
  /// A list of numbers, each within `range`, with min_count..max_count (0 =
  /// unbounded) elements.
  param_schema& number_list(std::string name, std::vector<double> P::*member, param_range range, std::size_t min_count,
                            std::size_t max_count, std::string unit, std::string doc) {
    add<std::vector<double>>(std::move(name), param_kind::number_list, member, range, {}, std::move(unit),
                             std::move(doc));
    m_specs.back().min_count = min_count;
    m_specs.back().max_count = max_count;
    return *this;
  }
  /// A list of [x, y] points (e.g. curve control points), each coordinate
  /// within `range`.
  param_schema& point_list(std::string name, std::vector<std::array<double, 2>> P::*member, param_range range,
                           std::size_t min_count, std::size_t max_count, std::string unit, std::string doc) {
    return tuple_list<2>(std::move(name), member, range, min_count, max_count, std::move(unit), std::move(doc));
  }
  /// A list of fixed-size number tuples, e.g. colour stops [height, r, g, b].
  template <std::size_t N>
  param_schema& tuple_list(std::string name, std::vector<std::array<double, N>> P::*member, param_range range,
                           std::size_t min_count, std::size_t max_count, std::string unit, std::string doc) {
    add<std::vector<std::array<double, N>>>(std::move(name), param_kind::point_list, member, range, {}, std::move(unit),
                                            std::move(doc));
    m_specs.back().min_count = min_count;
    m_specs.back().max_count = max_count;
    m_specs.back().arity = N;
    return *this;
  }
  /// A structured value with its own checking, parsing and serialisation
  /// (e.g. a list of rule objects). `check` returns "" or the problem.
  template <class T>
  param_schema& custom(std::string name, T P::*member, std::string type_name, std::string allowed,
                       std::function<std::string(const json&)> check, std::function<T(const json&)> parse,
                       std::function<json(const T&)> serialise, std::string doc) {
    param_spec spec;
    spec.name = std::move(name);
    spec.kind = param_kind::custom;
    spec.default_value = serialise(P{}.*member);
    spec.doc = std::move(doc);
    spec.custom_type = std::move(type_name);
    spec.custom_range = std::move(allowed);
    spec.custom_check = std::move(check);
    m_specs.push_back(std::move(spec));
    m_setters.push_back([member, parse](P& p, const json& v) { p.*member = parse(v); });
    m_getters.push_back([member, serialise](const P& p) { return serialise(p.*member); });
    return *this;
  }
  /// An enumeration stored as `E` and written in JSON as one of the names.
  template <class E>
  param_schema& choice(std::string name, E P::*member, std::vector<std::pair<std::string, E>> options,
                       std::string doc) {
    param_spec spec;
    spec.name = name;
    spec.kind = param_kind::choice;
    for (const auto& option : options) spec.choices.push_back(option.first);
    spec.doc = std::move(doc);
    auto to_name = [options](E value) {
      for (const auto& option : options)
        if (option.second == value) return option.first;
      return options.front().first;
    };
    spec.default_value = to_name(P{}.*member);
    m_specs.push_back(std::move(spec));
    m_setters.push_back([member, options](P& p, const json& v) {
      for (const auto& option : options)
        if (option.first == v.get<std::string>()) p.*member = option.second;
    });
    m_getters.push_back([member, to_name](const P& p) { return json(to_name(p.*member)); });
    return *this;
  }

  [[nodiscard]] const std::vector<param_spec>& specs() const { return m_specs; }

  /// Parameters from an object that passed check_params; absent keys keep
  /// their defaults, keys that are not parameters are ignored.
  [[nodiscard]] P parse(const json& object) const {
    P p{};
    for (std::size_t k = 0; k < m_specs.size(); ++k) {
      auto it = object.find(m_specs[k].name);
      if (it != object.end()) m_setters[k](p, *it);
    }
    return p;
  }

  /// Every parameter, defaults included: the canonical form.
  [[nodiscard]] json to_json(const P& p) const {
    json out = json::object();
    for (std::size_t k = 0; k < m_specs.size(); ++k) out[m_specs[k].name] = m_getters[k](p);
    return out;
  }

 private:
  template <class T>
  param_schema& add(std::string name, param_kind kind, T P::*member, param_range range,
                    std::vector<std::string> choices, std::string unit, std::string doc) {
    param_spec spec;
    spec.name = std::move(name);
    spec.kind = kind;
    spec.default_value = json(P{}.*member);
    spec.range = range;
    spec.choices = std::move(choices);
    spec.unit = std::move(unit);
    spec.doc = std::move(doc);
    m_specs.push_back(std::move(spec));
    m_setters.push_back([member](P& p, const json& v) { p.*member = v.get<T>(); });
    m_getters.push_back([member](const P& p) { return json(p.*member); });
    return *this;
  }

  std::vector<param_spec> m_specs;
  std::vector<std::function<void(P&, const json&)>> m_setters;
  std::vector<std::function<json(const P&)>> m_getters;
};

}  // namespace landform
