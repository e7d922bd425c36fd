#include "cli_common.hpp"
#include "interrupt.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <map>
#include <set>

#include "landform/core/error.hpp"
#include "landform/pipeline/preset.hpp"
#include "landform/pipeline/preset_variables.hpp"

namespace landform::cli {

namespace {

// Decimal digits with an optional leading '-', and nothing else (what
// from_chars reads: no '+', space or "0x"), within long long.
bool parse_whole(const std::string& text, long long& v) {
  const char* end = text.data() + text.size();
  const auto [stop, ec] = std::from_chars(text.data(), end, v);
  return ec == std::errc() && stop == end && !text.empty();
}

// "512" -> 512, "1024x512" -> [1024, 512]. The preset's size rule then names
// the range (stoll also took " 64" and "+64").
nlohmann::json parse_size(const std::string& text) {
  auto number = [&](const std::string& s) {
    long long v = -1;
    if (!parse_whole(s, v)) {
      throw preset_error("--size", "\"" + text + "\" must be N or WIDTHxHEIGHT (decimal whole numbers)");
    }
    return v;
  };
  const auto x = text.find_first_of("xX");
  if (x == std::string::npos) return number(text);
  return nlohmann::json::array({number(text.substr(0, x)), number(text.substr(x + 1))});
}

// The whole text must be a signed 64-bit integer; out-of-range values are
// errors, not clamped.
std::int64_t parse_seed(const std::string& text) {
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range) {
    throw preset_error("--seed", "\"" + text + "\" is outside the signed 64-bit range");
  }
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
    throw preset_error("--seed", "\"" + text + "\" must be an integer");
  }
  return value;
}

// Substitutes the --vars file's and the --var variables into `preset` (with
// none, a reference is an undefined-variable error); warns about each one the
// preset does not use.
void apply_variables(nlohmann::json& preset, const preset_source& source) {
  preset_variables variables;
  std::map<std::string, std::string> origin;  // name -> where it was defined, for the warning
  if (!source.vars_file.empty()) {
    for (auto& [name, value] : load_variables_file(source.vars_file)) {
      origin[name] = "--vars " + source.vars_file;
      variables[name] = std::move(value);
    }
  }
  for (const auto& assignment : source.vars) {
    auto [name, value] = parse_variable_assignment(assignment);
    origin[name] = "--var " + name;
    variables[name] = std::move(value);
  }
  const std::set<std::string> used = substitute_variables(preset, variables);
  for (const auto& [name, where] : origin) {
    if (!used.contains(name)) {
      std::cerr << "landform: warning: " << where << ": the preset does not use the variable \"" << name << "\"\n";
    }
  }
}

}  // namespace

void add_preset_edit_options(CLI::App& cmd, preset_source& source) {
  cmd.add_option("--size", source.size, "override the map size: N or WIDTHxHEIGHT (cells)");
  cmd.add_option("--seed", source.seed, "override the preset seed (signed 64-bit integer)")->type_name("INT");
  cmd.add_option("--set", source.sets,
                 "edit any preset value, KEY=VALUE with a dotted key, e.g. stages.1.magnitude=8 (repeatable; "
                 "applied after the variables)")
      ->type_name("KEY=VALUE");
  cmd.add_option("--var", source.vars,
                 "define a variable the preset uses as \"${NAME}\", NAME=VALUE; VALUE is JSON or else a string "
                 "(repeatable; overrides --vars)")
      ->type_name("NAME=VALUE");
  cmd.add_option("--vars", source.vars_file, "a JSON file of variables, {\"NAME\": VALUE, ...}")->type_name("FILE");
}

std::filesystem::path preset_folder(const preset_source& source) {
  if (source.file.empty()) return {};
  return std::filesystem::path(source.file).parent_path();
}

nlohmann::json read_json_or_null(const std::filesystem::path& file) {
  // (A folder opens as a stream but fails on the first read with a bare
  // "basic_filebuf::underflow" error that names no file.)
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) return nullptr;
  std::ifstream in(file, std::ios::binary);
  if (!in) return nullptr;
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception&) {
    return nullptr;
  }
}

nlohmann::json load_preset(const preset_source& source) {
  nlohmann::json preset = source.file.empty() ? parse_preset_text(default_preset_text(), "<default preset>")
                                              : load_preset_file(source.file);
  if (!preset.is_object()) {
    throw preset_error("", (source.file.empty() ? std::string("<default preset>") : source.file) +
                               ": a preset must be a JSON object {...}");
  }
  apply_variables(preset, source);
  if (source.size) preset["size"] = parse_size(*source.size);
  if (source.seed) preset["seed"] = parse_seed(*source.seed);
  for (const auto& set : source.sets) {
    const auto eq = set.find('=');
    if (eq == std::string::npos || eq == 0) throw preset_error("--set", "\"" + set + "\" must be KEY=VALUE");
    apply_override(preset, set.substr(0, eq), set.substr(eq + 1));
  }
  return preset;
}

std::string count_of(std::size_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

CLI::Validator finite_number(bool above_zero) {
  return {[above_zero](const std::string& text) {
            // from_chars: decimal or exponent form only (CLI11's conversion
            // also took "0x10" as hexadecimal, and a leading '+' or space).
            double v = 0.0;
            const char* end = text.data() + text.size();
            const auto [stop, ec] = std::from_chars(text.data(), end, v);
            const bool ok = ec == std::errc() && stop == end && !text.empty() && std::isfinite(v) &&
                            (above_zero ? v > 0.0 : v >= 0.0);
            return ok           ? std::string()
                   : above_zero ? "must be a finite number above 0"
                                : "must be a finite number, 0 or more";
          },
          above_zero ? "POSITIVE" : "NON-NEGATIVE"};
}

CLI::Validator whole_number_at_least_zero() {
  return {[](const std::string& text) {
            long long v = 0;
            return parse_whole(text, v) && v >= 0 ? std::string() : "must be a whole number, 0 or more";
          },
          "NON-NEGATIVE"};
}

CLI::Validator whole_number_between(long long lo, long long hi) {
  return {[lo, hi](const std::string& text) {
            long long v = 0;
            return parse_whole(text, v) && v >= lo && v <= hi
                       ? std::string()
                       : "must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
          },
          "INT in [" + std::to_string(lo) + " - " + std::to_string(hi) + "]"};
}

int report_current_exception() {
  try {
    throw;
  } catch (const preset_error& e) {
    for (const auto& issue : e.issues()) std::cerr << "landform: error: " << issue.to_string() << '\n';
    return k_exit_usage;
  } catch (const io_error& e) {
    std::cerr << "landform: error: " << e.what() << '\n';
    return k_exit_runtime;
  } catch (const cancelled_error&) {
    std::cerr << "landform: interrupted; nothing was written\n";
    return interrupt_guard::signal_number() ? 128 + interrupt_guard::signal_number() : k_exit_runtime;
  } catch (const std::bad_alloc&) {
    std::cerr << "landform: error: out of memory (try a smaller size, or fewer outputs at once)\n";
    return k_exit_runtime;
  } catch (const std::exception& e) {
    std::cerr << "landform: error: " << e.what() << '\n';
    return k_exit_runtime;
  }
}

}  // namespace landform::cli
