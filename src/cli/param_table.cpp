#include "param_table.hpp"

#include <algorithm>
#include <iomanip>
#include <ostream>

#include "cli_common.hpp"
#include "landform/core/error.hpp"

namespace landform::cli {

void setup_describe_command(CLI::App& app, const std::string& command, const std::string& help,
                            const std::string& name_help, const std::string& markdown_help,
                            std::function<void(const describe_options&)> run) {
  auto options = std::make_shared<describe_options>();
  CLI::App* cmd = app.add_subcommand(command, help);
  cmd->add_option("name", options->name, name_help);
  auto* json_flag = cmd->add_flag("--json", options->json, "machine-readable schema");
  cmd->add_flag("--markdown", options->markdown, markdown_help)->excludes(json_flag);
  cmd->callback([options, run = std::move(run)] {
    int code = k_exit_ok;
    try {
      run(*options);
    } catch (...) {
      code = report_current_exception();
    }
    if (code != k_exit_ok) throw CLI::RuntimeError(code);
  });
}

void throw_unknown(const std::string& what, const std::string& name, const std::vector<std::string>& names) {
  std::string message = "unknown " + what + " \"" + name + "\"";
  if (auto guess = did_you_mean(name, names)) message += "; did you mean \"" + *guess + "\"?";
  throw preset_error("", message);
}

std::string default_text(const param_spec& p) {
  if (p.default_value.is_null()) return "none";  // an optional key left out
  return p.default_value.is_string() ? p.default_value.get<std::string>() : p.default_value.dump();
}

std::string markdown_cell(std::string text) {
  for (std::size_t k = text.find('|'); k != std::string::npos; k = text.find('|', k + 2)) text.replace(k, 1, "\\|");
  return text;
}

nlohmann::json params_json(const std::vector<param_spec>& params) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& p : params) out.push_back(p.to_json());
  return out;
}

void print_params_text(const std::vector<param_spec>& params, std::ostream& out) {
  std::size_t width = 0;
  for (const auto& p : params) width = std::max(width, p.name.size());
  for (const auto& p : params) {
    out << "  " << std::left << std::setw(static_cast<int>(width)) << p.name << ' ' << p.kind_name() << ", default "
        << default_text(p) << ", " << p.range_text() << (p.unit.empty() ? "" : " (" + p.unit + ")") << "\n    " << p.doc
        << '\n';
    if (!p.effect.empty()) out << "    effect: " << p.effect << '\n';
  }
}

void print_params_markdown(const std::vector<param_spec>& params, const std::string& first_column, std::ostream& out) {
  out << "| " << first_column
      << " | type | default | allowed | unit | meaning | effect |\n|---|---|---|---|---|---|---|\n";
  for (const auto& p : params) {
    out << "| `" << p.name << "` | " << p.kind_name() << " | `" << default_text(p) << "` | "
        << markdown_cell(p.range_text()) << " | " << p.unit << " | " << markdown_cell(p.doc) << " | "
        << markdown_cell(p.effect) << " |\n";
  }
}

}  // namespace landform::cli
