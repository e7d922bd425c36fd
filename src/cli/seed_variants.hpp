#pragma once
// `landform build --seeds 1..16`: one build per seed into OUT/seed-N/ (each
// equal to `landform build --seed N -o OUT/seed-N`), then OUT/index.json
// (seed -> folder, preset SHA-256, and the sheet's layout) and
// OUT/contact_sheet.png (the variants' previews, see contact_sheet.hpp).

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_common.hpp"

namespace landform::cli {

/// Builds `preset` (edits applied) once per seed. Every variant's preset is
/// validated before anything is built, so a preset error (exit 2) writes
/// nothing. Returns the exit code; throws as build_into.
int build_seed_variants(const nlohmann::json& preset, const std::filesystem::path& base_dir,
                        const build_settings& settings, const std::vector<std::int64_t>& seeds);

}  // namespace landform::cli
