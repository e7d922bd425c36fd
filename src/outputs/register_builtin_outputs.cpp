#include "landform/outputs/ao_output.hpp"
#include "landform/outputs/biome_output.hpp"
#include "landform/outputs/flow_output.hpp"
#include "landform/outputs/height_output.hpp"
#include "landform/outputs/mesh_output.hpp"
#include "landform/outputs/output_kind.hpp"
#include "landform/outputs/road_output.hpp"
#include "landform/outputs/splat_output.hpp"
#include "landform/outputs/surface_outputs.hpp"
#include "landform/outputs/water_output.hpp"

namespace landform {

// The one explicit list of built-in output kinds. Names are part of the
// preset format: never rename one.
void register_builtin_outputs(output_registry& registry) {
  registry.add(height_output_kind());
  registry.add(biome_output_kind());
  registry.add(normal_output_kind());
  registry.add(slope_output_kind());
  registry.add(aspect_output_kind());
  registry.add(curvature_output_kind());
  registry.add(preview_output_kind());
  registry.add(splat_output_kind());
  registry.add(ao_output_kind());
  registry.add(flow_output_kind());
  registry.add(wetness_output_kind());
  registry.add(mesh_output_kind());
  for (auto& kind : water_output_kinds()) registry.add(std::move(kind));
  for (auto& kind : road_output_kinds()) registry.add(std::move(kind));
}

}  // namespace landform
