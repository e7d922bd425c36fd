#include "landform/pipeline/registry.hpp"
#include "landform/stages/blob_island.hpp"
#include "landform/stages/clamp.hpp"
#include "landform/stages/constant.hpp"
#include "landform/stages/curve.hpp"
#include "landform/stages/fault_line.hpp"
#include "landform/stages/gradient.hpp"
#include "landform/stages/hydraulic_erosion.hpp"
#include "landform/stages/image.hpp"
#include "landform/stages/invert.hpp"
#include "landform/stages/island_mask.hpp"
#include "landform/stages/normalize.hpp"
#include "landform/stages/olsen_erosion.hpp"
#include "landform/stages/opensimplex.hpp"
#include "landform/stages/opensimplex2.hpp"
#include "landform/stages/perlin.hpp"
#include "landform/stages/perturb.hpp"
#include "landform/stages/river_carve.hpp"
#include "landform/stages/road_flatten.hpp"
#include "landform/stages/scale_bias.hpp"
#include "landform/stages/smooth.hpp"
#include "landform/stages/stream_power_erosion.hpp"
#include "landform/stages/terrace.hpp"
#include "landform/stages/thermal_erosion.hpp"
#include "landform/stages/value_noise.hpp"
#include "landform/stages/voronoi.hpp"

namespace landform {

// The one explicit list of built-in stages. Names are part of the preset
// format: never rename one (add an alias and deprecate instead).
void register_builtin_stages(stage_registry& registry) {
  // generators
  registry.add(opensimplex_stage_info());
  registry.add(opensimplex2_stage_info());
  registry.add(perlin_stage_info());
  registry.add(value_noise_stage_info());
  registry.add(fault_line_stage_info());
  registry.add(voronoi_stage_info());
  registry.add(blob_island_stage_info());
  registry.add(constant_stage_info());
  registry.add(gradient_stage_info());
  registry.add(image_stage_info());
  registry.add(island_mask_stage_info());
  // filters
  registry.add(perturb_stage_info());
  registry.add(olsen_erosion_stage_info());
  registry.add(smooth_stage_info());
  registry.add(thermal_erosion_stage_info());
  registry.add(hydraulic_erosion_stage_info());
  registry.add(stream_power_erosion_stage_info());
  registry.add(river_carve_stage_info());
  registry.add(road_flatten_stage_info());
  registry.add(normalize_stage_info());
  registry.add(curve_stage_info());
  registry.add(terrace_stage_info());
  registry.add(clamp_stage_info());
  registry.add(invert_stage_info());
  registry.add(scale_bias_stage_info());
}

}  // namespace landform
