// Named variables: `--var NAME=VALUE` and `--vars FILE`, referenced in a
// preset as "${NAME}" (the value, type kept) or inside a string; substituted
// before validation, into the canonical preset; --set applies after them.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_harness.hpp"
#include "landform/core/error.hpp"
#include "landform/pipeline/preset_variables.hpp"

namespace {

using landform_test::cli_result;
using landform_test::list_tree;
using landform_test::read_text;
using landform_test::run_cli;
using landform_test::temp_dir;
using json = nlohmann::json;

const std::string k_preset = R"({
  "landform": 1, "size": 32, "seed": "${seed}",
  "stages": [
    {"type": "opensimplex", "feature_size": "${feature}"},
    {"type": "perturb", "magnitude": "${mag}"}
  ],
  "outputs": [{"map": "height", "format": "png16", "file": "${name}/height-${seed}.png"}]
})";

std::string describe(const cli_result& r) {
  return "exit " + std::to_string(r.exit_code) + "\n--- stdout\n" + r.out + "--- stderr\n" + r.err;
}

// Builds k_preset in `dir` with `args`; requires success; returns the manifest.
json build_ok(const temp_dir& dir, const std::vector<std::string>& args, cli_result* out = nullptr) {
  const auto preset = dir.write("preset.json", k_preset);
  std::vector<std::string> all = {"build", preset.string(), "-o", (dir / "out").string(), "-q"};
  all.insert(all.end(), args.begin(), args.end());
  const cli_result r = run_cli(all, dir.path());
  INFO(describe(r));
  REQUIRE(r.exit_code == 0);
  if (out) *out = r;
  return json::parse(read_text(dir / "out/manifest.json"));
}

const std::vector<std::string> k_all_vars = {"--var", "seed=5",  "--var", "feature=24",
                                             "--var", "mag=3.5", "--var", "name=tiles"};

}  // namespace

TEST_CASE("cli variables: numbers stay numbers, strings are spliced", "[cli][variables]") {
  const temp_dir dir;
  cli_result r;
  const json manifest = build_ok(dir, k_all_vars, &r);
  CHECK(r.err.empty());
  const json& preset = manifest["preset"];
  CHECK(preset["seed"] == 5);
  CHECK(preset["seed"].is_number_integer());
  CHECK(preset["stages"][0]["feature_size"] == 24.0);
  CHECK(preset["stages"][1]["magnitude"] == 3.5);
  CHECK(preset["outputs"][0]["file"] == "tiles/height-5.png");
  CHECK(manifest["seed"] == 5);
  CHECK(list_tree(dir / "out") == std::vector<std::string>{"manifest.json", "tiles", "tiles/height-5.png"});

  SECTION("the same preset written out with the values builds the same files") {
    const temp_dir plain;
    std::string text = k_preset;
    for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{{"\"${seed}\"", "5"},
                                                                                   {"\"${feature}\"", "24"},
                                                                                   {"\"${mag}\"", "3.5"},
                                                                                   {"${name}", "tiles"},
                                                                                   {"${seed}", "5"}}) {
      text.replace(text.find(from), from.size(), to);
    }
    const auto file = plain.write("preset.json", text);
    REQUIRE(run_cli({"build", file.string(), "-o", (plain / "out").string(), "-q"}).exit_code == 0);
    CHECK(read_text(plain / "out/tiles/height-5.png") == read_text(dir / "out/tiles/height-5.png"));
    CHECK(read_text(plain / "out/manifest.json") == read_text(dir / "out/manifest.json"));
  }
}

TEST_CASE("cli variables: an undefined variable names the JSON path, exit 2, nothing written", "[cli][variables]") {
  const temp_dir dir;
  const auto preset = dir.write("preset.json", k_preset);
  const cli_result r = run_cli({"build", preset.string(), "-o", (dir / "out").string(), "--var", "seed=5", "--var",
                                "feature=24", "--var", "name=x"},
                               dir.path());
  INFO(describe(r));
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK(r.err_lines() == std::vector<std::string>{
                             "landform: error: stages[1] (perturb).magnitude: \"${mag}\" uses the undefined variable "
                             "\"mag\" (define it with --var mag=VALUE or in a --vars file)"});
  CHECK(list_tree(dir.path()) == std::vector<std::string>{"preset.json"});

  SECTION("every undefined variable at once, validate too") {
    const cli_result v = run_cli({"validate", preset.string()}, dir.path());
    CHECK(v.exit_code == 2);
    CHECK(v.err_lines().size() == 4);  // seed, feature, mag, and the first of the file name
  }
}

TEST_CASE("cli variables: a variable the preset does not use is a warning", "[cli][variables]") {
  const temp_dir dir;
  std::vector<std::string> args = k_all_vars;
  args.insert(args.end(), {"--var", "unused=1"});
  cli_result r;
  build_ok(dir, args, &r);
  CHECK(r.err_lines() ==
        std::vector<std::string>{"landform: warning: --var unused: the preset does not use the variable \"unused\""});
}

TEST_CASE("cli variables: a --vars file, --var over it, --set after both", "[cli][variables]") {
  const temp_dir dir;
  const auto vars = dir.write("vars.json", R"({"seed": 9, "feature": 30, "mag": 2, "name": "a", "spare": [1]})");
  cli_result r;
  const json m = build_ok(dir, {"--vars", vars.string(), "--var", "mag=6", "--set", "stages.0.feature_size=12"}, &r);
  CHECK(m["preset"]["seed"] == 9);
  CHECK(m["preset"]["stages"][1]["magnitude"] == 6.0);      // --var beats the file
  CHECK(m["preset"]["stages"][0]["feature_size"] == 12.0);  // --set beats the variable
  CHECK(m["preset"]["outputs"][0]["file"] == "a/height-9.png");
  CHECK(r.err_lines() == std::vector<std::string>{"landform: warning: --vars " + vars.string() +
                                                  ": the preset does not use the variable \"spare\""});

  SECTION("a variables file that is not an object") {
    const auto bad = dir.write("bad.json", "[1, 2]");
    const auto preset = dir.write("preset.json", k_preset);
    const cli_result b = run_cli({"validate", preset.string(), "--vars", bad.string()});
    CHECK(b.exit_code == 2);
    CHECK(b.err_lines() == std::vector<std::string>{"landform: error: --vars " + bad.string() +
                                                    ": a variables file must be a JSON object {\"name\": value, ...}"});
  }
  SECTION("a variables file that is missing is called one") {
    const auto preset = dir.write("preset.json", k_preset);
    const std::string missing = (dir.path() / "none.json").string();
    const cli_result b = run_cli({"validate", preset.string(), "--vars", missing});
    CHECK(b.exit_code == 1);  // an I/O failure, as for a missing preset
    CHECK(b.err_lines() == std::vector<std::string>{"landform: error: cannot read variables file '" + missing +
                                                    "': no such file or not readable"});
  }
}

TEST_CASE("substitute_variables: splicing, escapes and bad references", "[variables]") {
  const landform::preset_variables vars = {{"n", 7}, {"f", 0.5}, {"s", "x"}, {"b", true}, {"a", json::array({1})}};
  json preset = {{"a", "${n}-${f}-${s}-${b}"}, {"e", "$${n} costs $5"}, {"w", "${a}"}, {"k", {{"${n}", 1}}}};
  CHECK(landform::substitute_variables(preset, vars) == std::set<std::string>{"n", "f", "s", "b", "a"});
  CHECK(preset["a"] == "7-0.5-x-true");
  CHECK(preset["e"] == "${n} costs $5");
  CHECK(preset["w"] == json::array({1}));
  CHECK(preset["k"].contains("${n}"));  // keys are not substituted

  json bad = {{"p", "x${a}"}, {"q", "${n"}, {"r", "${9x}"}};
  const json before = bad;
  try {
    landform::substitute_variables(bad, vars);
    FAIL("no error");
  } catch (const landform::preset_error& e) {
    REQUIRE(e.issues().size() == 3);
    CHECK(e.issues()[0].to_string() == "p: variable \"a\" is array: only a whole string \"${a}\" can take it");
    CHECK(e.issues()[1].to_string() == "q: \"${n\": \"${\" without a closing \"}\" (write $${ for a literal ${)");
    CHECK(e.issues()[2].to_string() ==
          "r: \"${9x}\": \"9x\" is not a variable name (letters, digits and _, not starting with a digit)");
  }
  CHECK(bad == before);
}
