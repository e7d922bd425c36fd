// `landform build --timings`: one stderr line per stage that ran (its path and
// seed key), per output, and a total, each with milliseconds; the files are
// those of a build without it.

#include <catch2/catch.hpp>

#include <regex>
#include <string>
#include <vector>

#include "cli/cli_harness.hpp"

namespace {

using landform_test::cli_result;
using landform_test::read_bytes;
using landform_test::run_cli;
using landform_test::temp_dir;

const std::string k_preset = R"({
  "landform": 1, "size": 32, "seed": 3,
  "stages": [
    {"type": "opensimplex", "feature_size": 16},
    {"type": "perturb", "magnitude": 2, "enabled": false},
    {"type": "normalize", "mode": "min_max", "id": "fit"}
  ],
  "outputs": [{"map": "height", "format": "png16"}, {"map": "normal"}]
})";

// The stderr line that ends with `label`, parsed as "<ms> ms  <label>".
double milliseconds_of(const cli_result& r, const std::string& label) {
  const std::regex line(R"(^ *([0-9]+\.[0-9]{3}) ms  (.*)$)");
  for (const auto& text : r.err_lines()) {
    std::smatch m;
    if (std::regex_match(text, m, line) && m[2] == label) return std::stod(m[1]);
  }
  FAIL("no timing line for \"" << label << "\" in\n" << r.err);
  return -1.0;
}

}  // namespace

TEST_CASE("cli build --timings: a line per stage and output, and the total", "[cli][timings]") {
  const temp_dir dir;
  const auto preset = dir.write("preset.json", k_preset);
  const cli_result r = run_cli({"build", preset.string(), "-o", (dir / "out").string(), "-q", "--timings"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.empty());  // --quiet still quiets stdout; the timings go to stderr
  REQUIRE(!r.err_lines().empty());
  CHECK(r.err_lines()[0] == "timings:");
  const double total = milliseconds_of(r, "total");
  double parts = 0.0;
  for (const std::string label :
       {"validate preset", "stages[0] (opensimplex) seed key opensimplex#0", "stages[2] (normalize) seed key fit",
        "outputs[0] (height png16) height.png", "outputs[1] (normal rgb8) normal.png", "manifest and write"}) {
    const double ms = milliseconds_of(r, label);
    CHECK(ms >= 0.0);
    parts += ms;
  }
  CHECK(parts <= total + 0.01);
  // The disabled stage does not run, so it has no line: 6 parts, the total, the heading.
  CHECK(r.err_lines().size() == 8);

  const cli_result plain = run_cli({"build", preset.string(), "-o", (dir / "plain").string(), "-q"});
  REQUIRE(plain.exit_code == 0);
  CHECK(plain.err.empty());
  CHECK(read_bytes(dir / "out/height.png") == read_bytes(dir / "plain/height.png"));
  CHECK(read_bytes(dir / "out/manifest.json") == read_bytes(dir / "plain/manifest.json"));
}

TEST_CASE("cli build --timings: a region build times its stats pass", "[cli][timings]") {
  const temp_dir dir;
  const auto preset = dir.write("preset.json", k_preset);
  const cli_result r = run_cli({"build", preset.string(), "-o", (dir / "out").string(), "-q", "--timings", "--set",
                                "world=[64,64]", "--set", "origin=[32,0]"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(milliseconds_of(r, "stats pass for stages[2] (normalize)") >= 0.0);
  CHECK(milliseconds_of(r, "stages[2] (normalize) seed key fit") >= 0.0);
}
