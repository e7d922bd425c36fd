#include "landform/pipeline/preset.hpp"

#include <fstream>
#include <sstream>

#include "landform/core/error.hpp"

namespace landform {

namespace {

// nlohmann reports a byte offset; users want line and column.
std::pair<std::size_t, std::size_t> line_column(std::string_view text, std::size_t offset) {
  std::size_t line = 1, column = 1;
  for (std::size_t k = 0; k < offset && k < text.size(); ++k) {
    if (text[k] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

// "[json.exception.parse_error.101] parse error at line 3, column 14: syntax
// error while parsing value - invalid literal; last read: 'x'" -> the part
// after the location.
std::string short_reason(const std::string& what) {
  auto colon = what.find(": ");
  std::string reason = colon == std::string::npos ? what : what.substr(colon + 2);
  const std::string noise = "while parsing ";
  if (auto k = reason.find(noise); k != std::string::npos) reason.erase(k, noise.size());
  return reason;
}

}  // namespace

nlohmann::json parse_preset_text(std::string_view text, const std::string& source) {
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is one past the offending character.
    const auto [line, column] = line_column(text, e.byte == 0 ? 0 : e.byte - 1);
    throw preset_error("", source + ":" + std::to_string(line) + ":" + std::to_string(column) +
                               ": malformed JSON: " + short_reason(e.what()));
  }
}

nlohmann::json load_preset_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw io_error("cannot read preset '" + path.string() + "': is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw io_error("cannot read preset '" + path.string() + "': no such file or not readable");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_preset_text(text.str(), path.string());
}

void apply_override(nlohmann::json& preset, const std::string& dotted_path, const std::string& value) {
  nlohmann::json parsed;
  try {
    parsed = nlohmann::json::parse(value);
  } catch (const nlohmann::json::parse_error&) {
    parsed = value;  // a bare word such as nearest
  }
  nlohmann::json* node = &preset;
  std::string walked;
  std::istringstream parts(dotted_path);
  std::string key;
  std::vector<std::string> keys;
  while (std::getline(parts, key, '.')) keys.push_back(key);
  if (keys.empty() || dotted_path.empty()) throw preset_error("--set", "empty key in '" + dotted_path + "=" + value + "'");
  for (std::size_t k = 0; k < keys.size(); ++k) {
    const std::string& part = keys[k];
    if (part.empty()) throw preset_error("--set " + dotted_path, "empty path component");
    walked += (walked.empty() ? "" : ".") + part;
    if (node->is_array()) {
      std::size_t index = 0;
      try {
        std::size_t used = 0;
        index = std::stoul(part, &used);
        if (used != part.size()) throw std::invalid_argument(part);
      } catch (const std::exception&) {
        throw preset_error("--set " + dotted_path, "'" + walked + "' indexes an array, use a number");
      }
      if (index >= node->size()) {
        throw preset_error("--set " + dotted_path, "'" + walked + "' is out of range (the array has " +
                                                       std::to_string(node->size()) + " elements)");
      }
      node = &(*node)[index];
    } else if (node->is_object() || node->is_null()) {
      node = &(*node)[part];
    } else {
      throw preset_error("--set " + dotted_path, "'" + walked + "' goes inside a value that is not an object");
    }
  }
  *node = parsed;
}

}  // namespace landform
