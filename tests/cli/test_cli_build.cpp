// End-to-end tests of `landform build`: every shipped preset builds, output is
// bit-identical across runs and thread counts, the encodings agree with each
// other and with an independent PNG decoder (stb_image), the manifest is
// complete and its hashes match the files, and a region equals the same window
// of the whole world.

#include <catch2/catch.hpp>

#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_harness.hpp"
#include "landform/io/sha256.hpp"
#include "landform/pipeline/manifest.hpp"
#include "landform/pipeline/pipeline.hpp"
#include "landform/pipeline/preset.hpp"
#include "landform/pipeline/registry.hpp"
#include "landform/version.hpp"

namespace {

namespace fs = std::filesystem;
using landform_test::cli_result;
using landform_test::list_tree;
using landform_test::read_bytes;
using landform_test::read_text;
using landform_test::run_cli;
using landform_test::source_path;
using landform_test::temp_dir;
using json = nlohmann::json;
using bytes_t = std::vector<std::uint8_t>;

std::string describe(const cli_result& r) {
  return "exit " + std::to_string(r.exit_code) + "\n--- stdout\n" + r.out + "--- stderr\n" + r.err;
}

// `landform build <args...> -o <out> --quiet`; requires success.
void build(const std::vector<std::string>& args, const fs::path& out) {
  std::vector<std::string> all = {"build"};
  all.insert(all.end(), args.begin(), args.end());
  all.insert(all.end(), {"-o", out.string(), "--quiet"});
  const cli_result r = run_cli(all);
  INFO("landform build ... -o " << out << "\n" << describe(r));
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.empty());
  CHECK(r.err.empty());
}

// Every file below `dir`, by relative name.
std::map<std::string, bytes_t> snapshot(const fs::path& dir) {
  std::map<std::string, bytes_t> files;
  for (const auto& name : list_tree(dir)) {
    if (fs::is_regular_file(dir / name)) files[name] = read_bytes(dir / name);
  }
  return files;
}

void require_identical(const fs::path& a, const fs::path& b) {
  INFO(a << " vs " << b);
  const auto left = snapshot(a);
  const auto right = snapshot(b);
  REQUIRE(!left.empty());
  REQUIRE(list_tree(a) == list_tree(b));
  for (const auto& [name, bytes] : left) {
    INFO(name);
    CHECK(bytes == right.at(name));  // manifest.json included
  }
}

std::string sha256_of(const bytes_t& bytes) {
  return landform::sha256_hex(bytes.data(), bytes.size());
}

std::uint32_t read_be32(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | std::uint32_t{p[3]};
}

std::vector<std::uint16_t> read_raw16_le(const bytes_t& bytes) {
  std::vector<std::uint16_t> values(bytes.size() / 2);
  for (std::size_t k = 0; k < values.size(); ++k) {
    values[k] = static_cast<std::uint16_t>(bytes[2 * k] | (bytes[2 * k + 1] << 8));
  }
  return values;
}

std::vector<float> read_r32_le(const bytes_t& bytes) {
  std::vector<float> values(bytes.size() / 4);
  for (std::size_t k = 0; k < values.size(); ++k) {
    const std::uint32_t bits = std::uint32_t{bytes[4 * k]} | (std::uint32_t{bytes[4 * k + 1]} << 8) |
                               (std::uint32_t{bytes[4 * k + 2]} << 16) | (std::uint32_t{bytes[4 * k + 3]} << 24);
    std::memcpy(&values[k], &bits, sizeof bits);
  }
  return values;
}

// round(v * max), v clamped to [0, 1] first (NaN -> 0).
long quantise(float v, double max) {
  const double c = std::isnan(v) ? 0.0 : std::clamp(static_cast<double>(v), 0.0, 1.0);
  return std::lround(c * max);
}

// The preset's outputs by file name, as the manifest should describe them.
std::vector<std::string> output_files(const json& preset) {
  std::vector<std::string> files;
  for (const auto& o : preset.at("outputs")) {
    files.push_back(o.contains("file") ? o.at("file").get<std::string>()
                                       : landform::default_output_file(o.at("map"), o.at("format")));
  }
  return files;
}

// The r32 file of a manifest, or fails.
std::string r32_file(const json& manifest) {
  for (const auto& f : manifest.at("files")) {
    if (f.at("format") == "r32") return f.at("file").get<std::string>();
  }
  FAIL("no r32 output in the manifest");
  return {};
}

}  // namespace

TEST_CASE("cli build: every shipped preset builds at a small size", "[cli][build]") {
  const auto presets = landform_test::shipped_presets();
  REQUIRE(presets.size() >= 2);
  for (const auto& preset : presets) {
    INFO(preset);
    const temp_dir dir;
    const fs::path out = dir / "out";
    const cli_result r = run_cli({"build", preset.string(), "--size", "64", "-o", out.string()}, dir.path());
    INFO(describe(r));
    REQUIRE(r.exit_code == 0);

    // The preset names its outputs; multi-file kinds (splat) number them, and
    // the manifest lists what was written: every preset output must be there.
    const json preset_json = landform::load_preset_file(preset);
    const json manifest = json::parse(read_text(out / "manifest.json"));
    std::vector<std::string> expected;
    for (const auto& f : manifest.at("files")) expected.push_back(f.at("file").get<std::string>());
    CHECK(manifest.at("files").size() >= output_files(preset_json).size());
    expected.push_back("manifest.json");
    // stdout lists every written file, in order.
    std::vector<std::string> printed;
    for (const auto& f : expected) printed.push_back((out / f).string());
    CHECK(r.out_lines() == printed);
    CHECK(std::regex_search(r.err, std::regex(R"(^built 64x64 in [0-9.]+ s; heights )")));
    // Exactly those files, no temporaries.
    std::sort(expected.begin(), expected.end());
    CHECK(list_tree(out) == expected);
    for (const auto& f : expected) CHECK(fs::file_size(out / f) > 0);
    CHECK(list_tree(dir.path()).size() == expected.size() + 1);  // nothing outside out/
  }
}

TEST_CASE("cli build: output is bit-identical across runs and thread counts", "[cli][build][determinism]") {
  // game-terrain writes every derived map kind (normal, AO, slope, flow,
  // splat, preview); voronoi-biomes the biome map and a side layer.
  for (const char* name : {"tutorial.json", "default.json", "game-terrain.json", "voronoi-biomes.json"}) {
    INFO(name);
    const std::string preset = source_path(std::string("presets/") + name).string();
    const temp_dir dir;
    build({preset, "--size", "128", "--threads", "1"}, dir / "t1");
    build({preset, "--size", "128", "--threads", "1"}, dir / "t1_again");
    build({preset, "--size", "128", "--threads", "2"}, dir / "t2");
    build({preset, "--size", "128", "--threads", "2"}, dir / "t2_again");
    build({preset, "--size", "128", "--threads", "0"}, dir / "t0");
    build({preset, "--size", "128", "--threads", "8"}, dir / "t8");
    require_identical(dir / "t1", dir / "t1_again");
    require_identical(dir / "t1", dir / "t8");
    require_identical(dir / "t2", dir / "t2_again");
    require_identical(dir / "t1", dir / "t2");
    require_identical(dir / "t1", dir / "t0");
  }
}

TEST_CASE("cli build: png16, png8, raw16 and r32 agree, read by an independent decoder", "[cli][build][formats]") {
  // Not square, so a swapped width and height or a transposed image shows.
  constexpr int k_width = 96;
  constexpr int k_height = 64;
  constexpr std::size_t k_cells = std::size_t{k_width} * k_height;
  const temp_dir dir;
  build({source_path("presets/tutorial.json").string(), "--size", "96x64"}, dir / "out");
  const json manifest = json::parse(read_text(dir / "out/manifest.json"));
  std::map<std::string, std::string> file_of;  // format -> file
  for (const auto& f : manifest.at("files")) file_of[f.at("format")] = f.at("file");
  REQUIRE(file_of.count("png16") == 1);
  REQUIRE(file_of.count("png8") == 1);
  REQUIRE(file_of.count("raw16") == 1);
  REQUIRE(file_of.count("r32") == 1);

  const bytes_t raw16_bytes = read_bytes(dir / "out" / file_of["raw16"]);
  REQUIRE(raw16_bytes.size() == k_cells * 2);
  const std::vector<std::uint16_t> raw16 = read_raw16_le(raw16_bytes);

  const bytes_t r32_bytes = read_bytes(dir / "out" / file_of["r32"]);
  REQUIRE(r32_bytes.size() == k_cells * 4);
  const std::vector<float> r32 = read_r32_le(r32_bytes);

  SECTION("png16 is 16-bit greyscale equal to raw16") {
    const bytes_t png = read_bytes(dir / "out" / file_of["png16"]);
    // Signature, then IHDR: length 13, type, width, height, bit depth, colour type.
    REQUIRE(png.size() > 33);
    CHECK(std::memcmp(png.data(), "\x89PNG\r\n\x1a\n", 8) == 0);
    CHECK(read_be32(png.data() + 8) == 13);
    CHECK(std::memcmp(png.data() + 12, "IHDR", 4) == 0);
    CHECK(read_be32(png.data() + 16) == k_width);
    CHECK(read_be32(png.data() + 20) == k_height);
    CHECK(int{png[24]} == 16);  // bit depth
    CHECK(int{png[25]} == 0);   // colour type: greyscale

    int w = 0, h = 0, channels = 0;
    stbi_us* pixels = stbi_load_16_from_memory(png.data(), static_cast<int>(png.size()), &w, &h, &channels, 0);
    INFO("stb_image: " << (pixels ? "ok" : stbi_failure_reason()));
    REQUIRE(pixels != nullptr);
    const std::vector<std::uint16_t> decoded(pixels,
                                             pixels + static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
    stbi_image_free(pixels);
    CHECK(w == k_width);
    CHECK(h == k_height);
    CHECK(channels == 1);
    REQUIRE(decoded.size() == raw16.size());
    std::size_t mismatches = 0;
    for (std::size_t k = 0; k < k_cells; ++k) mismatches += decoded[k] != raw16[k];
    CHECK(mismatches == 0);
  }
  SECTION("png8 is 8-bit greyscale equal to round(r32 * 255)") {
    const bytes_t png = read_bytes(dir / "out" / file_of["png8"]);
    REQUIRE(png.size() > 33);
    CHECK(int{png[24]} == 8);
    CHECK(int{png[25]} == 0);
    int w = 0, h = 0, channels = 0;
    stbi_uc* pixels = stbi_load_from_memory(png.data(), static_cast<int>(png.size()), &w, &h, &channels, 0);
    REQUIRE(pixels != nullptr);
    const std::vector<std::uint8_t> decoded(pixels, pixels + static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
    stbi_image_free(pixels);
    CHECK(w == k_width);
    CHECK(h == k_height);
    CHECK(channels == 1);
    REQUIRE(decoded.size() == r32.size());
    std::size_t mismatches = 0;
    for (std::size_t k = 0; k < k_cells; ++k) mismatches += decoded[k] != quantise(r32[k], 255.0);
    CHECK(mismatches == 0);
  }
  SECTION("raw16 is round(r32 * 65535), clamped") {
    std::size_t mismatches = 0;
    for (std::size_t k = 0; k < k_cells; ++k) mismatches += raw16[k] != quantise(r32[k], 65535.0);
    CHECK(mismatches == 0);
    // And the heights are not trivially constant.
    const auto [lo, hi] = std::minmax_element(raw16.begin(), raw16.end());
    CHECK(*lo < *hi);
  }
}

TEST_CASE("cli build: the manifest describes the build and hashes every file", "[cli][build][manifest]") {
  const temp_dir dir;
  const fs::path out = dir / "out";
  build({source_path("presets/tutorial.json").string(), "--size", "80x48", "--seed", "42"}, out);
  const json m = json::parse(read_text(out / "manifest.json"));
  INFO(m.dump(2));

  CHECK(m.at("version") == landform::k_version);
  CHECK(m.at("seed") == 42);
  CHECK(m.at("size") == json::array({80, 48}));
  CHECK(m.at("origin") == json::array({0, 0}));
  CHECK(m.at("cell_size").is_number());
  CHECK(m.at("cell_size").get<double>() > 0);
  REQUIRE(m.at("height_range").is_array());
  REQUIRE(m.at("height_range").size() == 2);
  CHECK(m.at("height_range")[0].get<double>() <= m.at("height_range")[1].get<double>());
  CHECK(m.at("clipped_cells").is_number_unsigned());

  const std::string hash = m.at("preset_sha256").get<std::string>();
  CHECK(std::regex_match(hash, std::regex("[0-9a-f]{64}")));

  SECTION("the preset is canonical: the edits applied and every default filled in") {
    const json& preset = m.at("preset");
    REQUIRE(preset.is_object());
    CHECK(preset.at("seed") == 42);
    CHECK(preset.at("size") == json::array({80, 48}));
    CHECK(hash == landform::preset_hash(preset));
    CHECK(hash ==
          landform::sha256_hex(reinterpret_cast<const std::uint8_t*>(preset.dump().data()), preset.dump().size()));
    const json original = landform::load_preset_file(source_path("presets/tutorial.json"));
    REQUIRE(preset.at("stages").size() == original.at("stages").size());
    for (std::size_t k = 0; k < preset.at("stages").size(); ++k) {
      const json& stage = preset.at("stages")[k];
      INFO("stages[" << k << "]");
      CHECK(stage.at("type") == original.at("stages")[k].at("type"));
      const landform::stage_info* info = landform::builtin_stages().find(stage.at("type"));
      REQUIRE(info != nullptr);
      for (const auto& p : info->params) {
        INFO(p.name);
        CHECK((stage.contains(p.name) || p.optional));  // optional ones (world_range) only when set
      }
    }
  }

  SECTION("each file entry is complete and its hash matches the file on disk") {
    const json original = landform::load_preset_file(source_path("presets/tutorial.json"));
    const std::vector<std::string> expected = output_files(original);
    const json& files = m.at("files");
    REQUIRE(files.size() == expected.size());
    for (std::size_t k = 0; k < files.size(); ++k) {
      const json& f = files[k];
      INFO(f.dump());
      CHECK(f.at("file") == expected[k]);
      CHECK(f.at("map") == original.at("outputs")[k].at("map"));
      CHECK(f.at("format") == original.at("outputs")[k].at("format"));
      for (const char* key : {"encoding", "byte_order", "row_order"}) {
        CHECK(f.at(key).is_string());
        CHECK(!f.at(key).get<std::string>().empty());
      }
      CHECK(f.at("width") == 80);
      CHECK(f.at("height") == 48);
      const bytes_t bytes = read_bytes(out / f.at("file").get<std::string>());
      CHECK(f.at("sha256") == sha256_of(bytes));
      if (f.contains("bytes")) CHECK(f.at("bytes") == bytes.size());
      const std::string format = f.at("format");
      if (format == "raw16" || format == "r32") CHECK(f.at("byte_order") == "little-endian");
      if (format == "png16") CHECK(f.at("byte_order") == "big-endian");
    }
  }
}

TEST_CASE("cli build: --seed and --size change the output", "[cli][build]") {
  const temp_dir dir;
  const std::string preset = source_path("presets/default.json").string();
  build({preset, "--size", "64", "--seed", "1"}, dir / "s1");
  build({preset, "--size", "64", "--seed", "2"}, dir / "s2");
  const json m1 = json::parse(read_text(dir / "s1/manifest.json"));
  const json m2 = json::parse(read_text(dir / "s2/manifest.json"));
  CHECK(m1.at("seed") == 1);
  CHECK(m2.at("seed") == 2);
  for (const auto& f : m1.at("files")) {
    const std::string name = f.at("file");
    INFO(name);
    CHECK(read_bytes(dir / "s1" / name) != read_bytes(dir / "s2" / name));
  }

  build({preset, "--size", "96x64"}, dir / "wide");
  const bytes_t png = read_bytes(dir / "wide/height.png");
  int w = 0, h = 0, channels = 0;
  REQUIRE(stbi_info_from_memory(png.data(), static_cast<int>(png.size()), &w, &h, &channels) == 1);
  CHECK(w == 96);
  CHECK(h == 64);
  CHECK(fs::file_size(dir / "wide/height.r32") == std::uintmax_t{96} * 64 * 4);
}

TEST_CASE("cli build: a region equals the same window of the whole world", "[cli][build][region]") {
  SECTION("default preset: world-scope stages, the world is computed and cropped") {
    const std::string preset = source_path("presets/default.json").string();
    // The region build really goes through the crop path.
    json region_preset = landform::load_preset_file(preset);
    region_preset["origin"] = {32, 16};
    region_preset["size"] = {48, 40};
    region_preset["world"] = {128, 128};
    REQUIRE(landform::pipeline::build(region_preset).computes_world());

    const temp_dir dir;
    build({preset, "--size", "128"}, dir / "world");
    build({preset, "--set", "origin=[32,16]", "--size", "48x40", "--set", "world=[128,128]"}, dir / "region");
    const json mw = json::parse(read_text(dir / "world/manifest.json"));
    const json mr = json::parse(read_text(dir / "region/manifest.json"));
    CHECK(mr.at("origin") == json::array({32, 16}));
    CHECK(mr.at("size") == json::array({48, 40}));
    const std::vector<float> world = read_r32_le(read_bytes(dir / "world" / r32_file(mw)));
    const std::vector<float> region = read_r32_le(read_bytes(dir / "region" / r32_file(mr)));
    REQUIRE(world.size() == std::size_t{128} * 128);
    REQUIRE(region.size() == std::size_t{48} * 40);
    std::size_t mismatches = 0;
    for (std::size_t y = 0; y < 40; ++y) {
      for (std::size_t x = 0; x < 48; ++x) {
        const float a = region[y * 48 + x];
        const float b = world[(y + 16) * 128 + (x + 32)];
        mismatches += std::memcmp(&a, &b, sizeof a) != 0;
      }
    }
    CHECK(mismatches == 0);
  }

  SECTION("pointwise stages only: the region is computed on its own") {
    const temp_dir dir;
    const auto preset = dir.write("pointwise.json", R"({
      "landform": 1, "size": 128, "seed": 5,
      "stages": [
        {"type": "opensimplex", "feature_size": 30, "octaves": 3},
        {"type": "normalize", "mode": "range", "input_min": -1, "input_max": 1}
      ],
      "outputs": [{"map": "height", "format": "r32", "file": "h.r32"}]
    })");
    json region_preset = landform::load_preset_file(preset);
    region_preset["origin"] = {40, 8};
    region_preset["size"] = {30, 20};
    region_preset["world"] = {128, 128};
    REQUIRE_FALSE(landform::pipeline::build(region_preset).computes_world());

    build({preset.string()}, dir / "world");
    build({preset.string(), "--set", "origin=[40,8]", "--size", "30x20", "--set", "world=[128,128]"}, dir / "region");
    const std::vector<float> world = read_r32_le(read_bytes(dir / "world/h.r32"));
    const std::vector<float> region = read_r32_le(read_bytes(dir / "region/h.r32"));
    REQUIRE(world.size() == std::size_t{128} * 128);
    REQUIRE(region.size() == std::size_t{30} * 20);
    std::size_t mismatches = 0;
    for (std::size_t y = 0; y < 20; ++y) {
      for (std::size_t x = 0; x < 30; ++x) {
        const float a = region[y * 30 + x];
        const float b = world[(y + 8) * 128 + (x + 40)];
        mismatches += std::memcmp(&a, &b, sizeof a) != 0;
      }
    }
    CHECK(mismatches == 0);
  }
}

// --- Known bug, reported; allowed to fail until the library is fixed. ------

TEST_CASE("cli build: the manifest's canonical preset builds the same files again", "[cli][build][manifest]") {
  // Today `validate` rejects it: the canonical "world" is written as
  // {"origin": [..], "size": [..]} but presets accept only N or [W, H]:
  //   landform: error: world: {"origin":[0,0],"size":[64,64]} must be an integer number of cells
  const temp_dir dir;
  build({source_path("presets/tutorial.json").string(), "--size", "64", "--seed", "3"}, dir / "first");
  const json m = json::parse(read_text(dir / "first/manifest.json"));
  const auto canonical = dir.write("canonical.json", m.at("preset").dump(2));
  const cli_result r = run_cli({"build", canonical.string(), "-o", (dir / "second").string(), "-q"});
  INFO(describe(r));
  REQUIRE(r.exit_code == 0);
  require_identical(dir / "first", dir / "second");
}

TEST_CASE("cli build: preset_sha256 does not depend on the working directory", "[cli][build][manifest]") {
  // The same preset reading a file beside it, built as `landform build
  // sub/p.json` from above and as `landform build p.json` from inside: the
  // canonical preset keeps the path as written plus the file's SHA-256.
  const temp_dir dir;
  const std::vector<float> values = {0.0f, 0.25f, 0.5f, 1.0f};
  std::string bytes(sizeof values[0] * values.size(), '\0');
  std::memcpy(bytes.data(), values.data(), bytes.size());
  dir.write("sub/in.r32", bytes);
  dir.write("sub/p.json", R"({"landform": 1, "size": 8, "stages": [{"type": "image", "path": "in.r32"}],
                              "outputs": [{"map": "height", "format": "r32"}]})");
  const cli_result above = run_cli({"build", "sub/p.json", "-o", (dir / "a").string(), "-q"}, dir.path());
  INFO(describe(above));
  REQUIRE(above.exit_code == 0);
  const cli_result inside = run_cli({"build", "p.json", "-o", (dir / "b").string(), "-q"}, dir / "sub");
  INFO(describe(inside));
  REQUIRE(inside.exit_code == 0);
  const json a = json::parse(read_text(dir / "a/manifest.json"));
  const json b = json::parse(read_text(dir / "b/manifest.json"));
  CHECK(a.at("preset_sha256") == b.at("preset_sha256"));
  CHECK(a.at("preset") == b.at("preset"));
  CHECK(a.at("preset").at("stages").at(0).at("path") == "in.r32");
  CHECK(a.at("preset").at("stages").at(0).at("path_sha256") ==
        landform::sha256_hex(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
  require_identical(dir / "a", dir / "b");
}

TEST_CASE("cli build: the manifest reports hydraulic erosion's sediment budget in m^3", "[cli][build][manifest]") {
  // Issue 9: what dying droplets carry is laid down; the sum of heights
  // changes only by what leaves the map's edge, and the manifest says how
  // much of each.
  const temp_dir dir;
  const fs::path out = dir / "out";
  build({source_path("presets/default.json").string(), "--size", "96", "--threads", "2"}, out);
  const json m = json::parse(read_text(out / "manifest.json"));
  const json* report = nullptr;
  for (const json& s : m.at("computed").at("stages")) {
    if (s.at("stage").get<std::string>().find("hydraulic_erosion") != std::string::npos) report = &s.at("report");
  }
  REQUIRE(report != nullptr);
  INFO(report->dump());
  const double eroded = report->at("eroded_m3"), deposited = report->at("deposited_m3");
  const double outflow = report->at("outflow_m3"), undeposited = report->at("undeposited_m3");
  CHECK(report->at("droplets") == 120 * 120);  // one per cell, on the map grown by 96 / 8 cells each side
  CHECK(eroded > 0.0);
  CHECK(outflow > 0.0);
  // Dying droplets lay all they carry: undeposited is the float32 rounding
  // of the droplets' loads, either sign (it was 1.5 % of eroded).
  CHECK(std::abs(undeposited) <= 1e-6 * eroded);
  CHECK(deposited + outflow + undeposited == Approx(eroded).epsilon(1e-12));
}
