// `landform build --target unity|unreal|godot [--strict]` on
// presets/game-terrain.json: a legal size builds with the import values in the
// manifest; an illegal one warns (exit 0) or, with --strict, fails with exit 2
// and a one-line error naming the nearest legal sizes, writing nothing.

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_harness.hpp"

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using landform_test::cli_result;
using landform_test::run_cli;
using landform_test::source_path;
using landform_test::temp_dir;

const std::string k_preset = source_path("presets/game-terrain.json").string();

cli_result build(const std::vector<std::string>& extra, const fs::path& out) {
  std::vector<std::string> args = {"build", k_preset, "-o", out.string(), "--quiet", "--threads", "2"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_cli(args);
}

}  // namespace

TEST_CASE("cli target: each engine's legal size builds strictly, with its import values", "[cli][engine]") {
  struct engine_case {
    const char* target;
    int size;
  };
  for (const auto& [target, size] :
       {engine_case{"unity", 129}, engine_case{"unreal", 127}, engine_case{"godot", 128}}) {
    INFO(target);
    const temp_dir dir;
    const cli_result r = build({"--target", target, "--strict", "--size", std::to_string(size)}, dir / "out");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.empty());
    const json m = json::parse(landform_test::read_text(dir / "out" / "manifest.json"));
    const json& import = m.at("import");
    CHECK(import.at("target") == target);
    CHECK(m.at("preset").at("target") == target);
    const double c = 4.0, range_m = 600.0;
    CHECK(import.at("unity").at("terrain_width").get<double>() == (size - 1) * c);
    CHECK(import.at("unity").at("terrain_height").get<double>() == range_m);
    CHECK(import.at("unreal").at("scale") == json({c * 100, c * 100, range_m * 100 / 512}));
    CHECK(import.at("unreal").at("location") == json({0.0, 0.0, range_m * 50}));
    CHECK(import.at("godot").at("height_scale").get<double>() == range_m);
    CHECK(import.at(target).at("size_legal") == true);
  }
}

TEST_CASE("cli target: an illegal size warns, or with --strict fails with exit 2 and writes nothing", "[cli][engine]") {
  const temp_dir dir;
  const cli_result warned = build({"--target", "unity", "--size", "100"}, dir / "warned");
  CHECK(warned.exit_code == 0);
  CHECK(warned.err_lines() ==
        std::vector<std::string>{"landform: warning: size: target unity: 100x100 is not a Unity heightmap resolution "
                                 "(2^n + 1 from 33 to 4097); nearest: 65 or 129"});
  CHECK(fs::exists(dir / "warned" / "manifest.json"));

  const cli_result strict = build({"--target", "unreal", "--size", "1000", "--strict"}, dir / "strict");
  CHECK(strict.exit_code == 2);
  REQUIRE(strict.err_lines().size() == 1);
  CHECK(strict.err_lines()[0].rfind("landform: error: size: target unreal: 1000x1000 is not an Unreal landscape size "
                                    "(components x sections x quads + 1, 127 to 8161); nearest: ",
                                    0) == 0);
  CHECK(!fs::exists(dir / "strict"));

  const cli_result godot = build({"--target", "godot", "--size", "20000x8", "--strict"}, dir / "godot");
  CHECK(godot.exit_code == 2);
  CHECK(godot.err_lines() == std::vector<std::string>{"landform: error: size: target godot: 20000x8 is larger than "
                                                      "Terrain3D's 16384 x 16384 world; nearest: 16384"});

  const cli_result typo = build({"--target", "unreall"}, dir / "typo");
  CHECK(typo.exit_code == 2);
  CHECK(typo.err_lines() == std::vector<std::string>{"landform: error: target: \"unreall\" is not an engine target "
                                                     "(unity | unreal | godot); did you mean \"unreal\"?"});

  // The preset's own "target" works the same; --target overrides it.
  const fs::path preset = dir.write("p.json", R"({"landform": 1, "size": 100, "target": "unity",
    "stages": [{"type": "constant", "value": 0.5}], "outputs": [{"map": "height", "format": "raw16"}]})");
  const cli_result own = run_cli({"build", preset.string(), "-o", (dir / "own").string(), "--quiet", "--strict"});
  CHECK(own.exit_code == 2);
  const cli_result overridden =
      run_cli({"build", preset.string(), "-o", (dir / "over").string(), "--quiet", "--strict", "--target", "godot"});
  INFO(overridden.err);
  CHECK(overridden.exit_code == 0);

  // --strict with no target at all checks nothing: refused, as --snap is.
  const fs::path plain = dir.write("plain.json", R"({"landform": 1, "size": 16,
    "stages": [{"type": "constant", "value": 0.5}], "outputs": [{"map": "height", "format": "raw16"}]})");
  for (const char* command : {"build", "validate"}) {
    std::vector<std::string> args = {command, plain.string(), "--strict"};
    if (std::string(command) == "build") args.insert(args.end(), {"-o", (dir / "plain").string()});
    const cli_result none = run_cli(args);
    INFO(none.err);
    CHECK(none.exit_code == 2);
    CHECK(none.err_lines() == std::vector<std::string>{"landform: error: --strict: needs a target (--target "
                                                       "unity|unreal|godot, or the preset's \"target\")"});
  }
  CHECK(!fs::exists(dir / "plain"));
}

TEST_CASE("cli target: --snap builds the nearest legal size, with a warning", "[cli][engine]") {
  const temp_dir dir;
  const cli_result r = build({"--target", "unity", "--strict", "--snap", "--size", "500"}, dir / "out");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.err == "landform: warning: --snap: 500x500 is not a unity size; using 513x513\n");
  const json m = json::parse(landform_test::read_text(dir / "out" / "manifest.json"));
  CHECK(m.at("size") == json({513, 513}));
  CHECK(m.at("import").at("unity").at("size_legal") == true);

  const cli_result legal = build({"--target", "unity", "--snap", "--size", "257"}, dir / "legal");
  CHECK(legal.exit_code == 0);
  CHECK(legal.err.empty());

  const cli_result none = build({"--snap", "--size", "500"}, dir / "none");
  CHECK(none.exit_code == 2);
  CHECK(none.err ==
        "landform: error: --snap: needs a target (--target unity|unreal|godot, or the preset's \"target\")\n");
  CHECK_FALSE(fs::exists(dir / "none"));
}

TEST_CASE("cli target: validate checks a target as build does, writing nothing", "[cli][engine]") {
  const temp_dir dir;
  // 500 is no Unity size: a warning and exit 0, with --strict exit 2; --snap says the size it would use.
  const cli_result warned = run_cli({"validate", k_preset, "--target", "unity", "--size", "500"}, dir.path());
  CHECK(warned.exit_code == 0);
  CHECK(warned.err.find("landform: warning: size: target unity: 500x500 is not a Unity heightmap resolution") == 0);
  const cli_result strict = run_cli({"validate", k_preset, "--target", "unity", "--size", "500", "--strict"});
  CHECK(strict.exit_code == 2);
  CHECK(strict.err.find("landform: error: size: target unity: 500x500") == 0);
  const cli_result snapped = run_cli({"validate", k_preset, "--target", "unity", "--size", "500", "--snap"});
  CHECK(snapped.exit_code == 0);
  CHECK(snapped.err == "landform: warning: --snap: 500x500 is not a unity size; using 513x513\n");
  CHECK(snapped.out.find("513x513") != std::string::npos);
  CHECK(landform_test::list_tree(dir.path()).empty());
}
