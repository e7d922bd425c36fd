// Declared data flow: stages declare the layers they read and write, return
// their side layers, and the pipeline checks both against the declaration and
// keeps (and asks for) only the side layers an output, a mask or a later stage
// uses.

#include <catch2/catch.hpp>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "landform/pipeline/pipeline.hpp"
#include "landform/pipeline/registry.hpp"
#include "landform/stages/constant.hpp"
#include "unit/stage_checks.hpp"

using namespace landform;
using namespace landform_test;

namespace {

// What a probe stage saw when it ran.
struct probe_log {
  std::vector<std::vector<std::string>> wanted;
};

// The built-in stages plus "probe", a filter that declares the side layers
// "a" and "b" (filled with 0.5 and 0.25 when wanted) and returns `extra` too
// (an undeclared layer, when not empty), and "reader", which declares that it
// reads "a" and copies it into the heights.
stage_registry test_registry(const std::shared_ptr<probe_log>& log, const std::string& extra = "") {
  stage_registry registry;
  register_builtin_stages(registry);
  stage_info probe = make_stage_info<constant_params>(
      "probe", stage_category::filter, stage_scope::pointwise, "test probe", "test probe",
      +[](heightfield&, const constant_params&, const stage_context&) {});
  probe.writes = {"a", "b"};
  probe.create = [log, extra](const json&, const stage_inputs&) -> stage_fn {
    return [log, extra](heightfield& h, const stage_context& ctx) {
      log->wanted.push_back(ctx.wanted);
      layer_set side;
      if (ctx.wants("a")) side.put("a", std::vector<float>(h.size(), 0.5f));
      if (ctx.wants("b")) side.put("b", std::vector<float>(h.size(), 0.25f));
      if (!extra.empty()) side.put(extra, std::vector<float>(h.size(), 1.0f));
      return side;
    };
  };
  registry.add(std::move(probe));
  stage_info reader = make_stage_info<constant_params>(
      "reader", stage_category::filter, stage_scope::pointwise, "test reader", "test reader",
      +[](heightfield& h, const constant_params&, const stage_context& ctx) {
        const std::vector<float>* a = ctx.read_layer("a");
        if (a) h.values() = *a;
      });
  reader.reads = {"a"};
  registry.add(std::move(reader));
  return registry;
}

json preset_with(const json& stages, const json& outputs) {
  return {{"landform", 1}, {"size", 8}, {"stages", stages}, {"outputs", outputs}};
}

const json k_height_only = json::array({{{"map", "height"}, {"format", "r32"}}});

}  // namespace

TEST_CASE("layers: an unused side layer is neither computed nor kept", "[pipeline][layers]") {
  auto log = std::make_shared<probe_log>();
  const stage_registry registry = test_registry(log);
  const pipeline p = pipeline::build(preset_with(json::array({{{"type", "probe"}}}), k_height_only), registry);
  CHECK(p.stages()[0].wanted.empty());
  const build_result r = p.run_full({1, {}, {}, {}});
  REQUIRE(log->wanted.size() == 1);
  CHECK(log->wanted[0].empty());
  CHECK(r.layers.names().empty());
}

TEST_CASE("layers: a side layer used by an output, a mask or a later stage is kept", "[pipeline][layers]") {
  auto log = std::make_shared<probe_log>();
  const stage_registry registry = test_registry(log);
  // Requested as an output: only "a" is asked for and kept.
  {
    const pipeline p = pipeline::build(
        preset_with(json::array({{{"type", "probe"}}}), json::array({{{"map", "a"}, {"format", "r32"}}})), registry);
    const build_result r = p.run_full({1, {}, {}, {}});
    CHECK(log->wanted.back() == std::vector<std::string>{"a"});
    CHECK(r.layers.names() == std::vector<std::string>{"a"});
    CHECK(r.layers.find("a")->at(0) == 0.5f);
  }
  // Read by a later stage's mask: "b" is kept.
  {
    const json stages = json::array({{{"type", "probe"}}, {{"type", "constant"}, {"value", 1}, {"mask", "b"}}});
    const build_result r = pipeline::build(preset_with(stages, k_height_only), registry).run_full({1, {}, {}, {}});
    CHECK(log->wanted.back() == std::vector<std::string>{"b"});
    CHECK(r.layers.names() == std::vector<std::string>{"b"});
    CHECK(r.heights().at(3, 3) == 0.25f);  // 0 + 0.25 * (1 - 0)
  }
  // Declared as read by a later stage: "a" is kept and read.
  {
    const json stages = json::array({{{"type", "probe"}}, {{"type", "reader"}}});
    const build_result r = pipeline::build(preset_with(stages, k_height_only), registry).run_full({1, {}, {}, {}});
    CHECK(log->wanted.back() == std::vector<std::string>{"a"});
    CHECK(r.heights().at(2, 5) == 0.5f);
  }
}

TEST_CASE("layers: a stage returning an undeclared layer is a logic error", "[pipeline][layers]") {
  auto log = std::make_shared<probe_log>();
  const stage_registry registry = test_registry(log, "secret");
  const pipeline p = pipeline::build(preset_with(json::array({{{"type", "probe"}}}), k_height_only), registry);
  CHECK_THROWS_WITH(p.run_full({1, {}, {}, {}}),
                    "stages[0] (probe) returned the layer \"secret\", which it does not declare in writes");
}

TEST_CASE("layers: reads are checked against the layers written before", "[pipeline][layers]") {
  auto log = std::make_shared<probe_log>();
  const stage_registry registry = test_registry(log);
  try {
    (void)pipeline::build(preset_with(json::array({{{"type", "reader"}}, {{"type", "probe"}}}), k_height_only),
                          registry);
    FAIL("a stage reading a layer no earlier stage writes was accepted");
  } catch (const preset_error& e) {
    REQUIRE(e.issues().size() == 1);
    CHECK(e.issues()[0].to_string() == "stages[0] (reader): reads the layer \"a\", which no earlier stage writes");
  }
  // Reading a layer the stage did not declare is a logic error.
  stage_context ctx;
  ctx.read_layers = {{"a", nullptr}};
  CHECK_NOTHROW(ctx.read_layer("a"));
  CHECK_THROWS_AS(ctx.read_layer("b"), std::logic_error);
}

TEST_CASE("layers: hydraulic erosion computes its maps only when one is used", "[pipeline][layers]") {
  const json stages = json::parse(R"([{"type": "opensimplex", "feature_size": 20, "octaves": 3},
    {"type": "normalize", "mode": "min_max"}, {"type": "hydraulic_erosion", "droplets_per_cell": 0.2}])");
  const json base = {{"landform", 1}, {"size", 32}, {"seed", 4}, {"stages", stages}};
  json plain = base;
  plain["outputs"] = k_height_only;
  const build_result without = pipeline::build(plain).run_full({1, {}, {}, {}});
  CHECK(without.layers.names().empty());
  json with = base;
  with["outputs"] = json::array({{{"map", "height"}, {"format", "r32"}}, {{"map", "deposition"}, {"format", "r32"}}});
  const pipeline p = pipeline::build(with);
  CHECK(p.stages()[2].wanted == std::vector<std::string>{"deposition"});
  const build_result kept = p.run_full({1, {}, {}, {}});
  CHECK(kept.layers.names() == std::vector<std::string>{"deposition"});
  // The heights do not depend on whether the maps were computed.
  CHECK(bit_equal(without.heights(), kept.heights()));
}
