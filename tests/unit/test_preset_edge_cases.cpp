// Preset edge cases found by trying to break the tool: file names that only
// collide after normalisation, non-finite heights, edits into missing arrays,
// and error columns in UTF-8 text.

#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "landform/pipeline/manifest.hpp"
#include "landform/pipeline/pipeline.hpp"
#include "landform/pipeline/preset.hpp"

namespace {

using namespace landform;

std::vector<std::string> issues_of(const json& preset) {
  try {
    (void)pipeline::build(preset);
  } catch (const preset_error& e) {
    std::vector<std::string> out;
    for (const auto& i : e.issues()) out.push_back(i.to_string());
    return out;
  }
  return {};
}

json with_outputs(const json& outputs) {
  return {{"size", 8}, {"stages", json::array({{{"type", "opensimplex"}}})}, {"outputs", outputs}};
}

}  // namespace

TEST_CASE("pipeline: output file names are compared after normalisation", "[pipeline]") {
  CHECK(issues_of(with_outputs(json::parse(R"([{"file": "h.png"}, {"file": "./h.png"}])"))) ==
        std::vector<std::string>{"outputs[1] (height).file: \"./h.png\" is written by an earlier output too"});
  CHECK(issues_of(with_outputs(json::parse(R"([{"file": "a/h.png"}, {"file": "a//h.png"}])"))).size() == 1);
  // One file where names ignore case (Windows, macOS).
  CHECK(issues_of(with_outputs(json::parse(R"([{"file": "H.PNG"}, {"file": "h.png"}])"))) ==
        std::vector<std::string>{"outputs[1] (height).file: \"h.png\" and \"H.PNG\" differ only in letter case (one "
                                 "file on Windows and macOS)"});
  CHECK(issues_of(with_outputs(json::parse(R"([{"file": "Manifest.JSON"}])"))) ==
        std::vector<std::string>{"outputs[0] (height).file: \"Manifest.JSON\" is reserved for the build manifest (one "
                                 "file on Windows and macOS)"});
  CHECK(issues_of(with_outputs(json::parse(R"([{"file": "./manifest.json"}])"))) ==
        std::vector<std::string>{"outputs[0] (height).file: \"manifest.json\" is reserved for the build manifest"});
  CHECK(issues_of(with_outputs(json::parse(R"([{"file": "."}])"))) ==
        std::vector<std::string>{"outputs[0] (height).file: \".\" names the output directory itself, not a file"});
  CHECK(issues_of(with_outputs(json::parse(R"([{"file": "a/../../x.png"}])"))) ==
        std::vector<std::string>{
            "outputs[0] (height).file: \"a/../../x.png\" must not leave the output directory (no \"..\")"});
  CHECK(issues_of(with_outputs(json::parse(R"([{"file": "a.png"}, {"file": "a.png/b.png"}])"))) ==
        std::vector<std::string>{
            "outputs[1] (height).file: \"a.png/b.png\" and \"a.png\" cannot both exist (one is the other's folder)"});
  CHECK(issues_of(with_outputs(json::array({{{"file", std::string("h\0x.png", 7)}}}))) ==
        std::vector<std::string>{"outputs[0] (height).file: must not contain a NUL character"});
  // A harmless "./" is accepted and written under its normal name.
  const pipeline p = pipeline::build(with_outputs(json::parse(R"([{"file": "./sub//h.png"}])")));
  CHECK(p.outputs()[0].file == "sub/h.png");
}

TEST_CASE("pipeline: a stage that produces NaN or infinity is named", "[pipeline]") {
  const json preset = json::parse(R"({"size": 16, "stages": [
    {"type": "opensimplex", "amplitude": 1e6, "octaves": 2, "blend": "add", "weight": 1e38},
    {"type": "normalize", "mode": "min_max"}]})");
  try {
    (void)pipeline::build(preset).run();
    FAIL("expected an error");
  } catch (const preset_error& e) {
    REQUIRE(e.issues().size() == 1);
    CHECK(e.issues()[0].path == "stages[0] (opensimplex)");
    CHECK(e.issues()[0].message.find("not finite") != std::string::npos);
  }
  CHECK(issues_of(json::parse(R"({"size": 8, "stages": [{"type": "opensimplex", "amplitude": 1e308}]})")) ==
        std::vector<std::string>{"stages[0] (opensimplex).amplitude: 1e+308 is above the maximum 1000000"});
}

TEST_CASE("outputs: a gradient beyond float32 refuses normal, aspect, preview and mesh; slope says 90 degrees",
          "[pipeline]") {
  // Noise scaled to 1e30 height units at 1e12 m per unit on 1 micrometre
  // cells: Horn's slopes overflow float32 everywhere. Clamped, every normal
  // lay flat towards a diagonal and every aspect snapped to 45 + k x 90; the
  // preview was an even grey.
  const auto preset = [](const char* map) {
    json p = json::parse(R"({"size": 16, "cell_size": 1e-6, "height_scale": 1e12, "stages": [
      {"type": "opensimplex", "feature_size": 4e-6, "octaves": 1}, {"type": "normalize", "mode": "min_max"},
      {"type": "scale_bias", "scale": 1e30, "bias": 0}]})");
    p["outputs"] = json::array({{{"map", map}, {"format", "r32"}, {"file", "m.r32"}}});
    if (std::string(map) == "normal") p["outputs"][0] = {{"map", map}, {"format", "exr"}, {"file", "m.exr"}};
    if (std::string(map) == "preview") p["outputs"][0] = {{"map", map}, {"format", "rgb8"}, {"file", "m.png"}};
    if (std::string(map) == "mesh") p["outputs"][0] = {{"map", map}, {"file", "m.glb"}};
    return pipeline::build(p);
  };
  for (const char* map : {"normal", "aspect", "preview", "mesh"}) {
    const pipeline p = preset(map);
    try {
      (void)encode_outputs(p, p.run_full(), 1);
      FAIL(map << " was written");
    } catch (const preset_error& e) {
      REQUIRE(e.issues().size() == 1);
      CHECK(e.issues()[0].path == std::string("outputs[0] (") + map + ")");
      // (The mesh's vertex heights, 1e42 m, overflow before its normals.)
      const bool mesh = std::string(map) == "mesh";
      CHECK(e.issues()[0].message.find(mesh ? "vertex heights (height x height_scale) overflow float32"
                                            : "overflows float32 at 256 of the 256 cells read") != std::string::npos);
    }
  }
  // At 1e5 m per unit the mesh's vertex heights (1e35 m) fit, its normals do not.
  json mesh_normals = preset("mesh").canonical();
  mesh_normals["height_scale"] = 1e5;
  const pipeline m = pipeline::build(mesh_normals);
  try {
    (void)encode_outputs(m, m.run_full(), 1);
    FAIL("the mesh was written");
  } catch (const preset_error& e) {
    CHECK(e.issues()[0].message.find("a component of Horn's gradient (height x height_scale per metre) overflows") ==
          0);
  }

  // The preview's colours alone do not need the gradient.
  json colours = preset("preview").canonical();
  colours["outputs"][0]["hillshade"] = 0;
  const pipeline flat_shaded = pipeline::build(colours);
  CHECK(encode_outputs(flat_shaded, flat_shaded.run_full(), 1).size() == 1);

  const pipeline slope = preset("slope");
  const auto files = encode_outputs(slope, slope.run_full(), 1);
  REQUIRE(files.size() == 1);
  std::vector<float> degrees(256);
  REQUIRE(files[0].bytes.size() == degrees.size() * 4);
  std::memcpy(degrees.data(), files[0].bytes.data(), files[0].bytes.size());
  CHECK(std::count(degrees.begin(), degrees.end(), 90.0f) > 200);

  // Smooth heights as large, on 1 m cells at 1e9 m per unit: the height
  // range's bound (1.5e39 m/m) cannot rule out an overflow, the gradient is
  // computed, found finite (neighbours differ by a small part of the
  // relief), and the maps are written.
  json fine = json::parse(R"({"size": 16, "cell_size": 1, "height_scale": 1e9, "stages": [
      {"type": "opensimplex", "feature_size": 64, "octaves": 1}, {"type": "normalize", "mode": "min_max"},
      {"type": "scale_bias", "scale": 1e30, "bias": 0}]})");
  fine["outputs"] = json::array({{{"map", "normal"}, {"format", "exr"}, {"file", "n.exr"}},
                                 {{"map", "aspect"}, {"format", "r32"}, {"file", "a.r32"}},
                                 {{"map", "preview"}, {"format", "rgb8"}, {"file", "p.png"}}});
  const pipeline big = pipeline::build(fine);
  CHECK(encode_outputs(big, big.run_full(), 1).size() == 3);
  // (A mesh of it would not: its vertex heights, 1e39 m, pass float32.)
}

TEST_CASE("preset: --set into an array that is not in the preset says to set it whole", "[pipeline]") {
  json preset = json::parse(R"({"size": 8})");
  try {
    apply_override(preset, "origin.0", "-100");
    FAIL("expected an error");
  } catch (const preset_error& e) {
    CHECK(e.issues()[0].to_string() ==
          "--set origin.0: 'origin' is not in the preset; set it whole, e.g. --set origin=[...]");
  }
  CHECK(preset == json::parse(R"({"size": 8})"));  // untouched
}

TEST_CASE("preset: error columns count characters, not bytes, and skip a byte-order mark", "[pipeline]") {
  auto message = [](const std::string& text) {
    try {
      (void)parse_preset_text(text, "p.json");
    } catch (const preset_error& e) {
      return e.issues()[0].message;
    }
    return std::string();
  };
  CHECK(message("\xEF\xBB\xBF{\"size\": nope}").rfind("p.json:1:10:", 0) == 0);
  CHECK(message("{\"name\": \"h\xC3\xB6he\", \"size\": nope}").rfind("p.json:1:26:", 0) == 0);
}

TEST_CASE("pipeline: size limits name the right key and the largest square", "[pipeline]") {
  CHECK(issues_of(json::parse(R"({"size": 60000, "stages": [{"type": "opensimplex"}]})")) ==
        std::vector<std::string>{
            "size: 60000x60000 is more than 2^28 cells (1 GiB of heights); the largest square is 16384x16384. A "
            "larger world builds as tiles: landform tiles plan (docs/tiles.md)"});
  // A stage that needs the whole world cannot run in a world that large.
  CHECK(
      issues_of(json::parse(
          R"({"size": 64, "world": [20000, 20000], "stages": [{"type": "opensimplex"}, {"type": "olsen_erosion"}]})")) ==
      std::vector<std::string>{
          "world: 20000x20000 is more than 2^28 cells (1 GiB of heights), and stages[1] (olsen_erosion) needs the "
          "whole world computed in one process; the largest such world is 16384x16384"});
}

TEST_CASE("pipeline: a world beyond 2^28 cells builds in regions when every stage is local", "[pipeline]") {
  const json tile = json::parse(
      R"({"size": 64, "origin": [40000, 12000], "world": [65537, 65537],
          "stages": [{"type": "opensimplex2"}, {"type": "perturb", "magnitude": 4}, {"type": "thermal_erosion", "iterations": 3}]})");
  const pipeline p = pipeline::build(tile);
  CHECK_FALSE(p.computes_world());
  const region area = p.computed_area();
  CHECK(area.width == 64 + 2 * 8);  // perturb's halo 5 + thermal's 3
  CHECK(area.origin_x == 40000 - 8);
  // The whole world is a valid preset to plan tiles of, never to build at once.
  json world = tile;
  world.erase("world");
  world.erase("origin");
  world["size"] = 65537;
  CHECK_FALSE(issues_of(world).empty());
  const pipeline whole = pipeline::build_tiled_world(world, {});
  CHECK(whole.region().width == 65537);
  CHECK(whole.world().height == 65537);
}

TEST_CASE("pipeline: a slope mask confines a stage to steep ground", "[pipeline]") {
  // A ramp steep in its left half (45 degrees at height_scale 64 over 1 m
  // cells) and flat in its right half; add 1 only where slope >= 30 degrees.
  const json preset = json::parse(R"({"size": [32, 4], "height_scale": 64,
    "stages": [{"type": "gradient"}, {"type": "constant", "value": 1, "blend": "add",
                "mask": {"slope": [30, 90]}}]})");
  const pipeline plain = pipeline::build(json::parse(R"({"size": [32, 4], "height_scale": 64,
    "stages": [{"type": "gradient"}]})"));
  const heightfield base = plain.run();
  const heightfield masked = pipeline::build(preset).run();
  int raised = 0;
  for (int i = 0; i < 32; ++i) raised += masked.at(i, 2) > base.at(i, 2) + 0.5f;
  CHECK(raised > 0);
  CHECK(issues_of(json::parse(R"({"size": 8, "stages": [{"type": "constant", "mask": {"slope": [50, 10]}}]})")) ==
        std::vector<std::string>{"stages[0] (constant).mask.slope: [50,10] must have low <= high"});
}

TEST_CASE("pipeline: relative image paths resolve against the preset's folder", "[pipeline]") {
  const auto dir = std::filesystem::temp_directory_path() / ("landform-paths-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "maps");
  {
    std::ofstream raw(dir / "maps" / "in.r32", std::ios::binary);
    const float values[4] = {0.0f, 0.25f, 0.5f, 1.0f};
    raw.write(reinterpret_cast<const char*>(values), sizeof values);
  }
  const json preset = json::parse(R"({"size": 2, "stages": [{"type": "image", "path": "maps/in.r32", "format": "r32",
                                      "raw_width": 2, "raw_height": 2}]})");
  const pipeline p = pipeline::build(preset, dir);
  CHECK(p.canonical()["stages"][0]["path"] == "maps/in.r32");  // as written: the hash does not depend on the folder
  const heightfield h = p.run();
  CHECK(h.at(1, 1) == 1.0f);
  std::filesystem::remove_all(dir);
}

TEST_CASE("pipeline: hydraulic erosion's erosion, deposition and droplet_flow layers are outputs", "[pipeline]") {
  const json preset = json::parse(R"({"size": 64, "seed": 2, "stages": [
    {"type": "opensimplex", "feature_size": 40, "octaves": 4}, {"type": "normalize", "mode": "min_max"},
    {"type": "hydraulic_erosion", "droplets_per_cell": 0.5}],
    "outputs": [{"map": "erosion", "format": "r32"}, {"map": "deposition", "format": "r32"},
                {"map": "droplet_flow", "format": "png8"}]})");
  const pipeline p = pipeline::build(preset);
  const build_result r = p.run_full({1, {}, {}, {}});
  const auto* eroded = r.layers.find("erosion");
  const auto* deposited = r.layers.find("deposition");
  REQUIRE(eroded != nullptr);
  REQUIRE(deposited != nullptr);
  double total_eroded = 0.0, total_deposited = 0.0;
  for (float v : *eroded) total_eroded += v;
  for (float v : *deposited) total_deposited += v;
  CHECK(total_eroded > 0.0);
  CHECK(total_deposited > 0.0);
  CHECK(total_deposited <= total_eroded * 1.0001);  // droplets can only put down what they took
  CHECK(issues_of(json::parse(R"({"size": 8, "stages": [{"type": "opensimplex"}],
                                  "outputs": [{"map": "erosion"}]})"))
            .size() == 1);  // no hydraulic stage
}
