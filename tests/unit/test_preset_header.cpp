// The top-level preset keys come from one schema (preset_header): every key of
// every shipped preset is declared there, and its checks are exact at the
// limits (64-bit origins, the world's forms).

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "landform/pipeline/preset.hpp"
#include "landform/pipeline/preset_header.hpp"
#include "landform/pipeline/preset_json_schema.hpp"
#include "landform/pipeline/registry.hpp"
#include "stage_checks.hpp"

namespace {

using namespace landform;
using landform_test::build_issue_texts;
using json = nlohmann::json;

json with(json preset, const std::string& key, json value) {
  preset[key] = std::move(value);
  return preset;
}

const json k_base = json::parse(R"({"size": 16, "stages": [{"type": "constant", "value": 0.5}]})");

bool declared(const std::string& key) {
  for (const auto& spec : preset_header::schema().specs())
    if (spec.name == key) return true;
  for (const auto& list : preset_list_keys())
    if (list == key) return true;
  return false;
}

}  // namespace

TEST_CASE("preset header: every top-level key of every shipped preset is declared", "[pipeline][schema]") {
  int presets = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::filesystem::path(LANDFORM_SOURCE_DIR) / "presets")) {
    if (entry.path().extension() != ".json") continue;
    const json preset = load_preset_file(entry.path());
    for (const auto& [key, value] : preset.items()) {
      INFO(entry.path().filename().string() << ": " << key);
      CHECK(declared(key));
    }
    ++presets;
  }
  CHECK(presets >= 5);
}

TEST_CASE("preset header: origins are checked exactly at the 64-bit limits", "[pipeline][schema]") {
  // INT64_MIN: no std::abs overflow, a plain range error.
  CHECK(build_issue_texts(with(k_base, "origin", json::parse("[-9223372036854775808, 0]"))) ==
        std::vector<std::string>{"origin: [-9223372036854775808,0]: -9223372036854775808 is below the minimum "
                                 "-1099511627776"});
  CHECK(build_issue_texts(with(k_base, "origin", json::parse("[0, 9223372036854775808]"))) ==
        std::vector<std::string>{"origin: [0,9223372036854775808] must be [x, y] in whole cells"});
  CHECK(build_issue_texts(with(k_base, "origin", {1099511627777, 0})).size() == 1);
  CHECK(build_issue_texts(with(with(k_base, "origin", {1099511627776 - 16, 0}), "world",
                               {{"origin", {1099511627776 - 32, 0}}, {"size", 64}}))
            .empty());
  CHECK(build_issue_texts(with(k_base, "seed", json::parse("9223372036854775808"))) ==
        std::vector<std::string>{"seed: 9223372036854775808 must be an integer from -2^63 to 2^63-1"});
}

TEST_CASE("preset header: the world's three forms and its errors", "[pipeline][schema]") {
  for (const json& world :
       {json(64), json({64, 64}), json({{"size", 64}}), json({{"origin", {0, 0}}, {"size", {64, 64}}})}) {
    INFO(world.dump());
    CHECK(build_issue_texts(with(k_base, "world", world)).empty());
  }
  CHECK(build_issue_texts(with(k_base, "world", {{"origin", {0, 0}}})) ==
        std::vector<std::string>{"world.size: missing"});
  CHECK(build_issue_texts(with(k_base, "world", {{"sise", 64}})) ==
        std::vector<std::string>{"world.sise: unknown key; did you mean \"size\"?", "world.size: missing"});
  CHECK(build_issue_texts(with(k_base, "world", "big")) ==
        std::vector<std::string>{"world: \"big\" must be an integer or [width, height] in cells"});
  CHECK(build_issue_texts(with(k_base, "name", 3)) == std::vector<std::string>{"name: 3 must be a string"});
  CHECK(build_issue_texts(with(k_base, "landform", 2)) ==
        std::vector<std::string>{"landform: 2 is not a format version this build reads (it reads 1)"});
}

TEST_CASE("preset JSON Schema: generated from the same declarations", "[pipeline][schema]") {
  const json schema = preset_json_schema();
  CHECK(schema.at("$schema") == "https://json-schema.org/draft/2020-12/schema");
  CHECK(schema.at("additionalProperties") == false);
  for (const auto& spec : preset_header::schema().specs()) CHECK(schema.at("properties").contains(spec.name));
  const json& size = schema.at("properties").at("size");
  CHECK(size.at("oneOf")[0].at("minimum") == 1);
  CHECK(size.at("oneOf")[1].at("maxItems") == 2);
  // One variant per stage type, each closed, naming its type as a constant.
  const json& variants = schema.at("properties").at("stages").at("items").at("oneOf");
  CHECK(variants.size() == builtin_stages().all().size());
  for (const auto& v : variants) {
    CHECK(v.at("additionalProperties") == false);
    CHECK(v.at("properties").at("type").contains("const"));
  }
}
