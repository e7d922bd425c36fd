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
                              .integer("count", &P::count, between(1, 10), "", "how many")
                              .number("size", &P::size, above(0), "cells", "how big")
                              .boolean("flag", &P::flag, "on or off")
                              .choice("how", &P::how, {{"fast", P::mode::fast}, {"exact", P::mode::exact}}, "which way")
                              .string("path", &P::path, true, "a file")
                              .number_list("levels", &P::levels, between(0, 1), 1, 4, "height units", "band edges")
                              .point_list("curve", &P::curve, between(0, 1), 2, 0, "", "control points");
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
