#pragma once
/// @file
/// A JSON Schema (draft 2020-12) of the preset format, generated from the same
/// declarations validation uses: the top-level keys (preset_header), every
/// registered stage's parameters and composition keys, and every output
/// kind's options. Editors (VS Code, JetBrains, vim with a language server)
/// complete keys and flag typos and out-of-range values from it before
/// `landform validate` runs. Rules across keys (region inside the world,
/// layer names written by earlier stages) are left to `validate`.

#include <nlohmann/json.hpp>

#include "landform/params/schema.hpp"

namespace landform {

/// The JSON Schema of one parameter: its type, range or choices, default and
/// a description (doc, then the effect).
nlohmann::json param_json_schema(const param_spec& spec);

/// The whole preset's JSON Schema, from the built-in stages and output kinds.
nlohmann::json preset_json_schema();

}  // namespace landform
