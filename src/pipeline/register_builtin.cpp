#include "landform/pipeline/registry.hpp"
#include "landform/stages/hydraulic_erosion.hpp"
#include "landform/stages/normalize.hpp"
#include "landform/stages/olsen_erosion.hpp"
#include "landform/stages/opensimplex.hpp"
#include "landform/stages/perturb.hpp"
#include "landform/stages/smooth.hpp"
#include "landform/stages/thermal_erosion.hpp"

namespace landform {

// The one explicit list of built-in stages. Names are part of the preset
// format: never rename one (add an alias and deprecate instead).
void register_builtin_stages(stage_registry& registry) {
  // generators
  registry.add(opensimplex_stage_info());
  // filters
  registry.add(perturb_stage_info());
  registry.add(olsen_erosion_stage_info());
  registry.add(smooth_stage_info());
  registry.add(thermal_erosion_stage_info());
  registry.add(hydraulic_erosion_stage_info());
  registry.add(normalize_stage_info());
}

}  // namespace landform
