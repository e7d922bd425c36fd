// param_schema: one declaration gives defaults, checking, parsing and the
// canonical form, for every parameter kind.

#include <catch2/catch.hpp>

#include "landform/params/schema.hpp"

namespace {

using namespace landform;

struct sample_params {
  enum class mode { fast, exact };
  int count = 3;
  double size = 1.5;
  bool flag = false;
  mode how = mode::exact;
  std::string path = "in.png";
  std::vector<double> levels = {0.25, 0.5};
  std::vector<std::array<double, 2>> curve = {{0.0, 0.0}, {1.0, 1.0}};

  static const param_schema<sample_params>& schema() {
    using P = sample_params;
    static const auto s = param_schema<P>()
                              .integer("count", &P::count)
                              .range(between(1, 10))
                              .doc("how many")
                              .number("size", &P::size)
                              .unit("cells")
                              .range(above(0))
                              .doc("how big")
                              .boolean("flag", &P::flag)
                              .doc("on or off")
                              .choice("how", &P::how, {{"fast", P::mode::fast}, {"exact", P::mode::exact}})
                              .doc("which way")
                              .string("path", &P::path)
                              .non_empty()
                              .doc("a file")
                              .number_list("levels", &P::levels)
                              .count(1, 4)
                              .unit("height units")
                              .range(between(0, 1))
                              .doc("band edges")
                              .point_list("curve", &P::curve)
                              .count(2, 0)
                              .range(between(0, 1))
                              .doc("control points");
    return s;
  }
};

std::string check(const std::string& name, const json& value) {
  for (const auto& spec : sample_params::schema().specs())
    if (spec.name == name) return spec.check(value);
  FAIL("no spec " << name);
  return {};
}

}  // namespace

TEST_CASE("schema: defaults come from the struct's initialisers", "[schema]") {
  const json defaults = sample_params::schema().to_json(sample_params{});
  CHECK(defaults == json::parse(R"({"count": 3, "size": 1.5, "flag": false, "how": "exact", "path": "in.png",
                                    "levels": [0.25, 0.5], "curve": [[0.0, 0.0], [1.0, 1.0]]})"));
  const auto& specs = sample_params::schema().specs();
  REQUIRE(specs.size() == 7);
  CHECK(specs[3].default_value == "exact");
  CHECK(specs[5].kind_name() == "number list");
  CHECK(specs[6].range_text() == "2 or more [x, y] points, each number 0 to 1");
}

TEST_CASE("schema: every kind rejects wrong values with the rule", "[schema]") {
  CHECK(check("count", 11) == "11 is above the maximum 10");
  CHECK(check("count", 2.5) == "2.5 must be an integer");
  CHECK(check("size", 0) == "0 must be greater than 0");
  CHECK(check("size", "big") == "\"big\" must be a number");
  CHECK(check("flag", 1) == "1 must be true or false");
  CHECK(check("how", "exakt") == "\"exakt\" is not one of fast | exact; did you mean \"exact\"?");
  CHECK(check("path", "") == "must not be empty");
  CHECK(check("path", 3) == "3 must be a string");
  CHECK(check("levels", json::array()) == "has 0 elements, needs at least 1");
  CHECK(check("levels", json::parse("[0.1, 0.2, 0.3, 0.4, 0.5]")) == "has 5 elements, at most 4 allowed");
  CHECK(check("levels", json::parse("[0.1, 2]")) == "element 1: 2 is above the maximum 1");
  CHECK(check("curve", json::parse("[[0, 0], [1]]")) == "element 1: [1] must be [x, y]");
  CHECK(check("curve", json::parse("[[0, 0], [1, -1]]")) == "element 1: -1 is below the minimum 0");
  CHECK(check("curve", json::parse("[[0, 0], [0.5, 0.2], [1, 1]]")).empty());
}

TEST_CASE("schema: parse reads every kind and keeps defaults for absent keys", "[schema]") {
  const auto p = sample_params::schema().parse(
      json::parse(R"({"count": 7, "how": "fast", "path": "x.r32", "curve": [[0, 1], [1, 0]]})"));
  CHECK(p.count == 7);
  CHECK(p.size == 1.5);
  CHECK(p.how == sample_params::mode::fast);
  CHECK(p.path == "x.r32");
  CHECK(p.levels == std::vector<double>{0.25, 0.5});
  REQUIRE(p.curve.size() == 2);
  CHECK(p.curve[0] == std::array<double, 2>{0.0, 1.0});
}

TEST_CASE("schema: check_params reports unknown keys with a suggestion and bad values with paths", "[schema]") {
  std::vector<preset_issue> issues;
  check_params(sample_params::schema().specs(), json::parse(R"({"type": "x", "cuont": 2, "size": -1})"),
               "stages[0] (x)", {"type"}, issues);
  REQUIRE(issues.size() == 2);
  CHECK(issues[0].to_string() == "stages[0] (x).cuont: unknown parameter; did you mean \"count\"?");
  CHECK(issues[1].to_string() == "stages[0] (x).size: -1 must be greater than 0");
}

namespace {

// Nested kinds: a band object with rules, a list of named rules, a layer.
struct band {
  std::string name;
  std::optional<std::array<double, 2>> range;
  double fade = 0.0;
  void check(std::vector<std::pair<std::string, std::string>>& problems) const {
    if (name == "bad") problems.emplace_back("name", "is not allowed");
  }
  static param_schema<band> schema() {
    using B = band;
    return param_schema<B>()
        .string("name", &B::name)
        .non_empty()
        .required()
        .doc("band name")
        .interval("range", &B::range)
        .unit("m")
        .range(between(0, 100))
        .doc("where it applies")
        .number("fade", &B::fade)
        .optional()
        .range(at_least(0))
        .doc("fade width")
        .effect("higher = softer edges");
  }
};

struct nested_params {
  std::optional<band> mask;
  std::vector<band> bands = {{"low", std::array<double, 2>{0.0, 10.0}, 0.0}};
  std::string source = "moisture";
  std::string extra;
  static const param_schema<nested_params>& schema() {
    using P = nested_params;
    static const auto s = param_schema<P>()
                              .object("mask", &P::mask, band::schema())
                              .shorthand("name")
                              .doc("one band")
                              .list_of("bands", &P::bands, band::schema())
                              .count(1, 2)
                              .doc("bands")
                              .layer("source", &P::source)
                              .fallback()
                              .doc("a layer, may be missing")
                              .layer("extra", &P::extra)
                              .doc("an optional layer");
    return s;
  }
};

std::vector<std::string> nested_issues(const json& object, const std::vector<std::string>& layers) {
  std::vector<preset_issue> issues;
  check_params(nested_params::schema().specs(), object, "x", {}, issues, check_scope{&layers});
  std::vector<std::string> out;
  for (const auto& issue : issues) out.push_back(issue.to_string());
  return out;
}

template <class D>
concept takes_unit = requires(D d) {
  std::move(d).unit("m");
};
template <class D>
concept takes_count = requires(D d) {
  std::move(d).count(1, 2);
};

}  // namespace

// Modifiers exist only after a declaration and only for kinds they fit: a
// unit on a choice, or a doc before any parameter, does not compile.
static_assert(!takes_unit<param_schema<sample_params>>);
static_assert(!takes_unit<param_decl<sample_params, param_kind::choice>>);
static_assert(takes_unit<param_decl<sample_params, param_kind::number>>);
static_assert(!takes_count<param_decl<sample_params, param_kind::number>>);
static_assert(takes_count<param_decl<sample_params, param_kind::list_of>>);

TEST_CASE("schema: named modifiers set unit, range, doc and effect of the last parameter", "[schema]") {
  const param_schema<band> schema = band::schema();
  const auto& fade = schema.specs()[2];
  CHECK(fade.name == "fade");
  CHECK(fade.range_text() == ">= 0");
  CHECK(fade.doc == "fade width");
  CHECK(fade.effect == "higher = softer edges");
  CHECK(fade.to_json()["effect"] == "higher = softer edges");
  CHECK(schema.specs()[1].unit == "m");
  CHECK(schema.specs()[1].range_text() == "[low, high], low <= high, each 0 to 100");
}

TEST_CASE("schema: objects, lists of objects and layers check with nested paths", "[schema]") {
  const std::vector<std::string> layers = {"moisture", "rocks"};
  CHECK(nested_issues(json::parse(R"({"mask": "top", "bands": [{"name": "a"}], "extra": "rocks"})"), layers).empty());
  CHECK(nested_issues(json::parse(R"({"mask": {"name": "a", "range": [5, 1], "fad": 1}})"), layers) ==
        std::vector<std::string>{"x.mask.fad: unknown key; did you mean \"fade\"?",
                                 "x.mask.range: [5,1] must have low <= high"});
  CHECK(nested_issues(json::parse(R"({"mask": {"name": "bad"}})"), layers) ==
        std::vector<std::string>{"x.mask.name: is not allowed"});
  CHECK(nested_issues(json::parse(R"({"bands": [{"range": [0, 200]}, {"name": ""}]})"), layers) ==
        std::vector<std::string>{"x.bands[0].range: 200 is above the maximum 100", "x.bands[0].name: missing",
                                 "x.bands[1].name: must not be empty"});
  CHECK(nested_issues(json::parse(R"({"bands": []})"), layers) ==
        std::vector<std::string>{"x.bands: has 0 elements, needs 1 to 2"});
  CHECK(nested_issues(json::parse(R"({"extra": "rock"})"), layers) ==
        std::vector<std::string>{"x.extra: \"rock\" is not a layer written by an earlier stage (written: moisture, "
                                 "rocks); did you mean \"rocks\"?"});
  // The fallback layer may be missing only under its default name.
  CHECK(nested_issues(json::parse(R"({"source": "moisture"})"), {}).empty());
  CHECK(nested_issues(json::parse(R"({"source": "moisure"})"), {}) ==
        std::vector<std::string>{"x.source: \"moisure\" is not a layer written by an earlier stage (none is written)"});
}

TEST_CASE("schema: nested kinds parse and leave optional fields out of the canonical form", "[schema]") {
  const auto& s = nested_params::schema();
  const auto p = s.parse(json::parse(R"({"mask": "top", "bands": [{"name": "a", "range": [1, 2], "fade": 3}]})"));
  REQUIRE(p.mask);
  CHECK(p.mask->name == "top");
  CHECK(!p.mask->range);
  REQUIRE(p.bands.size() == 1);
  CHECK(p.bands[0].range == std::array<double, 2>{1.0, 2.0});
  CHECK(p.bands[0].fade == 3.0);
  CHECK(s.to_json(p) == json::parse(R"({"mask": {"name": "top"}, "bands": [{"name": "a", "range": [1.0, 2.0],
                                         "fade": 3.0}], "source": "moisture"})"));
  CHECK(s.to_json(nested_params{}) ==
        json::parse(R"({"bands": [{"name": "low", "range": [0.0, 10.0]}], "source": "moisture"})"));
}
