// Limits the CLI reports before or after a build (issue 13): the run-time
// estimate (a warning, or exit 2 beyond --max-seconds) and a constant result.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_harness.hpp"

namespace {

using landform_test::cli_result;
using landform_test::list_tree;
using landform_test::read_text;
using landform_test::run_cli;
using landform_test::temp_dir;
using json = nlohmann::json;

// 100 droplets per cell over 16384^2 cells: about a day on one core.
const std::string k_hours_preset = R"({"landform": 1, "size": 16384,
  "stages": [{"type": "hydraulic_erosion", "droplets_per_cell": 100}],
  "outputs": [{"map": "height", "format": "png16", "file": "h.png"}]})";

}  // namespace

TEST_CASE("cli: validate warns about a preset estimated to run for hours", "[cli][limits]") {
  const temp_dir dir;
  const auto preset = dir.write("p.json", k_hours_preset);
  const cli_result r = run_cli({"validate", preset.string()});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.err.rfind("landform: warning: stages[0] (hydraulic_erosion): estimated run time ", 0) == 0);
  CHECK(r.err.find(" h on one core") != std::string::npos);
}

TEST_CASE("cli: --max-seconds refuses a long preset with exit 2 and writes nothing", "[cli][limits]") {
  const temp_dir dir;
  const auto preset = dir.write("p.json", k_hours_preset);
  for (const std::string command : {"validate", "build"}) {
    std::vector<std::string> args = {command, preset.string(), "--max-seconds", "60"};
    if (command == "build") args.insert(args.end(), {"-o", (dir / "out").string()});
    const cli_result r = run_cli(args);
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("landform: error: stages[0] (hydraulic_erosion): estimated run time ") == 0);
    CHECK(r.err.find("more than --max-seconds 60") != std::string::npos);
  }
  CHECK(list_tree(dir.path()) == std::vector<std::string>{"p.json"});
  // A small preset passes the same limit silently.
  const auto small = dir.write("s.json", R"({"size": 32, "stages": [{"type": "fault_line", "iterations": 50}]})");
  const cli_result ok = run_cli({"validate", small.string(), "--max-seconds", "60"});
  CHECK(ok.exit_code == 0);
  CHECK(ok.err.empty());
  // A tiny limit refuses even a tiny preset, with an estimate that is not "0.0 s".
  const cli_result tiny = run_cli({"validate", small.string(), "--max-seconds", "1e-300"});
  INFO(tiny.err);
  CHECK(tiny.exit_code == 2);
  CHECK(tiny.err.find("estimated run time 0.0 s") == std::string::npos);
  CHECK(tiny.err.find(" s on one core") != std::string::npos);
  CHECK(tiny.err.find("more than --max-seconds 1e-300") != std::string::npos);
}

TEST_CASE("cli: --max-seconds must be above 0, said in words", "[cli][limits]") {
  for (const std::string value : {"0", "-5", "abc", "0x10", "+5", " 5", "inf"}) {
    const cli_result r = run_cli({"validate", "--max-seconds", value});
    INFO(r.err);
    CHECK(r.exit_code == 2);
    // CLI11's own check wrote DBL_MAX out in 309 digits.
    CHECK(r.err == "landform: error: --max-seconds: must be a finite number above 0 (see landform --help)\n");
  }
}

TEST_CASE("cli: a constant result builds with a warning", "[cli][limits]") {
  const temp_dir dir;
  const auto preset = dir.write("p.json", R"({"size": 16, "stages": [{"type": "constant", "value": 0.25}],
    "outputs": [{"map": "height", "format": "png16", "file": "h.png"}]})");
  const cli_result r = run_cli({"build", preset.string(), "-o", (dir / "out").string(), "-q"});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.err ==
        "landform: warning: every height is 0.25: the result is constant (a flat map normalised, or "
        "stages that cancel out?)\n");
  // Negative zeros read as 0, not "-0".
  const auto zero = dir.write("z.json", R"({"size": 16, "stages": [{"type": "constant", "value": -0.0}],
    "outputs": [{"map": "height", "format": "r32", "file": "h.r32"}]})");
  const cli_result z = run_cli({"build", zero.string(), "-o", (dir / "z").string()});
  CHECK(z.err.find("every height is 0: ") != std::string::npos);
  CHECK(z.err.find("heights 0.0000..0.0000") != std::string::npos);
}

TEST_CASE("cli: the build summary names the file that clamped, not the heights", "[cli][limits]") {
  const temp_dir dir;
  // Heights in [0, 1]; the layer output's fixed range [0.4, 0.6] clamps the
  // gradient's cells outside it, and the heights' png16 clamps nothing.
  const auto preset = dir.write("p.json", R"({"size": 16, "stages": [{"type": "gradient"},
      {"type": "gradient", "target": "ramp"}],
    "outputs": [{"map": "height", "format": "png16", "file": "h.png"},
                {"map": "ramp", "format": "png16", "range": "fixed", "min": 0.4, "max": 0.6, "file": "ramp.png"}]})");
  const cli_result r = run_cli({"build", preset.string(), "-o", (dir / "out").string()});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.err.find(" cells of ramp.png were clamped to its range\n") != std::string::npos);
  CHECK(r.err.find("outside [0, 1]") == std::string::npos);
  const json manifest = json::parse(read_text(dir / "out" / "manifest.json"));
  CHECK(manifest["clipped_cells"] == 0);
}
