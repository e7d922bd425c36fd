// Stale files: a build warns about files the previous build's manifest listed
// and this build does not write; --clean removes those, and nothing else.

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_harness.hpp"
#include "landform/pipeline/manifest.hpp"

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using landform_test::cli_result;
using landform_test::run_cli;
using landform_test::temp_dir;

// Five splat layers make splat_0.png and splat_1.png; four only splat_0.png.
std::string preset(bool big) {
  std::string layers = R"({"name": "a", "height": [0, 0.3]}, {"name": "b", "height": [0.3, 0.5]},
    {"name": "c", "height": [0.5, 0.7]}, {"name": "d", "height": [0.7, 1]})";
  if (big) layers += R"(, {"name": "e", "height": [0.4, 0.6]})";
  std::string outputs = R"({"map": "height", "format": "png16", "file": "a.png"},
    {"map": "splat", "file": "splat.png", "layers": [)" +
                        layers + "]}";
  if (big) outputs += R"(, {"map": "height", "format": "r32", "file": "sub/b.r32"})";
  return R"({"landform": 1, "size": 24, "stages": [{"type": "gradient"}], "outputs": [)" + outputs + "]}";
}

cli_result build(const temp_dir& dir, bool big, const std::vector<std::string>& extra = {}) {
  const fs::path p = dir.write(big ? "big.json" : "small.json", preset(big));
  std::vector<std::string> args = {"build", p.string(), "-o", (dir / "out").string(), "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_cli(args);
}

}  // namespace

TEST_CASE("cli stale files: a smaller rebuild warns about the previous build's files", "[cli][stale]") {
  const temp_dir dir;
  REQUIRE(build(dir, true).exit_code == 0);
  dir.write("out/mine.txt", "not landform's");
  const cli_result r = build(dir, false);
  CHECK(r.exit_code == 0);
  const std::string out = (dir / "out").string();
  CHECK(r.err_lines() ==
        std::vector<std::string>{"landform: warning: " + out +
                                     "/splat_1.png is from the previous build and not written by this one "
                                     "(--clean removes it)",
                                 "landform: warning: " + out +
                                     "/sub/b.r32 is from the previous build and not written by this one "
                                     "(--clean removes it)"});
  CHECK(fs::exists(dir / "out" / "splat_1.png"));  // warned, kept
  CHECK(fs::exists(dir / "out" / "sub" / "b.r32"));
  // The same build again: the previous manifest is its own, nothing is stale.
  CHECK(build(dir, false).err.empty());
}

TEST_CASE("cli stale files: --clean removes exactly the files the previous manifest listed", "[cli][stale]") {
  const temp_dir dir;
  REQUIRE(build(dir, true).exit_code == 0);
  dir.write("out/mine.txt", "not landform's");
  dir.write("out/sub/mine.txt", "not landform's either");
  const cli_result r = build(dir, false, {"--clean"});
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());  // --quiet: removals are not reported
  CHECK(landform_test::list_tree(dir / "out") ==
        std::vector<std::string>{"a.png", "manifest.json", "mine.txt", "splat_0.png", "sub", "sub/mine.txt"});

  // A manifest that names files outside the folder, or folders, is never obeyed.
  dir.write("outside.txt", "keep");
  json m = json::parse(landform_test::read_text(dir / "out" / "manifest.json"));
  m["files"].push_back({{"file", "../outside.txt"}});
  m["files"].push_back({{"file", (dir / "outside.txt").string()}});
  m["files"].push_back({{"file", "sub"}});
  m["files"].push_back({{"file", "manifest.json"}});
  dir.write("out/manifest.json", m.dump());
  const cli_result again = run_cli({"build", (dir / "small.json").string(), "-o", (dir / "out").string(), "--clean"});
  CHECK(again.exit_code == 0);
  CHECK(again.err.find("removed") == std::string::npos);
  CHECK(fs::exists(dir / "outside.txt"));
  CHECK(fs::exists(dir / "out" / "sub" / "mine.txt"));
}

TEST_CASE("stale_files: listed, not written, inside the folder, sorted", "[cli][stale]") {
  landform::encoded_output kept;
  kept.spec.file = "a.png";
  const json previous = {{"files",
                          {{{"file", "b.png"}},
                           {{"file", "a.png"}},
                           {{"file", "./x//c.r32"}},
                           {{"file", "../up.png"}},
                           {{"file", "/abs.png"}},
                           {{"file", "manifest.json"}},
                           {{"file", 3}},
                           {{"name", "no file"}}}}};
  CHECK(landform::stale_files(previous, {kept}) == std::vector<std::string>{"b.png", "x/c.r32"});
  CHECK(landform::stale_files(json(nullptr), {kept}).empty());
  CHECK(landform::stale_files(json{{"files", "x"}}, {kept}).empty());
}
