// `landform build --seeds`: one folder per seed, each equal byte for byte to
// a single `build --seed N`, an index and a contact sheet of the previews.

#include <catch2/catch.hpp>

#include <stb_image.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_harness.hpp"

namespace {

namespace fs = std::filesystem;
using landform_test::cli_result;
using landform_test::list_tree;
using landform_test::read_bytes;
using landform_test::read_text;
using landform_test::run_cli;
using landform_test::temp_dir;
using json = nlohmann::json;

// No preview output: the sheet renders the default preview from the heights.
const std::string k_preset = R"({
  "landform": 1, "size": 64, "seed": 1,
  "stages": [{"type": "opensimplex", "feature_size": 24}, {"type": "normalize", "mode": "min_max"}],
  "outputs": [{"map": "height", "format": "png16"}, {"map": "normal"}]
})";

std::string describe(const cli_result& r) {
  return "exit " + std::to_string(r.exit_code) + "\n--- stdout\n" + r.out + "--- stderr\n" + r.err;
}

cli_result build(const fs::path& preset, const fs::path& out, const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"build", preset.string(), "-o", out.string(), "-q"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_cli(args);
}

// The files directly in `dir`, by name.
std::map<std::string, std::vector<std::uint8_t>> files_in(const fs::path& dir) {
  std::map<std::string, std::vector<std::uint8_t>> files;
  for (const auto& name : list_tree(dir)) files[name] = read_bytes(dir / name);
  return files;
}

}  // namespace

TEST_CASE("cli build --seeds 1..4: four folders equal to single builds, an index, a contact sheet", "[cli][seeds]") {
  const temp_dir dir;
  const auto preset = dir.write("preset.json", k_preset);
  const cli_result r = build(preset, dir / "out", {"--seeds", "1..4"});
  INFO(describe(r));
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.empty());
  CHECK(list_tree(dir / "out") ==
        std::vector<std::string>{"contact_sheet.png", "index.json", "seed-1", "seed-1/height.png",
                                 "seed-1/manifest.json", "seed-1/normal.png", "seed-2", "seed-2/height.png",
                                 "seed-2/manifest.json", "seed-2/normal.png", "seed-3", "seed-3/height.png",
                                 "seed-3/manifest.json", "seed-3/normal.png", "seed-4", "seed-4/height.png",
                                 "seed-4/manifest.json", "seed-4/normal.png"});
  const json index = json::parse(read_text(dir / "out/index.json"));
  REQUIRE(index["variants"].size() == 4);
  for (int seed = 1; seed <= 4; ++seed) {
    const std::string folder = "seed-" + std::to_string(seed);
    INFO(folder);
    const fs::path single = dir / ("single-" + std::to_string(seed));
    REQUIRE(build(preset, single, {"--seed", std::to_string(seed)}).exit_code == 0);
    CHECK(files_in(dir / "out" / folder) == files_in(single));
    const json& entry = index["variants"][static_cast<std::size_t>(seed - 1)];
    CHECK(entry["seed"] == seed);
    CHECK(entry["folder"] == folder);
    CHECK(entry["preset_sha256"] == json::parse(read_text(single / "manifest.json"))["preset_sha256"]);
  }
  CHECK(index["variants"][0]["preset_sha256"] != index["variants"][1]["preset_sha256"]);

  const json& sheet = index["contact_sheet"];
  CHECK(sheet["columns"] == 2);
  CHECK(sheet["rows"] == 2);
  CHECK(sheet["cell"] == json::array({64, 64}));
  CHECK(sheet["preview"] == "the default preview (the preset has no preview output)");
  const auto png = read_bytes(dir / "out/contact_sheet.png");
  int w = 0, h = 0, channels = 0;
  stbi_uc* pixels = stbi_load_from_memory(png.data(), static_cast<int>(png.size()), &w, &h, &channels, 3);
  REQUIRE(pixels != nullptr);
  CHECK(w == 128);
  CHECK(h == 128);
  CHECK(channels == 3);
  // The label box of the first variant is black with a white "1" inside;
  // the picture below the label is not all black.
  CHECK(pixels[0] == 0);
  bool white = false, coloured = false;
  for (int y = 0; y < 14; ++y) {
    for (int x = 0; x < 10; ++x) white = white || pixels[3 * (y * w + x)] == 255;
  }
  for (int y = 20; y < 64; ++y) {
    for (int x = 0; x < 64; ++x) coloured = coloured || pixels[3 * (y * w + x) + 1] > 0;
  }
  stbi_image_free(pixels);
  CHECK(white);
  CHECK(coloured);
}

TEST_CASE("cli build --seeds: a list, the preset's own preview, and bad lists", "[cli][seeds]") {
  const temp_dir dir;
  std::string text = k_preset;
  const std::string from = R"({"map": "normal"})";
  text.replace(text.find(from), from.size(), R"({"map": "preview", "ramp": "grey"})");
  const auto preset = dir.write("preset.json", text);
  SECTION("a list keeps its order") {
    const cli_result r = build(preset, dir / "out", {"--seeds", "9,3,7"});
    INFO(describe(r));
    REQUIRE(r.exit_code == 0);
    const json index = json::parse(read_text(dir / "out/index.json"));
    CHECK(index["variants"][0]["folder"] == "seed-9");
    CHECK(index["variants"][2]["seed"] == 7);
    CHECK(index["contact_sheet"]["preview"] == "the preset's first preview output");
    CHECK(index["contact_sheet"]["columns"] == 2);
    CHECK(index["contact_sheet"]["rows"] == 2);
  }
  SECTION("bad lists: exit 2, nothing written") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"1..300", "landform: error: --seeds: \"1..300\" asks for 300 variants; at most 256"},
        {"5..2", "landform: error: --seeds: \"5..2\" is an empty range (FIRST..LAST needs FIRST <= LAST)"},
        {"1,x", "landform: error: --seeds: \"1,x\" must be FIRST..LAST or a list SEED,SEED,... of integers"},
        {"3,4,3", "landform: error: --seeds: \"3,4,3\" lists the seed 3 twice"},
    };
    for (const auto& [seeds, message] : cases) {
      const cli_result r = build(preset, dir / "out", {"--seeds", seeds});
      INFO(describe(r));
      CHECK(r.exit_code == 2);
      CHECK(r.err_lines() == std::vector<std::string>{message});
      CHECK_FALSE(fs::exists(dir / "out"));
    }
    const cli_result both = build(preset, dir / "out", {"--seeds", "1..2", "--seed", "3"});
    CHECK(both.exit_code == 2);
    CHECK_FALSE(fs::exists(dir / "out"));
  }
}

TEST_CASE("cli build --seeds: a seed whose preview cannot be shaded gets a grey thumbnail, its outputs are written",
          "[cli][seeds]") {
  // Horn's slopes pass float32 here (1e30 units at 1e12 m each on 1 um
  // cells): the slope map is written (90 degrees), the contact sheet's
  // shaded thumbnail cannot be, so it is grey and a warning says why. (The
  // whole build failed with exit 1 and no name.)
  const temp_dir dir;
  const auto preset = dir.write("p.json", R"({"landform": 1, "size": 16, "cell_size": 1e-6, "height_scale": 1e12,
    "stages": [{"type": "opensimplex", "feature_size": 4e-6, "octaves": 1}, {"type": "normalize"},
               {"type": "scale_bias", "scale": 1e30, "bias": 0}],
    "outputs": [{"map": "slope", "format": "r32", "file": "s.r32"}]})");
  const cli_result r = build(preset, dir / "out", {"--seeds", "1..2"});
  INFO(describe(r));
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("landform: warning: seed 1: contact sheet thumbnail left grey: ") == 0);
  CHECK(r.err.find("landform: warning: seed 2: contact sheet thumbnail left grey: ") != std::string::npos);
  CHECK(list_tree(dir / "out") == std::vector<std::string>{"contact_sheet.png", "index.json", "seed-1",
                                                           "seed-1/manifest.json", "seed-1/s.r32", "seed-2",
                                                           "seed-2/manifest.json", "seed-2/s.r32"});
}
