// libFuzzer target: preset text -> parse -> --set edit -> full validation.
// A preset error is the expected answer to bad input; anything else thrown
// (or a crash, a leak, undefined behaviour, a hang) is a bug.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "landform/core/error.hpp"
#include "landform/pipeline/pipeline.hpp"
#include "landform/pipeline/preset.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    landform::json preset = landform::parse_preset_text(text, "fuzz.json");
    if (!preset.is_object()) return 0;
    // The last line, if it looks like KEY=VALUE, also goes through --set.
    if (const auto eq = text.rfind('='); eq != std::string_view::npos && eq > 0) {
      const auto line = text.rfind('\n', eq);
      const std::size_t key_start = line == std::string_view::npos ? 0 : line + 1;
      const std::string key(text.substr(key_start, eq - key_start));
      if (!key.empty() && key.find('\n') == std::string::npos) {
        landform::apply_override(preset, key, std::string(text.substr(eq + 1)));
      }
    }
    (void)landform::pipeline::build(preset);
  } catch (const landform::preset_error&) {
  } catch (const landform::io_error&) {  // an image path the fuzzer named
  }
  return 0;
}
