#include "landform/pipeline/preset_header.hpp"

#include "landform/pipeline/engine_target.hpp"

namespace landform {

namespace {

constexpr double k_max_origin = 1LL << 40;  // cells from 0: keeps world metres exact in double

}  // namespace

const param_schema<world_params>& world_params::schema() {
  using P = world_params;
  static const auto s = param_schema<P>()
                            .cell("origin", &P::origin)
                            .unit("cells")
                            .range(between(-k_max_origin, k_max_origin))
                            .doc("the world's first cell")
                            .extent("size", &P::size)
                            .unit("cells")
                            .range(between(1, k_max_side))
                            .required()
                            .doc("the world's width and height");
  return s;
}

const param_schema<preset_header>& preset_header::schema() {
  using P = preset_header;
  static const auto s =
      param_schema<P>()
          .integer("landform", &P::landform)
          .doc("preset format version; this build reads 1")
          .string("name", &P::name)
          .doc("a title, for people")
          .string("description", &P::description)
          .doc("free text, for people")
          .extent("size", &P::size)
          .unit("cells")
          .range(between(1, k_max_side))
          .doc(
              "the region built: N (square) or [width, height]; at most 2^28 cells in one process (a larger world "
              "builds as tiles)")
          .integer64("seed", &P::seed)
          .doc("the preset's seed; every stage's seed derives from it and the stage's id")
          .effect("another seed = another world with the same character")
          .cell("origin", &P::origin)
          .unit("cells")
          .range(between(-k_max_origin, k_max_origin))
          .doc("the region's first cell in the world (x right, y down)")
          .number("cell_size", &P::cell_size)
          .unit("m")
          .range(between(1e-6, 1e12))
          .doc(
              "width of one cell; physical parameters (erosion, slopes, normals) use it. From a micrometre: "
              "smaller cells overflow float32 slopes and curvatures")
          .number("height_scale", &P::height_scale)
          .unit("m per height unit")
          .range(between(1e-6, 1e12))
          .doc("metres per height unit; slopes, normals and engine import values use it")
          .object("world", &P::world, world_params::schema())
          .shorthand("size")
          .doc("the extent global shapes are laid out on; absent = the region itself")
          .string("target", &P::target)
          .doc("engine target: unity | unreal | godot (checks sizes and formats; see docs/engines.md)")
          .number("sea_level", &P::sea_level)
          .unit("height units")
          .range(between(-1e12, 1e12))
          .doc(
              "the sea's surface, the one value the preview ramps, biome, voronoi island shaping, splat "
              "above_sea and ocean rules and the water outputs use; sea = cells below it connected to the world's "
              "border (an inland basin below it is land or a lake in every output). Absent: each consumer's own "
              "default (preview and splat 0.3, biome and voronoi 0.5, water 0); see "
              "docs/water.md")
          .effect("higher = more sea, smaller islands, lower coastlines");
  return s;
}

void preset_header::check(std::vector<std::pair<std::string, std::string>>& problems) const {
  if (landform != 1) {
    problems.emplace_back("landform",
                          std::to_string(landform) + " is not a format version this build reads (it reads 1)");
  }
  if (!target.empty() && !parse_engine_target(target)) {
    std::string message = "\"" + target + "\" is not an engine target (unity | unreal | godot)";
    if (auto guess = did_you_mean(target, engine_target_names())) message += "; did you mean \"" + *guess + "\"?";
    problems.emplace_back("target", message);
  }
}

}  // namespace landform
