#include "landform/stages/invert.hpp"

#include "landform/core/parallel.hpp"

namespace landform {

const param_schema<invert_params>& invert_params::schema() {
  using P = invert_params;
  static const auto s = param_schema<P>()
                            .number("min", &P::min)
                            .unit("height units")
                            .doc("the low end of the range, which becomes max")
                            .number("max", &P::max)
                            .unit("height units")
                            .doc("the high end of the range, which becomes min");
  return s;
}

void apply_invert(heightfield& h, const invert_params& p, const stage_context& ctx) {
  const double sum = p.min + p.max;
  ctx.parallel_rows(h.height(), [&](int y0, int y1) {
    for (int j = y0; j < y1; ++j) {
      float* row = h.row(j);
      for (int i = 0; i < h.width(); ++i) row[i] = static_cast<float>(sum - row[i]);
    }
  });
}

stage_info invert_stage_info() {
  return make_stage_info<invert_params>(
      "invert", stage_category::filter, stage_scope::pointwise, "flips heights: h' = min + max - h",
      "A reflection that maps [min, max] onto itself reversed (1 - h with the defaults): valleys become ridges. "
      "Inverted Worley F1 gives rounded hills, inverted ridges give canyons.",
      &apply_invert);
}

}  // namespace landform
