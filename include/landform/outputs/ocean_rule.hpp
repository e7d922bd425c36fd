#pragma once
/// @file
/// How the colour and texture outputs (`biome`, `preview`, `splat`) tell the
/// ocean from an inland basin below sea level: by the water outputs' one
/// definition (find_ocean(): below sea level and connected to the world's
/// border), which needs the whole world, or by the local rule "every cell
/// below sea level", which needs no halo and keeps tiles local.

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "landform/outputs/output_kind.hpp"

namespace landform {

/// The `ocean` option of biome, preview and splat.
enum class ocean_rule {
  /// Cells below sea level 8-connected to the world's border through such
  /// cells (find_ocean(), as the water outputs): an inland basin below sea
  /// level is land. Needs the whole world (halo -1).
  connected,
  /// Every cell below sea level (landform before issue 10): local, so a tile
  /// computes only itself, but an inland basin is painted as sea.
  below_sea_level,
};

/// The option's names in preset order: "connected", "below_sea_level".
const std::vector<std::pair<std::string, ocean_rule>>& ocean_rule_choices();

/// Its one-line doc and visual effect.
inline constexpr const char* k_ocean_rule_doc =
    "which cells below sea level are ocean: connected = those connected to the world's border (as the water "
    "outputs; an inland basin below sea level is land; needs the whole world), below_sea_level = all of them "
    "(local: tiles compute only themselves)";
inline constexpr const char* k_ocean_rule_effect =
    "below_sea_level = inland basins below sea level painted as sea, but no whole-world computation in tiles";

/// The ocean of the computed field `ctx.field` at `sea_level` (height
/// units): width x height flags of the field, row-major, 1 = ocean. With
/// `connected` the field must be the whole world (the output declares halo
/// -1), so a region's ocean is the window of the world's. Shared through
/// ctx.cache by the outputs of one build (computed once per sea level and
/// rule). Serial, O(cells); depends only on the heights.
std::shared_ptr<const std::vector<std::uint8_t>> shared_ocean(const output_context& ctx, double sea_level,
                                                              ocean_rule rule);

/// The region's window of shared_ocean(): ctx.width x ctx.height flags,
/// row-major, 1 = ocean.
std::vector<std::uint8_t> ocean_window(const output_context& ctx, double sea_level, ocean_rule rule);

}  // namespace landform
