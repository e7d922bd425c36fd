#include "landform/stages/scale_bias.hpp"

#include "landform/core/parallel.hpp"

namespace landform {

const param_schema<scale_bias_params>& scale_bias_params::schema() {
  using P = scale_bias_params;
  static const auto s = param_schema<P>()
                            .number("scale", &P::scale)
                            .doc("multiplies every height (negative flips the map)")
                            .number("bias", &P::bias)
                            .unit("height units")
                            .doc("added after scaling");
  return s;
}

void apply_scale_bias(heightfield& h, const scale_bias_params& p, const stage_context& ctx) {
  ctx.parallel_rows(h.height(), [&](int y0, int y1) {
    for (int j = y0; j < y1; ++j) {
      float* row = h.row(j);
      for (int i = 0; i < h.width(); ++i) row[i] = static_cast<float>(row[i] * p.scale + p.bias);
    }
  });
}

stage_info scale_bias_stage_info() {
  return make_stage_info<scale_bias_params>(
      "scale_bias", stage_category::filter, stage_scope::pointwise, "linear remap h' = h * scale + bias",
      "libnoise's ScaleBias: scale a layer, lift it, or turn [-1, 1] noise into [0, 1] with scale 0.5 and "
      "bias 0.5. Computed in double and rounded once.",
      &apply_scale_bias);
}

}  // namespace landform
