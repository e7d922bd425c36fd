#pragma once
// Describing schemas on the command line: the parameter tables `landform
// stages` and `landform outputs` print as text, JSON and Markdown, and the
// subcommand shape they share (`NAME`, `--json`, `--markdown`).

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "landform/params/schema.hpp"

namespace landform::cli {

/// What a describing subcommand was asked: one entry (or all) and the form.
struct describe_options {
  std::string name;  // empty: all entries
  bool json = false;
  bool markdown = false;
};

/// Adds the subcommand `command` with a NAME positional and --json /
/// --markdown flags; `run` does the work, its errors are reported and mapped
/// to exit codes like every other subcommand's.
void setup_describe_command(CLI::App& app, const std::string& command, const std::string& help,
                            const std::string& name_help, const std::string& markdown_help,
                            std::function<void(const describe_options&)> run);

/// Throws preset_error `unknown <what> "<name>"`, with a suggestion from `names`.
[[noreturn]] void throw_unknown(const std::string& what, const std::string& name,
                                const std::vector<std::string>& names);

/// How one kind of entry (stage, output kind) is shown; every entry has a `name`.
template <class T>
struct describer {
  std::string what;  ///< "stage", for "unknown stage ..."
  std::vector<const T*> all;
  std::function<nlohmann::json(const T&)> json;
  std::function<void(const std::vector<const T*>&, std::ostream&)> markdown;
  std::function<void(const T&, std::ostream&)> line;  ///< one line of the list
  std::function<void(const T&, std::ostream&)> text;  ///< one entry in full
};

/// Prints what `o` asks for: all entries or the one named (else throws
/// preset_error with a suggestion), as JSON (an array, or the one object),
/// Markdown, a list of lines, or one entry's text.
template <class T>
void describe(const describe_options& o, const describer<T>& d, std::ostream& out) {
  std::vector<const T*> selected = d.all;
  if (!o.name.empty()) {
    std::vector<std::string> names;
    const T* found = nullptr;
    for (const T* entry : d.all) {
      names.push_back(entry->name);
      if (entry->name == o.name) found = entry;
    }
    if (!found) throw_unknown(d.what, o.name, names);
    selected = {found};
  }
  if (o.json) {
    nlohmann::json list = nlohmann::json::array();
    for (const T* entry : selected) list.push_back(d.json(*entry));
    out << (o.name.empty() ? list : list[0]).dump(2) << '\n';
  } else if (o.markdown) {
    d.markdown(selected, out);
  } else if (o.name.empty()) {
    for (const T* entry : selected) d.line(*entry, out);
  } else {
    d.text(*selected[0], out);
  }
}

/// The default as a user would type it (strings without quotes).
std::string default_text(const param_spec& p);
/// A Markdown table cell: pipes escaped.
std::string markdown_cell(std::string text);

/// The schemas as JSON, one param_spec::to_json() each.
nlohmann::json params_json(const std::vector<param_spec>& params);
/// An indented, aligned list: name, type, default, allowed values, unit, doc, effect.
void print_params_text(const std::vector<param_spec>& params, std::ostream& out);
/// A Markdown table; `first_column` heads the name column ("parameter", "option").
void print_params_markdown(const std::vector<param_spec>& params, const std::string& first_column, std::ostream& out);

}  // namespace landform::cli
