#pragma once
/// @file
/// Game engine targets (`--target unity|unreal|godot`, preset key "target"):
/// each engine's legal heightmap sizes, the checks of a preset against them,
/// and the values its terrain import asks for (the manifest's "import" block).
/// docs/engines.md walks each import with these values and says what could not
/// be verified in the engine itself.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "landform/core/error.hpp"
#include "landform/core/heightfield.hpp"
#include "landform/params/schema.hpp"

namespace landform {

class pipeline;

enum class engine_target { unity, unreal, godot };

/// "unity", "unreal", "godot": the values of --target and the preset's "target".
const std::vector<std::string>& engine_target_names();
std::optional<engine_target> parse_engine_target(const std::string& name);
std::string engine_target_name(engine_target t);

/// Whether one side length is legal for the engine:
/// - unity: 2^n + 1 from 33 to 4097 (TerrainData.heightmapResolution);
/// - unreal: components x sections x quads + 1 with quads per section 7, 15,
///   31, 63, 127 or 255, 1 or 2 sections per component side and 1 to 32
///   components per side, from 127 to 8161;
/// - godot (Terrain3D): any side up to 16384 (its 16k world; a map that is not
///   a multiple of the region size is padded by the importer).
[[nodiscard]] bool is_legal_side(engine_target t, int side);

/// The legal sides closest to `side`: the largest below and the smallest
/// above (one of them when `side` is outside the range; `side` itself if legal).
[[nodiscard]] std::vector<int> nearest_legal_sides(engine_target t, int side);

/// The legal size nearest to width x height (`--snap`): each side to its
/// nearest legal side (on a tie the larger); for unity, square at the side
/// nearest to the larger one; for unreal, square likewise when no section size
/// fits both snapped sides. Returns the size itself when it is legal.
[[nodiscard]] std::pair<int, int> snapped_size(engine_target t, int width, int height);

/// Unreal's recommended landscape sizes (Landscape Technical Guide): 127, 253,
/// 505, 1009, 2017, 4033, 8129.
const std::vector<int>& unreal_recommended_sides();

/// How Unreal builds a landscape of width x height vertices.
struct unreal_layout {
  int quads_per_section = 0;
  int sections_per_component = 0;  ///< per side: 1 (1x1) or 2 (2x2)
  int components_x = 0, components_y = 0;
};

/// The layout with the fewest components (Epic's advice) for a landscape of
/// width x height vertices; nullopt when no section size fits both sides.
[[nodiscard]] std::optional<unreal_layout> unreal_landscape_layout(int width, int height);

/// Problems of the built preset for engine `t`: the size (one line naming the
/// nearest legal sizes, path "size") and the preset's own choices that
/// contradict the engine (height formats the engine cannot import, the normal
/// map convention; paths "outputs" or "outputs[i] (map).key"). Empty when the
/// preset suits the target.
[[nodiscard]] std::vector<preset_issue> check_engine_target(const pipeline& p, engine_target t);

/// The manifest's "import" block: ready-to-type values for every engine
/// (unity, unreal, godot), plus "target" when the preset names one. With N x M
/// the region size, c the cell size and range_m the height scale (metres
/// spanned by 0..65535):
/// - unity.terrain_width = (N - 1) c, terrain_length = (M - 1) c,
///   terrain_height = range_m, position = [origin_x c, 0, origin_y c];
/// - unreal.scale = [100 c, 100 c, range_m * 100 / 512] (cm; Z 100 = 512 m),
///   unreal.location = [100 origin_x c, 100 origin_y c, 50 range_m] so that
///   height 0 sits at Z 0 and the first vertex at the preset's world origin;
/// - godot (Terrain3D): region_size, regions, vertex_spacing = c,
///   height_scale = range_m, position = the map's centre.
[[nodiscard]] json engine_import_values(const pipeline& p);

}  // namespace landform
