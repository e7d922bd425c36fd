#include "landform/pipeline/preset.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <string_view>

#include "landform/core/error.hpp"
#include "landform/params/schema.hpp"
#include "pipeline/json_structure.hpp"

namespace landform {

namespace {

// Where the offending token starts: nlohmann points one past its last
// character, but a user looks for the start of the word ("seed", tru, 1e400).
std::size_t token_start(std::string_view text, std::size_t end) {
  if (end == 0 || end > text.size()) return std::min(end, text.size());
  std::size_t k = end - 1;
  if (text[k] == '"') {
    while (k > 0) {
      --k;
      if (text[k] == '"' && (k == 0 || text[k - 1] != '\\')) return k;
    }
    return k;
  }
  auto in_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '+' || c == '-'; };
  if (!in_word(text[k])) return k;
  while (k > 0 && in_word(text[k - 1])) --k;
  return k;
}

// "[json.exception.parse_error.101] parse error at line 3, column 14: syntax
// error while parsing object - unexpected string literal; expected '}'" ->
// "unexpected string literal; expected '}' (missing comma?)".
std::string short_reason(const std::string& what) {
  std::string reason = what;
  if (auto dash = reason.find(" - "); dash != std::string::npos) reason = reason.substr(dash + 3);
  if (auto last = reason.find("; last read:"); last != std::string::npos) reason.erase(last);
  const bool wanted_close =
      reason.find("expected '}'") != std::string::npos || reason.find("expected ']'") != std::string::npos;
  if (wanted_close && reason.find("unexpected '") == std::string::npos) reason += " (missing comma?)";
  if (reason.find("unexpected '}'; expected string literal") != std::string::npos ||
      reason.find("unexpected ']'; expected '['") != std::string::npos) {
    reason += " (trailing comma?)";
  }
  return reason;
}

std::string located(std::string_view text, const std::string& source, std::size_t offset) {
  return detail::json_location(text, source, offset);
}

// Nesting depth of a value that passed scan_json_structure (so the
// recursion is bounded by k_max_json_depth).
std::size_t depth_of(const nlohmann::json& value) {
  if (!value.is_structured()) return 0;
  std::size_t deepest = 0;
  for (const auto& element : value) deepest = std::max(deepest, depth_of(element));
  return deepest + 1;
}

// scan_json_structure over a --set value: the issues name the edit, their
// position is in "value" (the text after '='); a duplicate key says which.
std::vector<preset_issue> scan_set_value(const std::string& value, const std::string& where) {
  auto about_the_edit = [&](std::vector<preset_issue> issues) {
    for (auto& issue : issues) {
      const bool duplicate = issue.message.find("duplicate key") != std::string::npos;
      issue.message += duplicate ? " \"" + show_key(issue.path) + "\"" : "";
      issue.path = where;
    }
    return issues;
  };
  try {
    return about_the_edit(detail::scan_json_structure(value, "value"));
  } catch (const preset_error& e) {
    throw preset_error(about_the_edit(e.issues()));
  }
}

}  // namespace

nlohmann::json parse_preset_text(std::string_view text, const std::string& source) {
  // Depth first (it throws): deep nesting must not reach the parser's result.
  std::vector<preset_issue> duplicates = detail::scan_json_structure(text, source);
  try {
    nlohmann::json parsed = nlohmann::json::parse(text.begin(), text.end());
    if (!duplicates.empty()) throw preset_error(std::move(duplicates));
    return parsed;
  } catch (const nlohmann::json::parse_error& e) {
    throw preset_error(
        "", located(text, source, token_start(text, e.byte)) + ": malformed JSON: " + short_reason(e.what()));
  } catch (const nlohmann::json::out_of_range& e) {
    // "number overflow parsing '1e400'": find the number to locate it.
    std::string message = e.what();
    std::size_t offset = 0;
    if (auto q = message.find('\''); q != std::string::npos) {
      const std::string number = message.substr(q + 1, message.rfind('\'') - q - 1);
      offset = std::min(text.find(number), text.size());
    }
    throw preset_error("", located(text, source, offset) + ": number out of range: " +
                               message.substr(message.find("] ") + 2) + " (numbers must fit in a double)");
  }
}

nlohmann::json load_preset_file(const std::filesystem::path& path, std::string_view what) {
  const std::string named = "cannot read " + std::string(what) + " '" + path.string() + "': ";
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw io_error(named + "is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw io_error(named + "no such file or not readable");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_preset_text(text.str(), path.string());
}

void apply_override(nlohmann::json& preset, const std::string& dotted_path, const std::string& value) {
  // JSON text is UTF-8 and the preset parser refuses anything else; an edit
  // must too, or the preset holds a string no message or manifest can print
  // (nlohmann::json::dump throws type_error 316 on it). Neither is echoed.
  detail::require_utf8("--set", "key", dotted_path);
  detail::require_utf8("--set", "value", value);
  const std::string where = "--set " + show_key(dotted_path);
  nlohmann::json parsed;
  const std::vector<preset_issue> duplicates = scan_set_value(value, where);
  try {
    parsed = nlohmann::json::parse(value);
    if (!duplicates.empty()) throw preset_error(duplicates);
  } catch (const nlohmann::json::parse_error& e) {
    detail::require_bare_word(where, value, e.byte);
    parsed = value;  // a bare word such as nearest
  } catch (const nlohmann::json::out_of_range&) {
    throw preset_error(where, "'" + show_key(value) + "' is out of range for a number");
  }
  nlohmann::json edited = preset;  // a failed edit leaves the preset untouched
  nlohmann::json* node = &edited;
  std::string walked;
  std::istringstream parts(dotted_path);
  std::string key;
  std::vector<std::string> keys;
  while (std::getline(parts, key, '.')) keys.push_back(key);
  if (keys.empty() || dotted_path.empty())
    throw preset_error("--set", "empty key in '" + show_key(dotted_path) + "=" + show_key(value) + "'");
  // The edit must not nest the preset deeper than a preset file may be.
  if (keys.size() + depth_of(parsed) > detail::k_max_json_depth) {
    throw preset_error(where, std::to_string(keys.size()) + " keys deep with a value " +
                                  std::to_string(depth_of(parsed)) + " deep: more than " +
                                  std::to_string(detail::k_max_json_depth) + " arrays or objects deep");
  }
  // (getline drops a trailing empty part: "seed." would set seed.)
  if (dotted_path.back() == '.') throw preset_error(where, "empty path component");
  for (std::size_t k = 0; k < keys.size(); ++k) {
    const std::string& part = keys[k];
    if (part.empty()) throw preset_error(where, "empty path component");
    walked += (walked.empty() ? "" : ".") + part;
    if (node->is_array()) {
      std::size_t index = 0;
      try {
        std::size_t used = 0;
        index = std::stoul(part, &used);
        if (used != part.size()) throw std::invalid_argument(part);
      } catch (const std::exception&) {
        throw preset_error(where, "'" + show_key(walked) + "' indexes an array, use a number");
      }
      if (index >= node->size()) {
        throw preset_error(where, "'" + show_key(walked) + "' is out of range (the array has " +
                                      std::to_string(node->size()) + " elements)");
      }
      node = &(*node)[index];
    } else if (node->is_null() && !part.empty() && std::isdigit(static_cast<unsigned char>(part[0]))) {
      throw preset_error(where, "'" + walked.substr(0, walked.rfind('.')) +
                                    "' is not in the preset; set it whole, e.g. --set " +
                                    walked.substr(0, walked.rfind('.')) + "=[...]");
    } else if (node->is_object() || node->is_null()) {
      node = &(*node)[part];
    } else {
      throw preset_error(where, "'" + show_key(walked) + "' goes inside a value that is not an object");
    }
  }
  *node = parsed;
  preset = std::move(edited);
}

}  // namespace landform
