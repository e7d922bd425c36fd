#include "landform/stages/constant.hpp"

#include <algorithm>

#include "landform/core/parallel.hpp"

namespace landform {

const param_schema<constant_params>& constant_params::schema() {
  using P = constant_params;
  static const auto s = param_schema<P>()
                            .number("value", &P::value)
                            .unit("height units")
                            .range(between(-3.4e38, 3.4e38))  // heights are float32
                            .doc("the height of every cell");
  return s;
}

void apply_constant(heightfield& h, const constant_params& p, const stage_context& ctx) {
  const auto v = static_cast<float>(p.value);
  ctx.parallel_rows(h.height(), [&](int y0, int y1) {
    for (int j = y0; j < y1; ++j) std::fill(h.row(j), h.row(j) + h.width(), v);
  });
}

stage_info constant_stage_info() {
  return make_stage_info<constant_params>(
      "constant", stage_category::generator, stage_scope::pointwise, "a flat layer of one height",
      "Every cell gets `value`. Useful as the base of a layer stack, to shift a map with `blend: add`, or "
      "to fill a named layer (`target`) before painting a mask into it.",
      &apply_constant);
}

}  // namespace landform
