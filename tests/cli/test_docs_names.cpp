// Every parameter the schemas declare is documented: each stage parameter in
// docs/stages.md and each output option in docs/outputs.md, read from the
// CLI's own --json so the check sees what users see.

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/cli_harness.hpp"

namespace {

using landform_test::read_text;
using landform_test::run_cli;
using landform_test::source_path;

// `text` in backticks, as the Markdown writes names. (Built by appending:
// "`" + std::string trips GCC 12's -Wrestrict false positive.)
std::string code(const std::string& text) {
  std::string out(1, '`');
  out += text;
  out += '`';
  return out;
}

// The params (or options) and, recursively, the fields of object parameters.
// Top-level names must appear as `name` (a table row); fields appear in their
// parent's "allowed" cell as a bare word.
void check_names(const nlohmann::json& params, const std::string& doc, const std::string& owner, bool top_level) {
  REQUIRE(params.is_array());
  for (const auto& p : params) {
    const std::string name = p.at("name").get<std::string>();
    const std::string wanted = top_level ? code(name) : name;
    INFO(owner << ": " << wanted);
    CHECK(doc.find(wanted) != std::string::npos);
    if (p.contains("fields")) check_names(p.at("fields"), doc, owner + "." + name, false);
  }
}

// The section of `doc` that starts at the heading "## `name`" (up to the next
// "## "), so a name must be documented under its own entry.
std::string section(const std::string& doc, const std::string& name) {
  const std::size_t start = doc.find("## " + code(name));
  INFO("no section for " << name);
  REQUIRE(start != std::string::npos);
  const std::size_t end = doc.find("\n## ", start);
  return doc.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// Runs `landform <command> --json`, returns the list of entries.
nlohmann::json describe(const std::string& command) {
  const auto result = run_cli({command, "--json"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  nlohmann::json entries = nlohmann::json::parse(result.out);
  REQUIRE(entries.is_array());
  REQUIRE_FALSE(entries.empty());
  return entries;
}

}  // namespace

TEST_CASE("docs/stages.md names every stage parameter of `landform stages --json`", "[cli][docs]") {
  const std::string doc = read_text(source_path("docs/stages.md"));
  for (const auto& stage : describe("stages")) {
    const std::string name = stage.at("name").get<std::string>();
    check_names(stage.at("params"), section(doc, name), name, true);
  }
}

TEST_CASE("docs/outputs.md names every output option of `landform outputs --json`", "[cli][docs]") {
  const std::string doc = read_text(source_path("docs/outputs.md"));
  for (const auto& kind : describe("outputs")) {
    const std::string name = kind.at("name").get<std::string>();
    const std::string text = section(doc, name);
    REQUIRE(kind.at("formats").is_array());
    CHECK_FALSE(kind.at("formats").empty());
    for (const auto& format : kind.at("formats")) {
      INFO(name << " format " << format);
      CHECK(text.find(code(format.get<std::string>())) != std::string::npos);
    }
    check_names(kind.at("options"), text, name, true);
  }
}
