#pragma once
/// @file
/// Parameter schemas: each stage, output kind and preset section declares its
/// keys once (name, type, default, range or choices, unit, one-line doc, visual
/// effect). The same declaration drives preset validation, `landform stages`,
/// the generated `docs/stages.md` and the canonical preset written into every
/// manifest. JSON enters the library only through a schema.
///
/// Declarations read as sentences; every modifier applies to the parameter
/// declared just before it, and only the modifiers that make sense for its kind
/// compile (a choice has no unit, a number has no count):
///
///     param_schema<P>()
///         .number("feature_size", &P::feature_size).unit("world units").range(above(0))
///         .doc("size of the largest features").effect("higher = larger mountains")
///         .integer("octaves", &P::octaves).range(between(1, 16)).doc("fBm octaves summed");

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "landform/core/error.hpp"

namespace landform {

using json = nlohmann::json;

enum class param_kind {
  integer,
  number,
  boolean,
  choice,
  string,
  number_list,
  point_list,
  interval,   ///< [low, high] with low <= high
  object,     ///< a nested object checked against a sub-schema
  list_of,    ///< a list of objects, each checked against a sub-schema
  layer,      ///< the name of a layer written by an earlier stage
  integer64,  ///< a 64-bit signed integer (seeds)
  extent,     ///< N or [width, height] whole numbers, each within the range (a square N = [N, N])
  cell,       ///< [x, y] 64-bit integers, each within the range (a cell position)
};

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
/// (lo, hi)
inline param_range strictly_between(double lo, double hi) {
  return {lo, hi, true, true};
}

/// A JSON value as the user wrote it, shortened for one-line messages.
std::string show_value(const json& value);

/// Whether a JSON number is an integer in [-2^63, 2^63-1] (nlohmann stores
/// integers above 2^63 - 1 as unsigned).
bool is_int64(const json& value);

/// A key, path or word from the preset as a message shows it: at most 64
/// bytes (cut at a UTF-8 boundary, "..." appended), so a 10 MB key does not
/// fill the terminal or the error list.
std::string show_key(std::string_view key);

/// One parameter, type-erased: what `landform stages` prints and what
/// validation checks against.
struct param_spec {
  std::string name;
  param_kind kind = param_kind::number;
  json default_value;
  param_range range;
  /// What the member's type can hold (integers: its limits; unbounded for
  /// doubles). `range` must lie inside it, or a valid value would wrap.
  param_range storage;
  std::vector<std::string> choices;  ///< for param_kind::choice
  std::string unit;                  ///< e.g. "cells", "world units", "" if unitless
  std::string doc;                   ///< one line: what it is
  std::string effect;                ///< one line: what changing it does to the terrain, "" if nothing to say
  std::size_t min_count = 0;         ///< lists: fewest elements
  std::size_t max_count = 0;         ///< lists: most elements (0 = no limit)
  std::size_t arity = 2;             ///< point lists: numbers per element
  bool is_path = false;              ///< string kind: a file path, resolved against the preset's folder
  bool non_empty = false;            ///< string kind: must not be empty
  bool required = false;             ///< must be given (objects: e.g. a splat rule's name)
  bool optional = false;             ///< left out of the canonical form while at its default
  bool fallback = false;             ///< layer kind: the default layer may be missing (the reader falls back)
  std::vector<param_spec> fields;    ///< object, list_of: the sub-schema
  std::string shorthand;             ///< object: a value that is not an object means {shorthand: value}
  /// object, list_of: rules across the fields of one checked object; appends (key, problem).
  std::function<void(const json&, std::vector<std::pair<std::string, std::string>>&)> rules;

  /// "integer", "number", "boolean", "choice", "string", "number list",
  /// "point list", "interval", "object", "list of objects" or "layer".
  [[nodiscard]] std::string kind_name() const;
  /// Human text for the allowed values: "0 to 64", "> 0", "nearest | bilinear".
  [[nodiscard]] std::string range_text() const;
  /// Empty when `value` is acceptable, else the (first) problem, e.g.
  /// `-3 is below the minimum 0` or `"x" must be a number`. Layer names are
  /// not checked against layers here (see check_value).
  [[nodiscard]] std::string check(const json& value) const;
  /// The value with a shorthand expanded (objects); otherwise `value`.
  [[nodiscard]] json expanded(const json& value) const;
  [[nodiscard]] json to_json() const;

 private:
  [[nodiscard]] std::string check_list(const json& value) const;
  [[nodiscard]] std::string check_extent(const json& value) const;
  [[nodiscard]] std::string check_cell(const json& value) const;
};

/// What checking needs besides the value: the layers written so far. Layer
/// references are checked against them; null = not checked.
struct check_scope {
  const std::vector<std::string>* layers = nullptr;
};

/// Checks one value against its spec; problems go to `issues` with `path`
/// (nested objects and lists add `.key` and `[k]`).
void check_value(const param_spec& spec, const json& value, const std::string& path, const check_scope& scope,
                 std::vector<preset_issue>& issues);

/// Checks a JSON object of parameters against `specs`: every key must be a
/// spec or one of `extra_keys`; every value must pass its spec; required specs
/// must be given. Problems are appended to `issues` with paths `<path>.<key>`;
/// unknown keys get a did-you-mean suggestion.
void check_params(const std::vector<param_spec>& specs, const json& object, const std::string& path,
                  const std::vector<std::string>& extra_keys, std::vector<preset_issue>& issues,
                  const check_scope& scope = {});

/// check_params for a document's top level: issue paths are the bare keys
/// (`size`, `world.size`) and a key not in `specs` or `extra_keys` is an
/// "unknown key" (with a did-you-mean).
void check_top_keys(const std::vector<param_spec>& specs, const json& object,
                    const std::vector<std::string>& extra_keys, std::vector<preset_issue>& issues);

/// The problem with a layer name `name` given the layers written so far, or
/// "" when it is one of them: `"moistrue" is not a layer written by an earlier
/// stage (written: moisture); did you mean "moisture"?`.
std::string check_layer_name(const std::string& name, const std::vector<std::string>& known);

/// The closest name in `candidates` by edit distance, if close enough to be a
/// plausible typo.
std::optional<std::string> did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

template <class P, param_kind K>
class param_decl;

/// Rules across parameters of `P`, if `P` declares them:
/// `void check(std::vector<std::pair<std::string, std::string>>&) const`.
template <class P>
concept has_rules = requires(const P& p, std::vector<std::pair<std::string, std::string>>& out) {
  p.check(out);
};

/// A typed schema over a params struct `P`: binds each spec to a member so that
/// parsing, defaults and serialisation come from the one declaration. Defaults
/// are the member initialisers of `P`. Declarations return a param_decl that
/// takes the modifiers of that kind (see the file comment).
template <class P>
class param_schema {
 public:
  using pair = std::array<double, 2>;

  param_decl<P, param_kind::integer> integer(std::string name, int P::*member) && {
    return declare<param_kind::integer>(std::move(name), member);
  }
  param_decl<P, param_kind::number> number(std::string name, double P::*member) && {
    return declare<param_kind::number>(std::move(name), member);
  }
  /// An optional number: absent = not set (left out of the canonical form).
  param_decl<P, param_kind::number> number(std::string name, std::optional<double> P::*member) && {
    param_spec spec = make_spec(std::move(name), param_kind::number);
    spec.optional = true;
    spec.default_value = optional_json(P{}.*member);
    m_specs.push_back(std::move(spec));
    m_setters.push_back([member](P& p, const json& v) { p.*member = v.get<double>(); });
    m_getters.push_back([member](const P& p) { return optional_json(p.*member); });
    return param_decl<P, param_kind::number>(std::move(*this));
  }
  param_decl<P, param_kind::boolean> boolean(std::string name, bool P::*member) && {
    return declare<param_kind::boolean>(std::move(name), member);
  }
  /// Free text; `.non_empty()` forbids "".
  param_decl<P, param_kind::string> string(std::string name, std::string P::*member) && {
    return declare<param_kind::string>(std::move(name), member);
  }
  /// A file path (non-empty): relative paths are resolved against the folder
  /// of the preset file by the pipeline.
  param_decl<P, param_kind::string> path(std::string name, std::string P::*member) && {
    auto decl = declare<param_kind::string>(std::move(name), member);
    decl.last().is_path = true;
    decl.last().non_empty = true;
    return decl;
  }
  /// The name of a layer an earlier stage writes; checked against the layers
  /// written so far (a misspelt name gets a did-you-mean). An empty default
  /// means "no layer" and is left out of the canonical form.
  param_decl<P, param_kind::layer> layer(std::string name, std::string P::*member) && {
    return declare<param_kind::layer>(std::move(name), member);
  }
  /// A 64-bit signed integer, e.g. a seed; `.range(...)` bounds it.
  param_decl<P, param_kind::integer64> integer64(std::string name, std::int64_t P::*member) && {
    return declare<param_kind::integer64>(std::move(name), member);
  }
  /// A size: N (square) or [width, height], whole numbers each within
  /// `.range(...)`; stored as {width, height}.
  param_decl<P, param_kind::extent> extent(std::string name, std::array<int, 2> P::*member) && {
    param_spec spec = make_spec(std::move(name), param_kind::extent);
    spec.default_value = json(P{}.*member);
    m_specs.push_back(std::move(spec));
    m_setters.push_back([member](P& p, const json& v) {
      p.*member = v.is_array() ? v.get<std::array<int, 2>>() : std::array<int, 2>{v.get<int>(), v.get<int>()};
    });
    m_getters.push_back([member](const P& p) { return json(p.*member); });
    return param_decl<P, param_kind::extent>(std::move(*this));
  }
  /// A cell position [x, y] in 64-bit whole cells, each within `.range(...)`.
  param_decl<P, param_kind::cell> cell(std::string name, std::array<std::int64_t, 2> P::*member) && {
    return declare<param_kind::cell>(std::move(name), member);
  }
  /// A list of numbers; `.count(min, max)` and `.range(...)` per element.
  param_decl<P, param_kind::number_list> number_list(std::string name, std::vector<double> P::*member) && {
    return declare<param_kind::number_list>(std::move(name), member);
  }
  /// A list of [x, y] points (e.g. curve control points).
  param_decl<P, param_kind::point_list> point_list(std::string name, std::vector<pair> P::*member) && {
    return std::move(*this).template tuple_list<2>(std::move(name), member);
  }
  /// A list of fixed-size number tuples, e.g. colour stops [height, r, g, b].
  template <std::size_t N>
  param_decl<P, param_kind::point_list> tuple_list(std::string name, std::vector<std::array<double, N>> P::*member) && {
    auto decl = declare<param_kind::point_list>(std::move(name), member);
    decl.last().arity = N;
    return decl;
  }
  /// [low, high] with low <= high, each within `.range(...)`.
  param_decl<P, param_kind::interval> interval(std::string name, pair P::*member) && {
    return declare<param_kind::interval>(std::move(name), member);
  }
  /// An optional [low, high]: absent = not set (left out of the canonical form).
  param_decl<P, param_kind::interval> interval(std::string name, std::optional<pair> P::*member) && {
    param_spec spec = make_spec(std::move(name), param_kind::interval);
    spec.optional = true;
    spec.default_value = optional_json(P{}.*member);
    m_specs.push_back(std::move(spec));
    m_setters.push_back([member](P& p, const json& v) { p.*member = v.get<pair>(); });
    m_getters.push_back([member](const P& p) { return optional_json(p.*member); });
    return param_decl<P, param_kind::interval>(std::move(*this));
  }
  /// An enumeration stored as `E` and written in JSON as one of the names.
  template <class E>
  param_decl<P, param_kind::choice> choice(std::string name, E P::*member,
                                           std::vector<std::pair<std::string, E>> options) && {
    param_spec spec = make_spec(std::move(name), param_kind::choice);
    for (const auto& option : options) spec.choices.push_back(option.first);
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
    return param_decl<P, param_kind::choice>(std::move(*this));
  }
  /// A nested object checked against `sub` (and `S`'s rules, if any).
  template <class S>
  param_decl<P, param_kind::object> object(std::string name, S P::*member, param_schema<S> sub) && {
    param_spec spec = nested_spec(std::move(name), param_kind::object, sub);
    spec.default_value = sub.to_json(P{}.*member);
    m_specs.push_back(std::move(spec));
    m_setters.push_back([member, sub](P& p, const json& v) { p.*member = sub.parse(v); });
    m_getters.push_back([member, sub](const P& p) { return sub.to_json(p.*member); });
    return param_decl<P, param_kind::object>(std::move(*this));
  }
  /// An optional nested object: absent = not set (left out of the canonical
  /// form).
  template <class S>
  param_decl<P, param_kind::object> object(std::string name, std::optional<S> P::*member, param_schema<S> sub) && {
    param_spec spec = nested_spec(std::move(name), param_kind::object, sub);
    spec.optional = true;
    m_specs.push_back(std::move(spec));
    m_setters.push_back([member, sub](P& p, const json& v) { p.*member = sub.parse(v); });
    m_getters.push_back([member, sub](const P& p) { return p.*member ? sub.to_json(*(p.*member)) : json(); });
    return param_decl<P, param_kind::object>(std::move(*this));
  }
  /// A list of objects, each checked against `sub`; `.count(min, max)`.
  template <class S>
  param_decl<P, param_kind::list_of> list_of(std::string name, std::vector<S> P::*member, param_schema<S> sub) && {
    param_spec spec = nested_spec(std::move(name), param_kind::list_of, sub);
    auto serialise = [sub](const std::vector<S>& list) {
      json out = json::array();
      for (const S& s : list) out.push_back(sub.to_json(s));
      return out;
    };
    spec.default_value = serialise(P{}.*member);
    m_specs.push_back(std::move(spec));
    m_setters.push_back([member, sub](P& p, const json& v) {
      std::vector<S> list;
      for (const json& e : v) list.push_back(sub.parse(e));
      p.*member = std::move(list);
    });
    m_getters.push_back([member, serialise](const P& p) { return serialise(p.*member); });
    return param_decl<P, param_kind::list_of>(std::move(*this));
  }

  [[nodiscard]] const std::vector<param_spec>& specs() const { return m_specs; }

  /// Parameters from an object that passed check_params; absent keys keep
  /// their defaults, keys that are not parameters are ignored.
  [[nodiscard]] P parse(const json& object) const {
    P p{};
    for (std::size_t k = 0; k < m_specs.size(); ++k) {
      auto it = object.find(m_specs[k].name);
      if (it != object.end()) m_setters[k](p, m_specs[k].expanded(*it));
    }
    return p;
  }

  /// Every parameter, defaults included (optional ones only when not at
  /// their default): the canonical form.
  [[nodiscard]] json to_json(const P& p) const {
    json out = json::object();
    for (std::size_t k = 0; k < m_specs.size(); ++k) {
      json value = m_getters[k](p);
      if (m_specs[k].optional && value == m_specs[k].default_value) continue;
      out[m_specs[k].name] = std::move(value);
    }
    return out;
  }

 protected:
  param_spec& last() { return m_specs.back(); }

 private:
  template <class T>
  static json optional_json(const std::optional<T>& v) {
    return v ? json(*v) : json();
  }
  static param_spec make_spec(std::string name, param_kind kind) {
    param_spec spec;
    spec.name = std::move(name);
    spec.kind = kind;
    return spec;
  }
  template <class S>
  static param_spec nested_spec(std::string name, param_kind kind, const param_schema<S>& sub) {
    param_spec spec = make_spec(std::move(name), kind);
    spec.fields = sub.specs();
    if constexpr (has_rules<S>) {
      spec.rules = [sub](const json& v, std::vector<std::pair<std::string, std::string>>& out) {
        sub.parse(v).check(out);
      };
    }
    return spec;
  }
  template <param_kind K, class T>
  param_decl<P, K> declare(std::string name, T P::*member) {
    param_spec spec = make_spec(std::move(name), K);
    spec.default_value = json(P{}.*member);
    if constexpr (std::is_integral_v<T>) {
      spec.storage = between(static_cast<double>(std::numeric_limits<T>::lowest()),
                             static_cast<double>(std::numeric_limits<T>::max()));
    }
    if constexpr (K == param_kind::layer) spec.optional = spec.default_value == "";
    m_specs.push_back(std::move(spec));
    m_setters.push_back([member](P& p, const json& v) { p.*member = v.get<T>(); });
    m_getters.push_back([member](const P& p) { return json(p.*member); });
    return param_decl<P, K>(std::move(*this));
  }

  std::vector<param_spec> m_specs;
  std::vector<std::function<void(P&, const json&)>> m_setters;
  std::vector<std::function<json(const P&)>> m_getters;
};

/// A param_schema whose last parameter has kind `K`: takes the modifiers that
/// apply to that kind, then the next declaration.
template <class P, param_kind K>
class param_decl : public param_schema<P> {
  static constexpr bool k_numeric = K == param_kind::integer || K == param_kind::number ||
                                    K == param_kind::number_list || K == param_kind::point_list ||
                                    K == param_kind::interval || K == param_kind::integer64 ||
                                    K == param_kind::extent || K == param_kind::cell;
  static constexpr bool k_counted =
      K == param_kind::number_list || K == param_kind::point_list || K == param_kind::list_of;

 public:
  explicit param_decl(param_schema<P>&& schema) : param_schema<P>(std::move(schema)) {}

  /// One line: what the parameter is.
  param_decl&& doc(std::string text) && {
    this->last().doc = std::move(text);
    return std::move(*this);
  }
  /// One line: what changing it does to the terrain ("higher = more small detail").
  param_decl&& effect(std::string text) && {
    this->last().effect = std::move(text);
    return std::move(*this);
  }
  /// "cells", "world units", "degrees"...
  param_decl&& unit(std::string text) && requires k_numeric {
    this->last().unit = std::move(text);
    return std::move(*this);
  }
  /// Allowed values (each element's, for lists).
  param_decl&& range(param_range r) && requires k_numeric {
    this->last().range = r;
    return std::move(*this);
  }
  /// Fewest and most elements (max 0 = no limit).
  param_decl&& count(std::size_t min, std::size_t max) && requires k_counted {
    this->last().min_count = min;
    this->last().max_count = max;
    return std::move(*this);
  }
  /// Text that must not be empty.
  /// A path parameter that may be "" (the stage then reads no file).
  param_decl&& may_be_empty() && requires(K == param_kind::string) {
    this->last().non_empty = false;
    return std::move(*this);
  }
  param_decl&& non_empty() && requires(K == param_kind::string) {
    this->last().non_empty = true;
    return std::move(*this);
  }
  /// The key must be given (a field without a sensible default).
  param_decl&& required() && {
    this->last().required = true;
    return std::move(*this);
  }
  /// Left out of the canonical form while at its default.
  param_decl&& optional() && {
    this->last().optional = true;
    return std::move(*this);
  }
  /// The default layer may be missing (the reader falls back); any other name
  /// must be a layer written by an earlier stage.
  param_decl&& fallback() && requires(K == param_kind::layer) {
    this->last().fallback = true;
    return std::move(*this);
  }
  /// A value that is not an object stands for {field: value}.
  param_decl&& shorthand(std::string field) && requires(K == param_kind::object) {
    this->last().shorthand = std::move(field);
    return std::move(*this);
  }
};

}  // namespace landform
