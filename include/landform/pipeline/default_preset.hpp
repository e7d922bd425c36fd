#pragma once
#include <string_view>
namespace landform {
/// presets/default.json, compiled in (see cmake/default_preset.cpp.in).
std::string_view default_preset_text();
}  // namespace landform
