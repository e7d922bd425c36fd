#include "landform/outputs/height_output.hpp"
#include "landform/outputs/output_kind.hpp"

namespace landform {

// The one explicit list of built-in output kinds. Names are part of the
// preset format: never rename one.
void register_builtin_outputs(output_registry& registry) {
  registry.add(height_output_kind());
}

}  // namespace landform
