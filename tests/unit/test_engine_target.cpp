// Engine targets: legal sizes per engine, the checks of a preset, and the
// manifest's import values against their formulas, on presets/game-terrain.json.

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "landform/pipeline/engine_target.hpp"
#include "landform/pipeline/manifest.hpp"
#include "landform/pipeline/pipeline.hpp"
#include "landform/pipeline/preset.hpp"
#include "stage_checks.hpp"

namespace {

using namespace landform;

json game_terrain(int size, const std::string& target) {
  json preset = load_preset_file(std::string(LANDFORM_SOURCE_DIR) + "/presets/game-terrain.json");
  preset["size"] = size;
  if (!target.empty()) preset["target"] = target;
  return preset;
}

std::vector<std::string> texts(const std::vector<preset_issue>& issues) {
  std::vector<std::string> out;
  for (const auto& i : issues) out.push_back(i.to_string());
  return out;
}

// Import values without running the stages (they depend on the preset only).
json import_of(const json& preset) {
  return engine_import_values(pipeline::build(preset));
}

}  // namespace

TEST_CASE("unity: 2^n + 1 from 33 to 4097, square", "[pipeline][engine]") {
  const auto t = engine_target::unity;
  for (int n : {33, 65, 129, 257, 513, 1025, 2049, 4097}) CHECK(is_legal_side(t, n));
  for (int n : {17, 32, 512, 1000, 1024, 8193}) CHECK(!is_legal_side(t, n));
  CHECK(nearest_legal_sides(t, 512) == std::vector<int>{257, 513});
  CHECK(nearest_legal_sides(t, 1000) == std::vector<int>{513, 1025});
  CHECK(nearest_legal_sides(t, 5000) == std::vector<int>{4097});
  CHECK(nearest_legal_sides(t, 20) == std::vector<int>{33});
  CHECK(nearest_legal_sides(t, 513) == std::vector<int>{513});
}

TEST_CASE("unreal: components x sections x quads + 1 from 127 to 8161, and its layouts", "[pipeline][engine]") {
  const auto t = engine_target::unreal;
  for (int n : unreal_recommended_sides()) CHECK(is_legal_side(t, n));
  for (int n : {127, 8161, 8129, 64 * 2 * 2 + 1 - 2, 15 * 20 + 1}) CHECK(is_legal_side(t, n));
  for (int n : {100, 126, 512, 1000, 1024, 8162, 8193}) CHECK(!is_legal_side(t, n));
  CHECK(nearest_legal_sides(t, 8200) == std::vector<int>{8161});
  const auto near512 = nearest_legal_sides(t, 512);
  REQUIRE(near512.size() == 2);
  CHECK(near512[0] < 512);
  CHECK(near512[1] > 512);
  CHECK(is_legal_side(t, near512[0]));
  CHECK(is_legal_side(t, near512[1]));
  for (int n = near512[0] + 1; n < near512[1]; ++n) CHECK(!is_legal_side(t, n));
  // Epic's table: 505 = 63 quads, 2x2 sections, 4 x 4 components; 8129 = 127, 2x2, 32 x 32.
  auto l = unreal_landscape_layout(505, 505);
  REQUIRE(l);
  CHECK(l->quads_per_section == 63);
  CHECK(l->sections_per_component == 2);
  CHECK(l->components_x == 4);
  l = unreal_landscape_layout(8129, 8129);
  REQUIRE(l);
  CHECK(l->quads_per_section == 127);
  CHECK(l->components_x == 32);
  l = unreal_landscape_layout(1009, 505);  // non-square: same sections, 8 x 4 components
  REQUIRE(l);
  CHECK(l->components_x == 8);
  CHECK(l->components_y == 4);
  CHECK(!unreal_landscape_layout(512, 512));
}

TEST_CASE("godot (Terrain3D): any size up to 16384", "[pipeline][engine]") {
  CHECK(is_legal_side(engine_target::godot, 512));
  CHECK(is_legal_side(engine_target::godot, 16384));
  CHECK(!is_legal_side(engine_target::godot, 16385));
  CHECK(nearest_legal_sides(engine_target::godot, 20000) == std::vector<int>{16384});
}

TEST_CASE("snapped_size: the nearest legal size of each engine (--snap)", "[pipeline][engine]") {
  using size = std::pair<int, int>;
  CHECK(snapped_size(engine_target::unity, 513, 513) == size{513, 513});
  CHECK(snapped_size(engine_target::unity, 512, 512) == size{513, 513});
  CHECK(snapped_size(engine_target::unity, 300, 200) == size{257, 257});  // the larger side, squared
  CHECK(snapped_size(engine_target::unity, 385, 10) == size{513, 513});   // 257 and 513 tie: the larger
  CHECK(snapped_size(engine_target::unity, 10, 10) == size{33, 33});
  CHECK(snapped_size(engine_target::unity, 9000, 9000) == size{4097, 4097});
  CHECK(snapped_size(engine_target::unreal, 512, 512) == size{511, 511});  // "nearest: 511 or 528"
  CHECK(snapped_size(engine_target::unreal, 505, 253) == size{505, 253});
  CHECK(snapped_size(engine_target::godot, 20000, 300) == size{16384, 300});
  for (const engine_target t : {engine_target::unity, engine_target::unreal, engine_target::godot}) {
    for (const int w : {1, 100, 500, 1000, 3000, 9000}) {
      for (const int h : {1, 120, 700, 5000}) {
        const auto [sw, sh] = snapped_size(t, w, h);
        INFO(engine_target_name(t) << " " << w << "x" << h << " -> " << sw << "x" << sh);
        CHECK((is_legal_side(t, sw) && is_legal_side(t, sh)));
        if (t == engine_target::unity) CHECK(sw == sh);
        if (t == engine_target::unreal) CHECK(unreal_landscape_layout(sw, sh).has_value());
      }
    }
  }
}

TEST_CASE("unity target on game-terrain: legal at 513, a one-line error naming 257 or 513 at 512",
          "[pipeline][engine]") {
  // game-terrain writes both normal conventions, one of them Unity's: no problem at all.
  CHECK(check_engine_target(pipeline::build(game_terrain(513, "unity")), engine_target::unity).empty());
  json directx_only = game_terrain(513, "unity");
  directx_only["outputs"].erase(2);
  CHECK(texts(check_engine_target(pipeline::build(directx_only), engine_target::unity)) ==
        std::vector<std::string>{"outputs[2] (normal).convention: target unity: \"directx\" is not unity's "
                                 "convention (\"opengl\"); its green channel will read upside down"});
  const pipeline bad = pipeline::build(game_terrain(512, "unity"));
  const auto issues = texts(check_engine_target(bad, engine_target::unity));
  REQUIRE(!issues.empty());
  CHECK(issues[0] ==
        "size: target unity: 512x512 is not a Unity heightmap resolution (2^n + 1 from 33 to 4097); nearest: 257 "
        "or 513");
  json wide = game_terrain(513, "unity");
  wide["size"] = {513, 257};
  CHECK(texts(check_engine_target(pipeline::build(wide), engine_target::unity))[0] ==
        "size: target unity: 513x257 is not square; a Unity terrain's heightmap is: use 513x513 or 257x257");
}

TEST_CASE("unity import values equal the formulas", "[pipeline][engine]") {
  json preset = game_terrain(513, "unity");
  preset["origin"] = {1026, -513};
  preset["world"] = {{"origin", {0, -1026}}, {"size", {4096, 4096}}};
  const json u = import_of(preset).at("unity");
  const double c = 4.0, range_m = 600.0;
  CHECK(u.at("terrain_width").get<double>() == (513 - 1) * c);  // (N - 1) x cell, not N x cell
  CHECK(u.at("terrain_length").get<double>() == (513 - 1) * c);
  CHECK(u.at("terrain_height").get<double>() == range_m);
  CHECK(u.at("heightmap_resolution") == 513);
  CHECK(u.at("position") == json({1026 * c, 0.0, -513 * c}));
  CHECK(u.at("raw").at("byte_order") == "Windows");
  CHECK(u.at("size_legal") == true);
  CHECK(import_of(game_terrain(512, "")).at("unity").at("size_legal") == false);
}

TEST_CASE("unreal target on game-terrain: legal at 505, import values", "[pipeline][engine]") {
  json preset = game_terrain(505, "unreal");
  const pipeline p = pipeline::build(preset);
  CHECK(check_engine_target(p, engine_target::unreal).empty());
  json opengl_only = game_terrain(505, "unreal");
  opengl_only["outputs"].erase(3);
  CHECK(texts(check_engine_target(pipeline::build(opengl_only), engine_target::unreal)) ==
        std::vector<std::string>{"outputs[2] (normal).convention: target unreal: \"opengl\" is not unreal's "
                                 "convention (\"directx\"); its green channel will read upside down"});
  const auto bad = texts(check_engine_target(pipeline::build(game_terrain(512, "unreal")), engine_target::unreal));
  REQUIRE(!bad.empty());
  CHECK(bad[0].rfind("size: target unreal: 512x512 is not an Unreal landscape size (components x sections x quads + "
                     "1, 127 to 8161); nearest: ",
                     0) == 0);
  CHECK(bad[0].find("(recommended: 127, 253, 505, 1009, 2017, 4033, 8129)") != std::string::npos);

  preset["origin"] = {505, 0};
  preset["world"] = {{"origin", {0, 0}}, {"size", {1010, 505}}};
  const json u = import_of(preset).at("unreal");
  const double c = 4.0, range_m = 600.0;
  CHECK(u.at("scale") == json({c * 100, c * 100, range_m * 100 / 512}));
  CHECK(u.at("scale")[2].get<double>() == 117.1875);
  CHECK(u.at("location") == json({505 * c * 100, 0.0, range_m * 100 / 2}));
  // Height 0 (16-bit value 0) lands at Z 0: location.z - 32768 * scale.z / 128 cm.
  CHECK(u.at("location")[2].get<double>() - 32768.0 * u.at("scale")[2].get<double>() / 128.0 == 0.0);
  CHECK(u.at("layout").at("quads_per_section") == 63);
  CHECK(u.at("layout").at("sections_per_component") == "2x2");
  CHECK(u.at("layout").at("components") == json({4, 4}));
  CHECK(u.at("size_legal") == true);
  CHECK(u.at("recommended_size") == true);
}

TEST_CASE("godot target on game-terrain: legal at 512, import values", "[pipeline][engine]") {
  json preset = game_terrain(512, "godot");
  preset["outputs"].push_back({{"map", "height"}, {"format", "exr"}});
  CHECK(check_engine_target(pipeline::build(preset), engine_target::godot).empty());
  CHECK(check_engine_target(pipeline::build(game_terrain(512, "godot")), engine_target::godot).empty());
  const json g = import_of(preset).at("godot");
  CHECK(g.at("region_size") == 512);
  CHECK(g.at("regions") == json({1, 1}));
  CHECK(g.at("vertex_spacing").get<double>() == 4.0);
  CHECK(g.at("height_scale").get<double>() == 600.0);
  CHECK(g.at("position") == json({1024.0, 0.0, 1024.0}));
  json big = game_terrain(3000, "godot");
  CHECK(import_of(big).at("godot").at("region_size") == 2048);
  CHECK(import_of(big).at("godot").at("regions") == json({2, 2}));
  json huge = game_terrain(8, "godot");
  huge["size"] = {20000, 8};
  CHECK(texts(check_engine_target(pipeline::build(huge), engine_target::godot))[0] ==
        "size: target godot: 20000x8 is larger than Terrain3D's 16384 x 16384 world; nearest: 16384");
}

TEST_CASE("target: preset key validated, kept in the canonical preset only when given", "[pipeline][engine]") {
  CHECK(landform_test::build_issue_texts(game_terrain(513, "untiy")) ==
        std::vector<std::string>{"target: \"untiy\" is not an engine target (unity | unreal | godot); did you mean "
                                 "\"unity\"?"});
  json number = game_terrain(513, "");
  number["target"] = 3;
  CHECK(landform_test::build_issue_texts(number) == std::vector<std::string>{"target: 3 must be a string"});
  CHECK(pipeline::build(game_terrain(513, "unreal")).canonical().at("target") == "unreal");
  CHECK(!pipeline::build(game_terrain(513, "")).canonical().contains("target"));
  const json import = import_of(game_terrain(513, "godot"));
  CHECK(import.at("target") == "godot");
  CHECK(!import_of(game_terrain(513, "")).contains("target"));
  // No importable height format: raw16 is what Unity reads.
  json no_raw = game_terrain(513, "unity");
  no_raw["outputs"] = {{{"map", "height"}, {"format", "png16"}}};
  CHECK(texts(check_engine_target(pipeline::build(no_raw), engine_target::unity)) ==
        std::vector<std::string>{"outputs: target unity: no height output unity can import; add {\"map\": "
                                 "\"height\", \"format\": \"raw16\"} (unity reads raw16)"});
}
