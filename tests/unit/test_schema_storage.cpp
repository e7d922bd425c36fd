// Every declared numeric range of every registered stage and output must be
// representable in the member that stores the value: a range wider than its
// type lets a valid-looking value wrap (droplet_count = 4294967301 became 5).

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "landform/outputs/output_kind.hpp"
#include "landform/params/schema.hpp"
#include "landform/pipeline/pipeline.hpp"
#include "landform/pipeline/registry.hpp"

namespace {

using namespace landform;

// "" when `range` lies inside `storage`, else what is wrong.
std::string range_problem(const param_range& range, const param_range& storage) {
  if (storage.min && (!range.min || *range.min < *storage.min)) return "minimum below the type's lowest value";
  if (storage.max && (!range.max || *range.max > *storage.max)) return "maximum above the type's largest value";
  return {};
}

// Walks `specs` and nested fields; appends "path: problem" for each range
// that does not fit its storage.
void collect(const std::vector<param_spec>& specs, const std::string& where, std::vector<std::string>& problems) {
  for (const auto& spec : specs) {
    const std::string path = where + "." + spec.name;
    // (booleans carry their type's limits too, but have no range to check)
    if (auto problem = range_problem(spec.range, spec.storage); !problem.empty() && spec.kind != param_kind::boolean)
      problems.push_back(path + ": " + problem);
    if (spec.kind == param_kind::integer && !spec.storage.max)
      problems.push_back(path + ": integer without storage limits");
    collect(spec.fields, path, problems);
  }
}

}  // namespace

TEST_CASE("schema: every declared range of every stage and output fits its storage type", "[schema]") {
  std::vector<std::string> problems;
  std::size_t integers = 0;
  for (const auto& name : builtin_stages().names()) {
    const stage_info* info = builtin_stages().find(name);
    REQUIRE(info != nullptr);
    collect(info->params, name, problems);
    for (const auto& spec : info->params) integers += spec.kind == param_kind::integer ? 1 : 0;
  }
  for (const output_kind* kind : builtin_outputs().all()) collect(kind->options, kind->name, problems);
  INFO([&] {
    std::string text;
    for (const auto& p : problems) text += p + "\n";
    return text;
  }());
  CHECK(problems.empty());
  CHECK(integers >= 5);  // the walk reached the integer parameters
}

TEST_CASE("schema: an integer beyond 32 bits is refused, not wrapped", "[schema]") {
  for (const char* count : {"4294967301", "4611686018427387904"}) {
    const json preset = {{"size", 16},
                         {"stages",
                          {{{"type", "constant"}, {"value", 0.5}},
                           {{"type", "hydraulic_erosion"}, {"droplet_count", json::parse(count)}}}}};
    try {
      (void)pipeline::build(preset);
      FAIL("droplet_count " << count << " was accepted");
    } catch (const preset_error& e) {
      REQUIRE(e.issues().size() == 1);
      CHECK(e.issues()[0].path == "stages[1] (hydraulic_erosion).droplet_count");
      CHECK(e.issues()[0].message.find("is above the maximum") != std::string::npos);
    }
  }
}
