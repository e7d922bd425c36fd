// Two builds into one output folder at the same time (issue 13): the folder
// lock serialises them, so the folder always ends with one build's complete
// set (every file's SHA-256 matches manifest.json), and the build that had to
// wait says so.

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_harness.hpp"
#include "landform/io/sha256.hpp"

namespace {

using landform_test::cli_process;
using landform_test::cli_result;
using landform_test::read_bytes;
using landform_test::read_text;
using landform_test::temp_dir;
using json = nlohmann::json;

constexpr int k_outputs = 30;

// k_outputs height files; the seed makes two presets' files differ.
std::string preset_with_seed(int seed) {
  // Appended piecewise: GCC 12 warns falsely (-Warray-bounds, PR105329) on
  // chains of "literal" + std::string temporaries.
  std::string preset = R"({"landform": 1, "size": 64, "seed": )";
  preset += std::to_string(seed);
  preset += R"(, "stages": [{"type": "opensimplex2", "octaves": 4}], "outputs": [)";
  for (int k = 0; k < k_outputs; ++k) {
    if (k) preset += ", ";
    preset += R"({"map": "height", "format": "png16", "file": "h)";
    preset += std::to_string(k);
    preset += R"(.png"})";
  }
  preset += "]}";
  return preset;
}

// Every file the manifest lists has the SHA-256 it records; returns the seed.
int check_consistent(const temp_dir& dir) {
  const json manifest = json::parse(read_text(dir / "out/manifest.json"));
  REQUIRE(manifest["files"].size() == static_cast<std::size_t>(k_outputs));
  for (const auto& file : manifest["files"]) {
    const auto bytes = read_bytes(dir / ("out/" + file["file"].get<std::string>()));
    CHECK(landform::sha256_hex(bytes.data(), bytes.size()) == file["sha256"]);
  }
  return manifest["seed"].get<int>();
}

}  // namespace

TEST_CASE("cli: concurrent builds into one folder end with one consistent set", "[cli][concurrency]") {
  constexpr int k_pairs = 10;
  const temp_dir dir;
  const auto a = dir.write("a.json", preset_with_seed(1));
  const auto b = dir.write("b.json", preset_with_seed(2));
  for (int pair = 0; pair < k_pairs; ++pair) {
    cli_process first({"build", a.string(), "-o", (dir / "out").string(), "-q"});
    cli_process second({"build", b.string(), "-o", (dir / "out").string(), "-q"});
    const cli_result r1 = first.wait();
    const cli_result r2 = second.wait();
    INFO("pair " << pair << "\n" << r1.err << r2.err);
    CHECK(r1.exit_code == 0);
    CHECK(r2.exit_code == 0);
    for (const auto* r : {&r1, &r2}) {
      if (r->err.empty()) continue;
      CHECK(r->err == "landform: waiting for another build into " + (dir / "out").string() + " to finish\n");
    }
    const int seed = check_consistent(dir);
    CHECK((seed == 1 || seed == 2));
  }
}

TEST_CASE("cli: a build removes the temporaries a killed build left in its folder", "[cli][concurrency]") {
  const temp_dir dir;
  const auto preset = dir.write("p.json", preset_with_seed(3));
  dir.write("out/.h0.png.tmp-Ab3dE9", "half-written");
  dir.write("out/.h1.png.tmp-Xy7wQ2.old", "backup");
  dir.write("out/notes.txt", "not ours");
  const cli_result r = landform_test::run_cli({"build", preset.string(), "-o", (dir / "out").string(), "-q"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto files = landform_test::list_tree(dir / "out");
  CHECK(std::find(files.begin(), files.end(), ".h0.png.tmp-Ab3dE9") == files.end());
  CHECK(std::find(files.begin(), files.end(), ".h1.png.tmp-Xy7wQ2.old") == files.end());
  CHECK(std::find(files.begin(), files.end(), "notes.txt") != files.end());
  CHECK(files.size() == static_cast<std::size_t>(k_outputs) + 2);  // outputs, manifest, notes.txt
}
