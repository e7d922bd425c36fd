#include "landform/pipeline/preset_variables.hpp"

#include <cctype>
#include <optional>
#include <vector>

#include "landform/core/error.hpp"
#include "landform/params/schema.hpp"
#include "landform/pipeline/preset.hpp"
#include "pipeline/json_structure.hpp"

namespace landform {

namespace {

// Walks the preset's strings, substituting into a copy and collecting problems.
struct substitution {
  const preset_variables& variables;
  std::set<std::string> used;
  std::vector<preset_issue> issues;

  // The text a spliced variable contributes, or nullopt (an issue recorded).
  std::optional<std::string> spliced(const std::string& path, const std::string& name, const json& value) {
    if (value.is_string()) return value.get<std::string>();
    if (value.is_number() || value.is_boolean()) return value.dump();
    issues.push_back({path, "variable \"" + show_key(name) + "\" is " + std::string(value.type_name()) +
                                ": only a whole string \"${" + show_key(name) + "}\" can take it"});
    return std::nullopt;
  }

  // The variable named at text[open + 2 ..] up to the '}', or nullopt.
  std::optional<std::pair<std::string, std::size_t>> reference_at(const std::string& path, const std::string& text,
                                                                  std::size_t open) {
    const std::size_t close = text.find('}', open + 2);
    if (close == std::string::npos) {
      issues.push_back(
          {path, "\"" + show_key(text) + "\": \"${\" without a closing \"}\" (write $${ for a literal ${)"});
      return std::nullopt;
    }
    std::string name = text.substr(open + 2, close - open - 2);
    if (!is_variable_name(name)) {
      issues.push_back({path, "\"" + show_key(text) + "\": \"" + show_key(name) +
                                  "\" is not a variable name (letters, digits and _, not starting with a digit)"});
      return std::nullopt;
    }
    return std::pair{std::move(name), close};
  }

  // The value of variable `name`, or null (an issue recorded, or not defined).
  const json* lookup(const std::string& path, const std::string& text, const std::string& name) {
    used.insert(name);
    const auto it = variables.find(name);
    if (it != variables.end()) return &it->second;
    issues.push_back({path, "\"" + show_key(text) + "\" uses the undefined variable \"" + show_key(name) +
                                "\" (define it with --var " + show_key(name) + "=VALUE or in a --vars file)"});
    return nullptr;
  }

  void string_value(json& node, const std::string& path) {
    const std::string text = node.get<std::string>();
    if (text.find("${") == std::string::npos) return;
    std::string out;
    for (std::size_t at = 0; at < text.size();) {
      const std::size_t open = text.find("${", at);
      if (open == std::string::npos) {
        out += text.substr(at);
        break;
      }
      if (open > at && text[open - 1] == '$') {  // "$${" is a literal "${"
        out += text.substr(at, open - 1 - at) + "${";
        at = open + 2;
        continue;
      }
      out += text.substr(at, open - at);
      const auto ref = reference_at(path, text, open);
      if (!ref) return;
      const json* value = lookup(path, text, ref->first);
      if (!value) return;
      if (open == 0 && ref->second + 1 == text.size()) {
        node = *value;  // the whole string: the value keeps its type
        return;
      }
      const auto piece = spliced(path, ref->first, *value);
      if (!piece) return;
      out += *piece;
      at = ref->second + 1;
    }
    node = out;
  }

  // "stages[1] (perturb)": an element named as validation names it.
  static std::string element_path(const std::string& parent, std::size_t index, const json& element) {
    std::string path = parent + "[" + std::to_string(index) + "]";
    for (const char* name : {"type", "map"}) {
      if (element.is_object() && element.contains(name) && element[name].is_string()) {
        return path + " (" + show_key(element[name].get<std::string>()) + ")";
      }
    }
    return path;
  }

  void walk(json& node, const std::string& path) {
    if (node.is_string()) {
      string_value(node, path);
    } else if (node.is_object()) {
      for (auto& [key, value] : node.items()) walk(value, path.empty() ? show_key(key) : path + "." + show_key(key));
    } else if (node.is_array()) {
      for (std::size_t k = 0; k < node.size(); ++k) walk(node[k], element_path(path, k, node[k]));
    }
  }
};

}  // namespace

bool is_variable_name(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (const char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

std::pair<std::string, json> parse_variable_assignment(const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos) throw preset_error("--var", "\"" + show_key(assignment) + "\" must be NAME=VALUE");
  std::string name = assignment.substr(0, eq);
  if (!is_variable_name(name)) {
    throw preset_error("--var", "\"" + show_key(name) +
                                    "\" is not a variable name (letters, digits and _, not starting with a digit)");
  }
  const std::string text = assignment.substr(eq + 1);
  detail::require_utf8("--var " + name, "value", text);
  try {
    return {std::move(name), json::parse(text)};
  } catch (const json::parse_error& e) {
    detail::require_bare_word("--var " + show_key(name), text, e.byte);
    return {std::move(name), json(text)};  // a bare word such as nearest
  } catch (const json::out_of_range&) {
    throw preset_error("--var " + show_key(name), "'" + show_key(text) + "' is out of range for a number");
  }
}

preset_variables load_variables_file(const std::filesystem::path& path) {
  const json document = load_preset_file(path, "variables file");
  const std::string where = "--vars " + show_key(path.string());
  if (!document.is_object()) throw preset_error(where, "a variables file must be a JSON object {\"name\": value, ...}");
  preset_variables variables;
  std::vector<preset_issue> issues;
  for (const auto& [name, value] : document.items()) {
    if (!is_variable_name(name)) {
      issues.push_back({where, "\"" + show_key(name) +
                                   "\" is not a variable name (letters, digits and _, not starting with a digit)"});
    }
    variables[name] = value;
  }
  if (!issues.empty()) throw preset_error(std::move(issues));
  return variables;
}

std::set<std::string> substitute_variables(json& preset, const preset_variables& variables) {
  json edited = preset;
  substitution s{variables, {}, {}};
  s.walk(edited, "");
  if (!s.issues.empty()) throw preset_error(std::move(s.issues));
  preset = std::move(edited);
  return s.used;
}

}  // namespace landform
