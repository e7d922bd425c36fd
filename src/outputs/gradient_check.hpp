#pragma once
// The check the gradient-direction outputs (normal, aspect, preview, mesh) make before
// encoding. Private to the library.

#include <string>

#include "landform/derive/surface.hpp"
#include "landform/outputs/output_format.hpp"
#include "landform/outputs/output_kind.hpp"

namespace landform::detail {

/// Throws non_finite_output_error (the pipeline names the output; exit 2)
/// when Horn's gradient of the output's field, heights in metres by
/// `height_scale`, overflows float32 at some cell (see
/// horn_gradient_overflows): its downhill direction is lost, so a normal,
/// an aspect or a hillshade there would be made up. Slope in degrees (90)
/// stays meaningful and does not call this. `scale_note` tells how the
/// heights were scaled (e.g. the preview's z_factor).
inline void require_representable_gradient(const output_context& ctx, edge_policy edges, double height_scale,
                                           const std::string& scale_note = "height x height_scale") {
  const std::size_t bad = horn_gradient_overflows(ctx.field, height_scale, edges, ctx.nthreads);
  if (bad > 0) {
    throw non_finite_output_error("a component of Horn's gradient (" + scale_note +
                                  " per metre) overflows float32 at " + std::to_string(bad) + " of the " +
                                  std::to_string(ctx.field.size()) +
                                  " cells read (the region and its halo): past 3.4e38 m/m the downhill direction is "
                                  "lost");
  }
}

}  // namespace landform::detail
