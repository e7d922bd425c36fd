// Every layer name in a preset is checked against the layers written so far:
// a misspelt mask layer, biome moisture layer, splat layer or side-layer output
// is a preset error with a did-you-mean, never a silent fallback.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "landform/pipeline/pipeline.hpp"
#include "unit/stage_checks.hpp"

using namespace landform;
using namespace landform_test;

namespace {

// voronoi writes "moisture"; the constant writes the target layer "rocks".
json layered_preset() {
  return preset_of(json::array({{{"type", "voronoi"}}, {{"type", "constant"}, {"value", 0.5}, {"target", "rocks"}}}),
                   16);
}

}  // namespace

TEST_CASE("layer names: a misspelt mask layer is an error with a did-you-mean", "[schema][layers][errors]") {
  json preset = layered_preset();
  preset["stages"].push_back({{"type", "smooth"}, {"mask", "rock"}});
  CHECK(issues_of(preset) ==
        std::vector<std::string>{"stages[2] (smooth).mask: \"rock\" is not a layer written by an earlier stage "
                                 "(written: moisture, rocks); did you mean \"rocks\"?"});
  preset["stages"][2]["mask"] = {{"layer", "moistrue"}, {"height", {0.2, 0.8}}};
  CHECK(issues_of(preset) ==
        std::vector<std::string>{"stages[2] (smooth).mask.layer: \"moistrue\" is not a layer written by an earlier "
                                 "stage (written: moisture, rocks); did you mean \"moisture\"?"});
}

TEST_CASE("layer names: a mask may only read layers written before its stage", "[schema][layers][errors]") {
  const json preset = preset_of(json::array({{{"type", "smooth"}, {"mask", "moisture"}}, {{"type", "voronoi"}}}), 16);
  CHECK(issues_of(preset) == std::vector<std::string>{"stages[0] (smooth).mask: \"moisture\" is not a layer written "
                                                      "by an earlier stage (none is written)"});
}

TEST_CASE("layer names: a misspelt biome moisture_layer is an error, not the default moisture",
          "[schema][layers][errors][biome]") {
  json preset = layered_preset();
  preset["outputs"] = json::array({{{"map", "biome"}, {"format", "rgb8"}, {"moisture_layer", "moistur"}}});
  CHECK(issues_of(preset) ==
        std::vector<std::string>{"outputs[0] (biome).moisture_layer: \"moistur\" is not a layer written by an "
                                 "earlier stage (written: moisture, rocks); did you mean \"moisture\"?"});
  // Another written layer is fine, and so is the default without a voronoi
  // stage (default_moisture applies).
  preset["outputs"][0]["moisture_layer"] = "rocks";
  CHECK_NOTHROW(pipeline::build(preset));
  json plain = preset_of(json::array({{{"type", "constant"}, {"value", 0.6}}}), 8);
  plain["outputs"] = json::array({{{"map", "biome"}, {"format", "rgb8"}}});
  CHECK_NOTHROW(pipeline::build(plain));
  plain["outputs"][0]["moisture_layer"] = "moisture";
  CHECK_NOTHROW(pipeline::build(plain));
  plain["outputs"][0]["moisture_layer"] = "wetness";
  CHECK(issues_of(plain) == std::vector<std::string>{"outputs[0] (biome).moisture_layer: \"wetness\" is not a layer "
                                                     "written by an earlier stage (none is written)"});
}

TEST_CASE("layer names: a misspelt side-layer output is an error with a did-you-mean", "[schema][layers][errors]") {
  json preset = layered_preset();
  preset["outputs"] = json::array({{{"map", "moistue"}, {"format", "r32"}}});
  const auto issues = issues_of(preset);
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].rfind("outputs[0].map: \"moistue\" is not a map this preset can write (", 0) == 0);
  CHECK(issues[0].find("; did you mean \"moisture\"?") != std::string::npos);
}

TEST_CASE("layer names: splat rule keys are checked with their own paths", "[schema][layers][errors][splat]") {
  json preset = layered_preset();
  preset["outputs"] = json::array(
      {{{"map", "splat"},
        {"layers", {{{"name", "grass"}, {"slope", {40, 10}}}, {{"height", {0, 1}}}, {{"name", "x"}, {"nois", 1}}}}}});
  CHECK(issues_of(preset) == std::vector<std::string>{
                                 "outputs[0] (splat).layers[0].slope: [40,10] must have low <= high",
                                 "outputs[0] (splat).layers[1].name: missing",
                                 "outputs[0] (splat).layers[2].nois: unknown key; did you mean \"noise\"?",
                             });
}

TEST_CASE("layer names: a target named like a built-in map is an error, since no output could write it",
          "[schema][layers][errors]") {
  // "map": "slope" resolves to the derived slope first: the layer was silently unreachable.
  json preset = preset_of(json::array({{{"type", "constant"}, {"value", 0.5}, {"target", "slope"}}}), 16);
  CHECK(issues_of(preset) ==
        std::vector<std::string>{"stages[0] (constant).target: \"slope\" is the name of a built-in map (landform "
                                 "outputs lists them): an output with that map would write the built-in one, never "
                                 "this layer"});
  preset["stages"][0]["target"] = "slopes";
  CHECK_NOTHROW(pipeline::build(preset));
}

TEST_CASE("layer names: a layer output's fixed range must not be empty or inverted", "[schema][layers][errors]") {
  // min 1, max 0 wrote every cell as 0, with no word.
  json preset = layered_preset();
  preset["outputs"] =
      json::array({{{"map", "rocks"}, {"format", "png16"}, {"range", "fixed"}, {"min", 1}, {"max", 0}}});
  CHECK(issues_of(preset) ==
        std::vector<std::string>{"outputs[0] (rocks).max: 0.0 must be greater than min 1.0 (range \"fixed\" "
                                 "stretches min..max to full scale)"});
  preset["outputs"][0]["max"] = 1;
  CHECK(issues_of(preset).size() == 1);
  preset["outputs"][0]["max"] = 2;
  CHECK_NOTHROW(pipeline::build(preset));
  // min_max ignores min and max.
  preset["outputs"][0]["range"] = "min_max";
  preset["outputs"][0]["max"] = 0;
  CHECK_NOTHROW(pipeline::build(preset));
}
