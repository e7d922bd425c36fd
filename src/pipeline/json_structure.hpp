#pragma once
// The checks nlohmann's parser does not make, run over the preset text before
// it is parsed: nesting depth (a document nested 60,000 deep parses, but every
// recursive copy or walk of it afterwards overflows the stack) and duplicate
// object keys (nlohmann silently keeps the last one).

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "landform/core/error.hpp"

namespace landform::detail {

/// Deepest nesting of arrays and objects a preset may use. Real presets stay
/// below 8; the limit only keeps recursion over the document bounded.
inline constexpr std::size_t k_max_json_depth = 64;

/// Scans JSON `text` (possibly malformed: the scanner only looks at
/// structure and leaves syntax errors to the parser). Throws preset_error
/// right away when nesting exceeds k_max_json_depth, naming the JSON path and
/// `source:line:column` of the bracket that went too deep. Returns one issue
/// per duplicate object key (path of the key, both locations), so that a
/// syntax error, reported by the parser, can take precedence.
std::vector<preset_issue> scan_json_structure(std::string_view text, const std::string& source);

/// `source:line:column` of byte `offset` in `text`; columns count UTF-8
/// characters, a leading byte-order mark is skipped.
std::string json_location(std::string_view text, const std::string& source, std::size_t offset);

/// The offset of the first byte of `text` that is not part of well-formed
/// UTF-8 (RFC 3629: no overlong forms, surrogates or code points above
/// U+10FFFF), or npos.
std::size_t invalid_utf8_at(std::string_view text);

/// Throws preset_error at `where` (e.g. "--set") when `text`, the `part` of a
/// command-line edit ("key", "value"), is not UTF-8: JSON text is UTF-8, the
/// preset parser refuses anything else, and a string that is not cannot be
/// printed by nlohmann::json::dump (type_error 316). The text is not echoed.
void require_utf8(const std::string& where, const char* part, std::string_view text);

/// The value of a command-line edit (--set, --var) that failed to parse as
/// JSON is taken as a bare word (nearest) unless it starts like JSON text: a
/// leading " or [, or {" or {}, means JSON was meant ({index}.png is a word),
/// and the mistake (a missing closing quote, bracket or brace) would
/// otherwise become part of a file name or string. Throws preset_error at
/// `where` naming the byte `error_at` (1-based, nlohmann's
/// parse_error::byte) in that case.
void require_bare_word(const std::string& where, const std::string& value, std::size_t error_at);

}  // namespace landform::detail
