// Preset edge cases found by trying to break the tool: file names that only
// collide after normalisation, non-finite heights, edits into missing arrays,
// and error columns in UTF-8 text.

#include <catch2/catch.hpp>

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
  CHECK(issues_of(with_outputs(json::parse(R"([{"file": "./manifest.json"}])"))) ==
        std::vector<std::string>{"outputs[0] (height).file: \"manifest.json\" is reserved for the build manifest"});
  CHECK(issues_of(with_outputs(json::parse(R"([{"file": "."}])"))) ==
        std::vector<std::string>{"outputs[0] (height).file: \".\" names the output directory itself, not a file"});
  CHECK(issues_of(with_outputs(json::parse(R"([{"file": "a/../../x.png"}])"))) ==
        std::vector<std::string>{"outputs[0] (height).file: \"a/../../x.png\" must not leave the output directory (no \"..\")"});
  CHECK(issues_of(with_outputs(json::parse(R"([{"file": "a.png"}, {"file": "a.png/b.png"}])"))) ==
        std::vector<std::string>{"outputs[1] (height).file: \"a.png/b.png\" and \"a.png\" cannot both exist (one is the other's folder)"});
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
        std::vector<std::string>{"size: 60000x60000 is more than 2^28 cells (1 GiB of heights); the largest square is 16384x16384"});
  CHECK(issues_of(json::parse(R"({"size": 64, "world": [20000, 20000], "stages": [{"type": "opensimplex"}]})")) ==
        std::vector<std::string>{"world: 20000x20000 is more than 2^28 cells (1 GiB of heights); the largest square is 16384x16384"});
}
