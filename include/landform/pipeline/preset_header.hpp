#pragma once
/// @file
/// The top-level keys of a preset (everything but `stages` and `outputs`),
/// declared as a schema like every stage's parameters: validation, the
/// generated docs and `landform schema` come from this one declaration.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "landform/params/schema.hpp"

namespace landform {

/// Cells per side of a region or world: 1 to this (2^21). A region built in
/// one process also holds at most 2^28 cells; a larger world builds as tiles.
inline constexpr int k_max_side = 1 << 21;

/// `world`: the extent global shapes are laid out on. Written as N, [W, H]
/// (from cell 0, 0) or {"origin": [x, y], "size": N | [W, H]}.
struct world_params {
  std::array<std::int64_t, 2> origin{0, 0};  ///< cells, the world's first cell
  std::array<int, 2> size{0, 0};             ///< cells, 1 to 2^21 per side

  static const param_schema<world_params>& schema();
};

/// The top-level preset keys with their defaults. Region and world are in
/// whole cells; `cell_size` in metres per cell; `height_scale` in metres per
/// height unit. Limits across keys (the region inside the world, at most 2^28
/// cells) are checked by the pipeline, which knows both.
struct preset_header {
  int landform = 1;  ///< format version; this build reads 1
  std::string name;
  std::string description;
  std::array<int, 2> size{512, 512};         ///< region, cells
  std::int64_t seed = 0;                     ///< every stage's seed derives from it
  std::array<std::int64_t, 2> origin{0, 0};  ///< region's first cell in the world
  double cell_size = 1.0;                    ///< metres per cell
  double height_scale = 1.0;                 ///< metres per height unit
  std::optional<world_params> world;         ///< absent = the region is the world
  std::string target;                        ///< engine target: "" (none), unity, unreal, godot
  std::optional<double> sea_level;           ///< height units; absent = each consumer's own default

  static const param_schema<preset_header>& schema();
  /// Rules the key-by-key checks cannot state: the format version and the
  /// engine target's name (with a did-you-mean).
  void check(std::vector<std::pair<std::string, std::string>>& problems) const;
};

/// The preset keys besides the header's: the lists checked by the pipeline.
inline const std::vector<std::string>& preset_list_keys() {
  static const std::vector<std::string> keys = {"stages", "outputs"};
  return keys;
}

}  // namespace landform
