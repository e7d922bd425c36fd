#include "pipeline/json_structure.hpp"

#include <cstdio>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "landform/params/schema.hpp"

namespace landform::detail {

namespace {

// One open array or object while scanning.
struct frame {
  bool object = false;
  std::size_t index = 0;       // arrays: the element being read
  std::string key;             // objects: the key being read (decoded)
  bool expect_key = true;      // objects: the next string is a key
  std::set<std::string> keys;  // objects: the keys read so far
};

// `stages[3].params.a`: the path the user reads in every other message.
std::string path_of(const std::vector<frame>& stack) {
  std::string path;
  for (const frame& f : stack) {
    if (f.object) {
      if (f.key.empty() && f.expect_key) continue;
      if (!path.empty()) path += '.';
      path += show_key(f.key);
    } else {
      // Appended piecewise: GCC 12 warns falsely (-Wrestrict, PR105329) on
      // "literal" + std::string temporaries.
      path += '[';
      path += std::to_string(f.index);
      path += ']';
    }
  }
  return path;
}

// The text of a string token from its opening quote; `end` is set one past
// the closing quote (or to the end of the text if it is unterminated).
std::string_view string_token(std::string_view text, std::size_t start, std::size_t& end) {
  std::size_t k = start + 1;
  while (k < text.size() && text[k] != '"') k += text[k] == '\\' ? 2 : 1;
  end = std::min(k + 1, text.size());
  return text.substr(start, end - start);
}

// A key as nlohmann will store it: escapes decoded, so "a" and "\u0061"
// are the same key. A malformed token is left to the parser's error.
std::string decoded_key(std::string_view token) {
  if (token.find('\\') == std::string_view::npos) return std::string(token.substr(1, token.size() - 2));
  try {
    return nlohmann::json::parse(token).get<std::string>();
  } catch (const nlohmann::json::exception&) {
    return std::string(token);
  }
}

}  // namespace

std::string json_location(std::string_view text, const std::string& source, std::size_t offset) {
  std::size_t line = 1, column = 1;
  const std::size_t start = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  for (std::size_t k = start; k < offset && k < text.size(); ++k) {
    const auto byte = static_cast<unsigned char>(text[k]);
    if (text[k] == '\n') {
      ++line;
      column = 1;
    } else if ((byte & 0xC0) != 0x80) {
      ++column;
    }
  }
  return source + ":" + std::to_string(line) + ":" + std::to_string(column);
}

std::vector<preset_issue> scan_json_structure(std::string_view text, const std::string& source) {
  std::vector<preset_issue> duplicates;
  std::vector<frame> stack;
  for (std::size_t k = 0; k < text.size();) {
    const char c = text[k];
    if (c == '"') {
      std::size_t end = 0;
      const std::string_view token = string_token(text, k, end);
      if (!stack.empty() && stack.back().object && stack.back().expect_key) {
        frame& f = stack.back();
        f.key = decoded_key(token);
        f.expect_key = false;
        if (!f.keys.insert(f.key).second) {
          duplicates.push_back({path_of(stack), json_location(text, source, k) +
                                                    ": duplicate key (a key may appear once in an object)"});
        }
      }
      k = end;
      continue;
    }
    if (c == '[' || c == '{') {
      if (stack.size() >= k_max_json_depth) {
        throw preset_error(show_key(path_of(stack)), json_location(text, source, k) + ": nested more than " +
                                                         std::to_string(k_max_json_depth) + " arrays or objects deep");
      }
      frame f;
      f.object = c == '{';
      stack.push_back(std::move(f));
    } else if ((c == ']' || c == '}') && !stack.empty()) {
      stack.pop_back();
    } else if (c == ',' && !stack.empty()) {
      frame& f = stack.back();
      if (f.object) {
        f.expect_key = true;
        f.key.clear();
      } else {
        ++f.index;
      }
    }
    ++k;
  }
  return duplicates;
}

std::size_t invalid_utf8_at(std::string_view text) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  for (std::size_t k = 0; k < text.size();) {
    const unsigned char b = byte(k);
    std::size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte
    if (b < 0x80) {
      n = 0;
    } else if (b >= 0xC2 && b <= 0xDF) {
      n = 1;
    } else if (b >= 0xE0 && b <= 0xEF) {
      n = 2;
      if (b == 0xE0) lo = 0xA0;
      if (b == 0xED) hi = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
      n = 3;
      if (b == 0xF0) lo = 0x90;
      if (b == 0xF4) hi = 0x8F;
    } else {
      return k;
    }
    if (text.size() - k <= n) return k;
    for (std::size_t j = 1; j <= n; ++j) {
      const unsigned char c = byte(k + j);
      if (j == 1 ? (c < lo || c > hi) : (c < 0x80 || c > 0xBF)) return k;
    }
    k += n + 1;
  }
  return std::string_view::npos;
}

void require_utf8(const std::string& where, const char* part, std::string_view text) {
  const std::size_t at = invalid_utf8_at(text);
  if (at == std::string_view::npos) return;
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned>(static_cast<unsigned char>(text[at])));
  throw preset_error(
      where, std::string("the ") + part + " is not valid UTF-8 (byte " + std::to_string(at) + " is " + hex + ")");
}

void require_bare_word(const std::string& where, const std::string& value, std::size_t error_at) {
  const std::size_t first = value.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return;
  // An object starts {" or {}; a file name pattern such as {index}.png is a word.
  const std::size_t second = value.find_first_not_of(" \t\r\n", first + 1);
  const bool object =
      value[first] == '{' && second != std::string::npos && (value[second] == '"' || value[second] == '}');
  if (value[first] != '"' && value[first] != '[' && !object) return;
  throw preset_error(where, "'" + show_key(value) + "' starts like JSON (with " + value[first] +
                                ") but is not valid JSON (the fault is at byte " + std::to_string(error_at) +
                                "); a plain string needs no quotes");
}

}  // namespace landform::detail
