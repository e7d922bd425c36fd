// The golden table: every case in tests/golden/cases is built through the
// library and the SHA-256 of each output file must equal the one recorded in
// tests/golden/golden.sha256. Any silent numeric change fails here; a change
// made on purpose is re-blessed with scripts/bless-golden.sh, which prints the
// entries that changed.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "landform/io/sha256.hpp"
#include "landform/outputs/output_kind.hpp"
#include "landform/pipeline/manifest.hpp"
#include "landform/pipeline/pipeline.hpp"
#include "landform/pipeline/preset.hpp"

namespace fs = std::filesystem;
using namespace landform;

namespace {

const fs::path k_golden_dir = fs::path(LANDFORM_SOURCE_DIR) / "tests" / "golden";

// "case/file" -> SHA-256 hex.
std::map<std::string, std::string> read_table() {
  std::ifstream in(k_golden_dir / "golden.sha256");
  std::map<std::string, std::string> table;
  std::string hash, name;
  while (in >> hash >> name) table[name] = hash;
  return table;
}

std::vector<fs::path> case_files() {
  std::vector<fs::path> cases;
  for (const auto& e : fs::directory_iterator(k_golden_dir / "cases"))
    if (e.path().extension() == ".json") cases.push_back(e.path());
  std::sort(cases.begin(), cases.end());
  return cases;
}

}  // namespace

TEST_CASE("golden table: every case's outputs hash as blessed", "[golden]") {
  const auto table = read_table();
  REQUIRE(table.size() >= 40);
  std::set<std::string> seen;
  for (const auto& file : case_files()) {
    const std::string name = file.stem().string();
    const pipeline p = pipeline::build(load_preset_file(file.string()), file.parent_path());
    const auto result = p.run_full(run_options{.nthreads = 2, .progress = {}, .stop_requested = {}, .stage_timed = {}});
    for (const auto& out : encode_outputs(p, result, 2)) {
      const std::string key = name + "/" + out.spec.file;
      INFO(key << " (re-bless with scripts/bless-golden.sh if the change is intended)");
      REQUIRE(table.count(key) == 1);
      CHECK(sha256_hex(out.bytes.data(), out.bytes.size()) == table.at(key));
      seen.insert(key);
    }
  }
  // Every blessed entry is still produced (a dropped output is a change too).
  for (const auto& [key, hash] : table) {
    INFO(key);
    CHECK(seen.count(key) == 1);
  }
}

TEST_CASE("golden table: covers every registered stage and output kind", "[golden]") {
  std::set<std::string> stages, outputs;
  for (const auto& file : case_files()) {
    const json preset = load_preset_file(file.string());
    for (const auto& s : preset["stages"]) stages.insert(s["type"].get<std::string>());
    for (const auto& o : preset["outputs"]) outputs.insert(o["map"].get<std::string>());
  }
  for (const auto& name : builtin_stages().names()) {
    INFO("stage " << name << " has no case in tests/golden/cases");
    CHECK(stages.count(name) == 1);
  }
  for (const auto& name : builtin_outputs().names()) {
    INFO("output kind " << name << " has no case in tests/golden/cases");
    CHECK(outputs.count(name) == 1);
  }
}
