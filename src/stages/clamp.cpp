#include "landform/stages/clamp.hpp"

#include <algorithm>

#include "landform/core/parallel.hpp"

namespace landform {

const param_schema<clamp_params>& clamp_params::schema() {
  using P = clamp_params;
  static const auto s = param_schema<P>()
                            .number("min", &P::min)
                            .unit("height units")
                            .doc("heights below become this")
                            .number("max", &P::max)
                            .unit("height units")
                            .doc("heights above become this");
  return s;
}

void clamp_params::check(std::vector<std::pair<std::string, std::string>>& problems) const {
  if (!(max >= min))
    problems.emplace_back("max", format_number(max) + " must not be below min (" + format_number(min) + ")");
}

void apply_clamp(heightfield& h, const clamp_params& p, const stage_context& ctx) {
  const auto lo = static_cast<float>(p.min), hi = static_cast<float>(p.max);
  ctx.parallel_rows(h.height(), [&](int y0, int y1) {
    for (int j = y0; j < y1; ++j) {
      float* row = h.row(j);
      for (int i = 0; i < h.width(); ++i) row[i] = std::clamp(row[i], lo, hi);
    }
  });
}

stage_info clamp_stage_info() {
  return make_stage_info<clamp_params>(
      "clamp", stage_category::filter, stage_scope::pointwise, "limits heights to [min, max]",
      "Heights below min become min (a flat sea floor or plain), above max become max (plateaus); heights in "
      "between are unchanged.",
      &apply_clamp);
}

}  // namespace landform
