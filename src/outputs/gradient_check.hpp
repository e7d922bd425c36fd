#pragma once
// The check the gradient-direction outputs (normal, aspect) make before
// encoding. Private to the library.

#include <string>

#include "landform/derive/surface.hpp"
#include "landform/outputs/output_format.hpp"
#include "landform/outputs/output_kind.hpp"

namespace landform::detail {

/// Throws non_finite_output_error (the pipeline names the output; exit 2)
/// when Horn's gradient of the output's field overflows float32 at some cell
/// (see horn_gradient_overflows): its downhill direction is lost, so a normal
/// or an aspect there would be made up. Slope (90 degrees) and the preview
/// stay meaningful and do not call this.
inline void require_representable_gradient(const output_context& ctx, edge_policy edges) {
  const std::size_t bad = horn_gradient_overflows(ctx.field, ctx.height_scale, edges, ctx.nthreads);
  if (bad > 0) {
    throw non_finite_output_error("Horn's gradient overflows float32 at " + std::to_string(bad) + " of " +
                                  std::to_string(ctx.field.size()) +
                                  " cells (slopes beyond 3.4e38 m/m), so their downhill direction is lost");
  }
}

}  // namespace landform::detail
