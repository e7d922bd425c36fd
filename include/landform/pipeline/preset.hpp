#pragma once
/// @file
/// Reading preset text and editing it before validation.

#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "landform/pipeline/default_preset.hpp"

namespace landform {

/// Parses preset JSON text. Throws preset_error for malformed JSON, naming
/// `source` with the line and column, e.g.
/// `tutorial.json:3:14: syntax error: unexpected '}'`.
nlohmann::json parse_preset_text(std::string_view text, const std::string& source);

/// Reads and parses a preset file. Throws io_error when it cannot be read and
/// preset_error when it is not valid JSON. `what` names the file in the
/// io_error ("cannot read preset '...'"; "variables file" for --vars).
nlohmann::json load_preset_file(const std::filesystem::path& path, std::string_view what = "preset");

/// Sets the value at a dotted path, e.g. `stages.2.magnitude` or `size`.
/// Array elements are addressed by index; a missing object key is created.
/// `value` is parsed as JSON when it is valid JSON (`8`, `[256,128]`, `true`,
/// `"x"`), else taken as a plain string (`nearest`). Throws preset_error when
/// the path does not lead anywhere (index out of range, not a container).
void apply_override(nlohmann::json& preset, const std::string& dotted_path, const std::string& value);

}  // namespace landform
