// Unit tests for pipeline::build and run: exact error texts, sizes and worlds,
// derived stage seeds, ids and disabled stages, region/world consistency, the
// canonical preset, and the preset text helpers (parse_preset_text,
// apply_override).

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "landform/core/error.hpp"
#include "landform/core/heightfield.hpp"
#include "landform/pipeline/pipeline.hpp"
#include "landform/pipeline/preset.hpp"
#include "landform/pipeline/registry.hpp"

#include "bit_equal.hpp"

namespace {

using namespace landform;
using landform_test::bit_equal;

// The issues of a preset that must fail to build.
std::vector<preset_issue> build_issues(const json& preset) {
  try {
    (void)pipeline::build(preset);
  } catch (const preset_error& e) {
    return e.issues();
  }
  FAIL("pipeline::build accepted: " << preset.dump());
  return {};
}

std::vector<std::string> issue_texts(const std::vector<preset_issue>& issues) {
  std::vector<std::string> out;
  for (const auto& issue : issues) out.push_back(issue.to_string());
  return out;
}

// The message of the preset_error `fn` throws.
template <class F>
std::string preset_error_text(F&& fn) {
  try {
    fn();
  } catch (const preset_error& e) {
    return e.what();
  }
  return "(no preset_error thrown)";
}

}  // namespace

TEST_CASE("pipeline: an out-of-range parameter names its stage, value and rule", "[stages][pipeline]") {
  const json preset = json::parse(R"({
    "size": 32,
    "stages": [{"type": "opensimplex"}, {"type": "perturb", "magnitude": -3}]
  })");
  const auto issues = build_issues(preset);
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].path == "stages[1] (perturb).magnitude");
  CHECK(issues[0].message == "-3 is below the minimum 0");
  CHECK(issues[0].to_string() == "stages[1] (perturb).magnitude: -3 is below the minimum 0");
  CHECK(preset_error_text([&] { (void)pipeline::build(preset); }) ==
        "stages[1] (perturb).magnitude: -3 is below the minimum 0");
}

TEST_CASE("pipeline: exclusive bounds and fractional values are reported exactly", "[stages][pipeline]") {
  const json preset = json::parse(R"({
    "size": 32,
    "stages": [{"type": "opensimplex", "feature_size": 0, "octaves": 17, "gain": 1.5}]
  })");
  CHECK(issue_texts(build_issues(preset)) ==
        std::vector<std::string>{"stages[0] (opensimplex).feature_size: 0 must be greater than 0",
                                 "stages[0] (opensimplex).gain: 1.5 is above the maximum 1",
                                 "stages[0] (opensimplex).octaves: 17 is above the maximum 16"});
}

TEST_CASE("pipeline: unknown keys get a did-you-mean suggestion", "[stages][pipeline]") {
  SECTION("top level") {
    const auto issues = build_issues(json::parse(R"({"size": 32, "sead": 3, "stages": [{"type": "opensimplex"}]})"));
    REQUIRE(issues.size() == 1);
    CHECK(issues[0].path == "sead");
    CHECK(issues[0].message == "unknown key; did you mean \"seed\"?");
  }
  SECTION("stage parameter") {
    const auto issues = build_issues(json::parse(R"({"size": 32, "stages": [{"type": "opensimplex", "octave": 3}]})"));
    REQUIRE(issues.size() == 1);
    CHECK(issues[0].to_string() == "stages[0] (opensimplex).octave: unknown parameter; did you mean \"octaves\"?");
  }
  SECTION("a key named for what it does, whose value is a choice of another parameter") {
    const auto issues =
        build_issues(json::parse(R"({"size": 32, "stages": [{"type": "opensimplex2", "mode": "ridged"}]})"));
    REQUIRE(issues.size() == 1);
    CHECK(issues[0].to_string() ==
          "stages[0] (opensimplex2).mode: unknown parameter; \"ridged\" is a choice of \"fractal\"");
  }
  SECTION("no suggestion for a word that resembles nothing") {
    const auto issues = build_issues(json::parse(R"({"size": 32, "stages": [{"type": "perturb", "wobbliness": 3}]})"));
    REQUIRE(issues.size() == 1);
    CHECK(issues[0].to_string() == "stages[0] (perturb).wobbliness: unknown parameter");
  }
}

TEST_CASE("pipeline: an unknown stage type gets a did-you-mean suggestion", "[stages][pipeline]") {
  const auto issues = build_issues(
      json::parse(R"({"size": 32, "stages": [{"type": "opensimplx"}, {"type": "olsen_erosoin"}, {"type": "zzz"}]})"));
  CHECK(issue_texts(issues) ==
        std::vector<std::string>{
            "stages[0].type: unknown stage \"opensimplx\"; did you mean \"opensimplex\"? (landform stages lists them)",
            "stages[1].type: unknown stage \"olsen_erosoin\"; did you mean \"olsen_erosion\"? (landform stages lists "
            "them)",
            "stages[2].type: unknown stage \"zzz\" (landform stages lists them)"});
}

TEST_CASE("pipeline: wrong value types are reported", "[stages][pipeline]") {
  const auto issues = build_issues(json::parse(R"({
    "size": 32, "seed": "abc",
    "stages": [
      {"type": "opensimplex", "octaves": "six", "feature_size": "big"},
      {"type": "perturb", "sampling": 3},
      {"type": "normalize", "clamp": "yes"},
      {"type": "smooth", "seed": [1], "enabled": 1}
    ]
  })"));
  CHECK(issue_texts(issues) ==
        std::vector<std::string>{
            "seed: \"abc\" must be an integer from -2^63 to 2^63-1",
            "stages[0] (opensimplex).feature_size: \"big\" must be a number",
            "stages[0] (opensimplex).octaves: \"six\" must be an integer",
            "stages[1] (perturb).sampling: 3 must be a string, one of bilinear | nearest",
            "stages[2] (normalize).clamp: \"yes\" must be true or false",
            "stages[3] (smooth).seed: [1] must be an integer from -2^63 to 2^63-1, or \"preset\"",
            "stages[3] (smooth).enabled: 1 must be true or false",
        });
}

TEST_CASE("pipeline: every problem is reported at once", "[stages][pipeline]") {
  const json preset = json::parse(R"({
    "size": 0,
    "colour": "red",
    "stages": [
      {"type": "opensimplex", "octaves": 0},
      {"type": "perturbb"},
      {"type": "smooth", "sigma": -1, "method": "median"},
      {"type": "normalize", "input_min": 2, "input_max": 2}
    ]
  })");
  const auto issues = build_issues(preset);
  CHECK(issues.size() == 7);
  const auto texts = issue_texts(issues);
  auto has = [&](const std::string& t) { return std::find(texts.begin(), texts.end(), t) != texts.end(); };
  CHECK(has("colour: unknown key"));
  CHECK(has("size: 0 is below the minimum 1"));
  CHECK(has("stages[0] (opensimplex).octaves: 0 is below the minimum 1"));
  CHECK(has("stages[1].type: unknown stage \"perturbb\"; did you mean \"perturb\"? (landform stages lists them)"));
  CHECK(has("stages[2] (smooth).sigma: -1 is below the minimum 0.1"));
  CHECK(has("stages[2] (smooth).method: \"median\" is not one of gaussian | box | tutorial"));
  CHECK(has("stages[3] (normalize).input_max: must differ from input_min (both are 2)"));
  // what() lists them one per line.
  const std::string what = preset_error_text([&] { (void)pipeline::build(preset); });
  CHECK(std::count(what.begin(), what.end(), '\n') == 6);
}

TEST_CASE("pipeline: size as an integer or as [width, height]", "[stages][pipeline]") {
  const pipeline square = pipeline::build(json::parse(R"({"size": 24, "stages": [{"type": "opensimplex"}]})"));
  CHECK(square.region().width == 24);
  CHECK(square.region().height == 24);
  const pipeline rect = pipeline::build(json::parse(R"({"size": [40, 18], "stages": [{"type": "opensimplex"}]})"));
  CHECK(rect.region().width == 40);
  CHECK(rect.region().height == 18);
  const heightfield h = rect.run({1, {}, {}, {}});
  CHECK(h.width() == 40);
  CHECK(h.height() == 18);
  CHECK(rect.canonical()["size"] == json::array({40, 18}));
  // Without a world, the world is the region.
  CHECK(rect.world() == world_extent{0, 0, 40, 18});
  // Without a size, the default is 512.
  const pipeline defaulted = pipeline::build(json::parse(R"({"stages": [{"type": "opensimplex"}]})"));
  CHECK(defaulted.region().width == 512);
  CHECK(defaulted.region().height == 512);
}

TEST_CASE("pipeline: bad sizes are rejected", "[stages][pipeline]") {
  CHECK(issue_texts(build_issues(json::parse(R"({"size": 0, "stages": [{"type": "opensimplex"}]})"))) ==
        std::vector<std::string>{"size: 0 is below the minimum 1"});
  CHECK(issue_texts(build_issues(json::parse(R"({"size": [8, 2.5], "stages": [{"type": "opensimplex"}]})"))) ==
        std::vector<std::string>{"size: [8,2.5]: 2.5 is not a whole number of cells"});
  CHECK(issue_texts(build_issues(json::parse(R"({"size": [0, 5], "stages": [{"type": "opensimplex"}]})"))) ==
        std::vector<std::string>{"size: [0,5]: 0 is below the minimum 1"});
  CHECK(issue_texts(build_issues(json::parse(R"({"size": [8, 2097153], "stages": [{"type": "opensimplex"}]})"))) ==
        std::vector<std::string>{"size: [8,2097153]: 2097153 is above the maximum 2097152"});
  CHECK(issue_texts(build_issues(json::parse(R"({"size": 12.5, "stages": [{"type": "opensimplex"}]})"))) ==
        std::vector<std::string>{"size: 12.5 must be an integer or [width, height] in cells"});
  CHECK(issue_texts(build_issues(json::parse(R"({"size": [1, 2, 3], "stages": [{"type": "opensimplex"}]})"))) ==
        std::vector<std::string>{"size: [1,2,3] must be an integer or [width, height] in cells"});
}

TEST_CASE("pipeline: a world smaller than the region is an error", "[stages][pipeline]") {
  CHECK(issue_texts(build_issues(json::parse(R"({"size": 64, "world": 32, "stages": [{"type": "opensimplex"}]})"))) ==
        std::vector<std::string>{
            "world: the region (origin [0, 0], size 64x64) must lie inside the world (origin [0, 0], size 32x32)"});
  // Fits in size but not with its origin.
  CHECK(issue_texts(build_issues(json::parse(
            R"({"size": [32, 48], "origin": [40, 90], "world": [128, 128], "stages": [{"type": "opensimplex"}]})"))) ==
        std::vector<std::string>{
            "world: the region (origin [40, 90], size 32x48) must lie inside the world (origin [0, 0], size "
            "128x128)"});
  // A negative origin cannot lie inside a world, which starts at 0.
  CHECK(
      build_issues(json::parse(R"({"size": 8, "origin": [-1, 0], "world": 128, "stages": [{"type": "opensimplex"}]})"))
          .size() == 1);
  // Exactly the world fits.
  CHECK_NOTHROW(pipeline::build(json::parse(
      R"({"size": [32, 48], "origin": [96, 80], "world": [128, 128], "stages": [{"type": "opensimplex"}]})")));
}

TEST_CASE("pipeline: a stage's derived seed depends only on the preset seed and its key", "[stages][pipeline]") {
  const pipeline base = pipeline::build(json::parse(R"({
    "size": 16, "seed": 99,
    "stages": [{"type": "opensimplex", "octaves": 2}, {"type": "normalize"}]
  })"));
  const pipeline inserted = pipeline::build(json::parse(R"({
    "size": 16, "seed": 99,
    "stages": [{"type": "perturb"}, {"type": "opensimplex", "octaves": 2}, {"type": "normalize", "clamp": true}]
  })"));
  const pipeline edited = pipeline::build(json::parse(R"({
    "size": 16, "seed": 99,
    "stages": [{"type": "opensimplex", "octaves": 5, "feature_size": 7}, {"type": "normalize", "output_max": 3}]
  })"));
  REQUIRE(base.stages()[0].key == "opensimplex#0");
  REQUIRE(inserted.stages()[1].key == "opensimplex#0");
  REQUIRE(inserted.stages()[0].key == "perturb#0");
  const std::uint64_t s = base.stages()[0].seed;
  CHECK(s == derive_stage_seed(99, "opensimplex#0"));
  CHECK(inserted.stages()[1].seed == s);
  CHECK(edited.stages()[0].seed == s);
  CHECK(base.stages()[1].seed == inserted.stages()[2].seed);
  // Different keys and different preset seeds give different seeds.
  CHECK(base.stages()[1].seed != s);
  CHECK(inserted.stages()[0].seed != s);
  CHECK(derive_stage_seed(100, "opensimplex#0") != s);
  // The n-th stage of a type gets key <type>#n.
  const pipeline two = pipeline::build(json::parse(R"({
    "size": 16, "stages": [{"type": "opensimplex"}, {"type": "smooth"}, {"type": "opensimplex"}]
  })"));
  CHECK(two.stages()[0].key == "opensimplex#0");
  CHECK(two.stages()[1].key == "smooth#0");
  CHECK(two.stages()[2].key == "opensimplex#1");
  CHECK(two.stages()[2].seed != two.stages()[0].seed);
  // So the generated map is unchanged by a stage inserted before it (which the
  // generator overwrites), though that stage is a second normalize.
  const pipeline gen_a = pipeline::build(
      json::parse(R"({"size": 16, "seed": 5, "stages": [{"type": "opensimplex"}, {"type": "normalize"}]})"));
  const pipeline gen_b = pipeline::build(json::parse(
      R"({"size": 16, "seed": 5, "stages": [{"type": "normalize", "output_min": -1, "input_min": 0, "output_max": 0},
                                            {"type": "opensimplex"}, {"type": "normalize"}]})"));
  CHECK(gen_b.stages()[1].key == "opensimplex#0");
  CHECK(bit_equal(gen_a.run({1, {}, {}, {}}), gen_b.run({1, {}, {}, {}})));
}

TEST_CASE("pipeline: explicit stage seeds", "[stages][pipeline]") {
  const pipeline p = pipeline::build(json::parse(R"({
    "size": 16, "seed": -42,
    "stages": [{"type": "opensimplex", "seed": "preset"}, {"type": "opensimplex", "seed": 7},
               {"type": "perturb", "seed": -1}]
  })"));
  CHECK(p.stages()[0].seed == static_cast<std::uint64_t>(std::int64_t{-42}));
  CHECK(p.stages()[1].seed == 7u);
  CHECK(p.stages()[2].seed == static_cast<std::uint64_t>(std::int64_t{-1}));
  // An explicit seed is written into the canonical preset.
  CHECK(p.canonical()["stages"][0]["seed"] == "preset");
  CHECK(p.canonical()["stages"][1]["seed"] == 7);
  // A stage seeded 7 generates the same map whatever the preset seed.
  const pipeline a =
      pipeline::build(json::parse(R"({"size": 16, "seed": 1, "stages": [{"type": "opensimplex", "seed": 7}]})"));
  const pipeline b =
      pipeline::build(json::parse(R"({"size": 16, "seed": 2, "stages": [{"type": "opensimplex", "seed": 7}]})"));
  CHECK(bit_equal(a.run({1, {}, {}, {}}), b.run({1, {}, {}, {}})));
  const pipeline c = pipeline::build(json::parse(R"({"size": 16, "seed": 2, "stages": [{"type": "opensimplex"}]})"));
  CHECK_FALSE(bit_equal(b.run({1, {}, {}, {}}), c.run({1, {}, {}, {}})));
  // Any other string is an error.
  CHECK(issue_texts(
            build_issues(json::parse(R"({"size": 16, "stages": [{"type": "opensimplex", "seed": "random"}]})"))) ==
        std::vector<std::string>{
            "stages[0] (opensimplex).seed: \"random\" must be an integer from -2^63 to 2^63-1, or \"preset\""});
}

TEST_CASE("pipeline: an id replaces the key used for the seed", "[stages][pipeline]") {
  const pipeline p = pipeline::build(json::parse(R"({
    "size": 16, "seed": 3,
    "stages": [{"type": "opensimplex", "id": "base"}, {"type": "opensimplex"}]
  })"));
  CHECK(p.stages()[0].key == "base");
  CHECK(p.stages()[0].seed == derive_stage_seed(3, "base"));
  CHECK(p.stages()[0].seed != derive_stage_seed(3, "opensimplex#0"));
  // A stage keeps its seed when moved, as long as its id stays.
  const pipeline moved = pipeline::build(json::parse(R"({
    "size": 16, "seed": 3,
    "stages": [{"type": "opensimplex"}, {"type": "perturb"}, {"type": "opensimplex", "id": "base"}]
  })"));
  CHECK(moved.stages()[2].seed == p.stages()[0].seed);
  CHECK(issue_texts(build_issues(json::parse(R"({"size": 16, "stages": [{"type": "opensimplex", "id": ""}]})"))) ==
        std::vector<std::string>{"stages[0] (opensimplex).id: \"\" must be a non-empty string"});
}

TEST_CASE("pipeline: enabled false skips a stage", "[stages][pipeline]") {
  const pipeline with_disabled = pipeline::build(json::parse(R"({
    "size": [24, 20], "seed": 11,
    "stages": [{"type": "opensimplex"}, {"type": "normalize", "enabled": false, "output_max": 100},
               {"type": "smooth", "method": "box", "enabled": false}]
  })"));
  const pipeline without = pipeline::build(json::parse(R"({
    "size": [24, 20], "seed": 11, "stages": [{"type": "opensimplex"}]
  })"));
  const pipeline enabled = pipeline::build(json::parse(R"({
    "size": [24, 20], "seed": 11,
    "stages": [{"type": "opensimplex"}, {"type": "normalize", "enabled": true, "output_max": 100}]
  })"));
  REQUIRE(with_disabled.stages().size() == 3);
  CHECK_FALSE(static_cast<bool>(with_disabled.stages()[1].run));
  CHECK(with_disabled.canonical()["stages"][1]["enabled"] == false);
  const heightfield a = with_disabled.run({1, {}, {}, {}});
  CHECK(bit_equal(a, without.run({1, {}, {}, {}})));
  CHECK_FALSE(bit_equal(a, enabled.run({1, {}, {}, {}})));
  // A disabled stage still takes its number, so later stages keep their seeds.
  const pipeline later = pipeline::build(json::parse(R"({
    "size": 16, "stages": [{"type": "opensimplex", "enabled": false}, {"type": "opensimplex"}]
  })"));
  CHECK(later.stages()[1].key == "opensimplex#1");
  // A disabled world stage does not force a world build.
  const pipeline region_only = pipeline::build(json::parse(R"({
    "size": 16, "origin": [4, 4], "world": 64,
    "stages": [{"type": "opensimplex"}, {"type": "smooth", "enabled": false}]
  })"));
  CHECK_FALSE(region_only.computes_world());
}

TEST_CASE("pipeline: a region equals the same window of the whole world", "[stages][pipeline]") {
  const std::string stages = R"("stages": [
      {"type": "opensimplex", "octaves": 4, "feature_size": 40},
      {"type": "perturb", "frequency": 5, "magnitude": 6},
      {"type": "olsen_erosion", "smoothness": 18, "iterations": 5},
      {"type": "smooth", "sigma": 1.2},
      {"type": "normalize", "mode": "min_max"}
    ])";
  const pipeline full = pipeline::build(json::parse(R"({"size": 128, "seed": 77, )" + stages + "}"));
  const pipeline part = pipeline::build(
      json::parse(R"({"size": [32, 48], "origin": [40, 24], "world": [128, 128], "seed": 77, )" + stages + "}"));
  CHECK_FALSE(full.computes_world());
  CHECK(part.computes_world());
  CHECK(part.world() == world_extent{0, 0, 128, 128});
  const heightfield whole = full.run({2, {}, {}, {}});
  const heightfield window = part.run({1, {}, {}, {}});
  REQUIRE(window.width() == 32);
  REQUIRE(window.height() == 48);
  CHECK(window.placement().origin_x == 40);
  CHECK(window.placement().origin_y == 24);
  CHECK(bit_equal(window, whole.crop(40, 24, 32, 48)));
  CHECK_FALSE(bit_equal(window, whole.crop(41, 24, 32, 48)));

  SECTION("a world with its own origin") {
    const pipeline wfull =
        pipeline::build(json::parse(R"({"size": 128, "origin": [-64, -32], "seed": 77, )" + stages + "}"));
    const pipeline wpart = pipeline::build(json::parse(
        R"({"size": [32, 48], "origin": [-24, -8], "world": {"origin": [-64, -32], "size": 128}, "seed": 77, )" +
        stages + "}"));
    CHECK(wpart.computes_world());
    CHECK(wpart.world() == world_extent{-64, -32, 128, 128});
    CHECK(bit_equal(wpart.run({2, {}, {}, {}}), wfull.run({1, {}, {}, {}}).crop(40, 24, 32, 48)));
  }
  SECTION("a pointwise-only preset computes only the region, and still agrees") {
    const std::string gen = R"("stages": [{"type": "opensimplex", "octaves": 3}, {"type": "normalize"}])";
    const pipeline gfull = pipeline::build(json::parse(R"({"size": 128, "seed": 77, )" + gen + "}"));
    const pipeline gpart = pipeline::build(
        json::parse(R"({"size": [32, 48], "origin": [40, 24], "world": [128, 128], "seed": 77, )" + gen + "}"));
    CHECK_FALSE(gpart.computes_world());
    CHECK(bit_equal(gpart.run({1, {}, {}, {}}), gfull.run({1, {}, {}, {}}).crop(40, 24, 32, 48)));
  }
}

TEST_CASE("pipeline: computes_world is false for an opensimplex-only preset", "[stages][pipeline]") {
  const pipeline p = pipeline::build(json::parse(
      R"({"size": [32, 48], "origin": [40, 24], "world": [128, 128], "stages": [{"type": "opensimplex"}]})"));
  CHECK_FALSE(p.computes_world());
  const pipeline q = pipeline::build(json::parse(
      R"({"size": [32, 48], "origin": [40, 24], "world": [128, 128], "stages": [{"type": "opensimplex"}, {"type": "perturb"}]})"));
  CHECK_FALSE(q.computes_world());  // perturb is local: the region grown by its halo
  CHECK(q.computed_area().width == 32 + 2 * 17);
  const pipeline r = pipeline::build(json::parse(
      R"({"size": [32, 48], "origin": [40, 24], "world": [128, 128], "stages": [{"type": "opensimplex"}, {"type": "olsen_erosion"}]})"));
  CHECK(r.computes_world());
}

TEST_CASE("pipeline: canonical() fills in every parameter default", "[stages][pipeline]") {
  const pipeline p = pipeline::build(json::parse(R"({
    "size": 16,
    "stages": [{"type": "opensimplex"}, {"type": "perturb", "magnitude": 4}, {"type": "olsen_erosion"},
               {"type": "smooth"}, {"type": "normalize", "id": "n"}]
  })"));
  const json& c = p.canonical();
  CHECK(c["landform"] == 1);
  CHECK(c["size"] == json::array({16, 16}));
  CHECK(c["seed"] == 0);
  CHECK(c["origin"] == json::array({0, 0}));
  CHECK(c["cell_size"] == 1.0);
  CHECK(c["height_scale"] == 1.0);
  CHECK(c["world"] == json::parse(R"({"origin": [0, 0], "size": [16, 16]})"));
  CHECK(c["outputs"] == json::parse(R"([{"map": "height", "format": "png16", "file": "height.png"}])"));
  REQUIRE(c["stages"].size() == 5);
  const stage_registry& registry = builtin_stages();
  for (std::size_t k = 0; k < c["stages"].size(); ++k) {
    const json& stage = c["stages"][k];
    const stage_info* info = registry.find(stage["type"].get<std::string>());
    REQUIRE(info != nullptr);
    for (const auto& spec : info->params) {
      INFO("stage " << k << " param " << spec.name);
      if (spec.optional && !stage.contains(spec.name)) continue;  // left out while not set (world_range)
      REQUIRE(stage.contains(spec.name));
      if (!(k == 1 && spec.name == "magnitude")) CHECK(stage[spec.name] == spec.default_value);
    }
  }
  CHECK(c["stages"][1]["magnitude"] == 4);
  CHECK(c["stages"][0] == json::parse(R"({"type": "opensimplex", "feature_size": 100.0, "octaves": 1,
      "lacunarity": 2.0, "gain": 0.5, "amplitude": 1.0, "z": 0.0, "dimensions": "3d"})"));
  CHECK(c["stages"][4]["id"] == "n");
}

TEST_CASE("pipeline: the canonical preset builds again to the same pipeline", "[stages][pipeline]") {
  // canonical() is "what was actually run" and goes into every manifest; it
  // should be a valid preset that reproduces the map.
  const pipeline p = pipeline::build(json::parse(R"({
    "size": [24, 16], "origin": [8, 4], "world": [64, 32], "seed": 9,
    "stages": [{"type": "opensimplex"}, {"type": "smooth", "id": "s"}]
  })"));
  const json& c = p.canonical();
  const pipeline again = pipeline::build(c);
  CHECK(again.canonical() == c);
  CHECK(again.world() == p.world());
  CHECK(bit_equal(again.run({1, {}, {}, {}}), p.run({1, {}, {}, {}})));
}

TEST_CASE("pipeline: apply_override edits a preset by dotted path", "[stages][pipeline]") {
  json preset =
      json::parse(R"({"size": 16, "stages": [{"type": "opensimplex"}, {"type": "perturb", "magnitude": 2}]})");
  SECTION("a stage parameter by index") {
    apply_override(preset, "stages.1.magnitude", "8");
    CHECK(preset["stages"][1]["magnitude"] == 8);
    CHECK(preset["stages"][1]["magnitude"].is_number_integer());
    CHECK(pipeline::build(preset).canonical()["stages"][1]["magnitude"] == 8);
  }
  SECTION("a new key is created") {
    apply_override(preset, "stages.0.octaves", "6");
    CHECK(preset["stages"][0]["octaves"] == 6);
    apply_override(preset, "seed", "-12");
    CHECK(preset["seed"] == -12);
    apply_override(preset, "size", "[64,32]");
    CHECK(preset["size"] == json::array({64, 32}));
  }
  SECTION("a bare word becomes a string, JSON stays JSON") {
    apply_override(preset, "stages.1.sampling", "nearest");
    CHECK(preset["stages"][1]["sampling"] == "nearest");
    apply_override(preset, "name", "\"quoted\"");
    CHECK(preset["name"] == "quoted");
    apply_override(preset, "stages.1.enabled", "false");
    CHECK(preset["stages"][1]["enabled"] == false);
    apply_override(preset, "description", "two words");
    CHECK(preset["description"] == "two words");
  }
  SECTION("a value that overflows a double is a string or a preset_error, never another exception") {
    try {
      apply_override(preset, "stages.1.magnitude", "1e999");
      CHECK(preset["stages"][1]["magnitude"] == "1e999");
    } catch (const preset_error&) {
      SUCCEED("rejected as a preset error");
    } catch (const std::exception& e) {
      FAIL("not a preset_error: " << e.what());
    }
  }
  SECTION("an index out of range is an error") {
    CHECK(preset_error_text([&] { apply_override(preset, "stages.2.magnitude", "8"); }) ==
          "--set stages.2.magnitude: 'stages.2' is out of range (the array has 2 elements)");
    CHECK(preset_error_text([&] { apply_override(preset, "stages.x.magnitude", "8"); }) ==
          "--set stages.x.magnitude: 'stages.x' indexes an array, use a number");
    CHECK(preset_error_text([&] { apply_override(preset, "size.inner", "8"); }) ==
          "--set size.inner: 'size.inner' goes inside a value that is not an object");
    CHECK(preset_error_text([&] { apply_override(preset, "stages..magnitude", "8"); }) ==
          "--set stages..magnitude: empty path component");
    // A trailing dot set the key before it ("seed." set seed).
    CHECK(preset_error_text([&] { apply_override(preset, "size.", "8"); }) == "--set size.: empty path component");
    CHECK(preset_error_text([&] { apply_override(preset, "stages.", "8"); }) == "--set stages.: empty path component");
    // The preset is untouched by a failed override.
    CHECK(preset ==
          json::parse(R"({"size": 16, "stages": [{"type": "opensimplex"}, {"type": "perturb", "magnitude": 2}]})"));
  }
}

TEST_CASE("pipeline: parse_preset_text reports malformed JSON as name:line:column", "[stages][pipeline]") {
  SECTION("a stray closing brace") {
    const std::string text = "{\n  \"size\": 16,\n  }\n";
    const std::string what = preset_error_text([&] { (void)parse_preset_text(text, "tutorial.json"); });
    INFO(what);
    CHECK(what.rfind("tutorial.json:3:3: ", 0) == 0);
    CHECK(what.find("malformed JSON") != std::string::npos);
  }
  SECTION("an invalid literal on the first line") {
    const std::string what = preset_error_text([&] { (void)parse_preset_text(R"({"size": nope})", "p.json"); });
    INFO(what);
    // The column is where the bad literal starts.
    CHECK(what.rfind("p.json:1:10: ", 0) == 0);
  }
  SECTION("unexpected end of input") {
    const std::string what = preset_error_text([&] { (void)parse_preset_text("{\"a\": [1, 2", "x.json"); });
    INFO(what);
    CHECK(what.rfind("x.json:1:", 0) == 0);
  }
  SECTION("a number too large for a double is a preset_error naming the file") {
    // Syntactically valid JSON that nlohmann rejects with out_of_range.406.
    try {
      (void)parse_preset_text("{\n  \"size\": 1e999\n}", "huge.json");
      FAIL("1e999 was accepted");
    } catch (const preset_error& e) {
      CHECK(std::string(e.what()).rfind("huge.json:", 0) == 0);
    } catch (const std::exception& e) {
      FAIL("not a preset_error: " << e.what());
    }
  }
  SECTION("valid text parses") {
    const json j = parse_preset_text(R"({"size": [3, 4]})", "ok.json");
    CHECK(j["size"] == json::array({3, 4}));
  }
}

TEST_CASE("pipeline: run reports progress and can be cancelled", "[stages][pipeline]") {
  const pipeline p = pipeline::build(json::parse(
      R"({"size": 16, "stages": [{"type": "opensimplex"}, {"type": "olsen_erosion", "iterations": 4}, {"type": "normalize"}]})"));
  std::vector<double> fractions;
  run_options options;
  options.nthreads = 1;
  options.progress = [&](std::string_view, double f) {
    fractions.push_back(f);
    return true;
  };
  (void)p.run(options);
  REQUIRE_FALSE(fractions.empty());
  CHECK(fractions.front() == 0.0);
  CHECK(fractions.back() == 1.0);
  CHECK(std::is_sorted(fractions.begin(), fractions.end()));
  options.progress = [](std::string_view stage, double) { return stage != "olsen_erosion"; };
  CHECK_THROWS_AS(p.run(options), cancelled_error);
}
