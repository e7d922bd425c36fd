#include "landform/stages/terrace.hpp"

#include <algorithm>
#include <cmath>

#include "landform/core/parallel.hpp"

namespace landform {

const param_schema<terrace_params>& terrace_params::schema() {
  using P = terrace_params;
  static const auto s = param_schema<P>()
                            .integer("steps", &P::steps)
                            .range(between(1, 1024))
                            .doc("number of terraces between min and max")
                            .effect("more = more, thinner terraces")
                            .number("min", &P::min)
                            .unit("height units")
                            .doc("bottom of the terraced range (a tread level)")
                            .number("max", &P::max)
                            .unit("height units")
                            .doc("top of the terraced range (a tread level)")
                            .number("smoothness", &P::smoothness)
                            .range(between(0, 1))
                            .doc("fraction of each step taken by its riser: 0 = vertical cliffs, 1 = no flat tread")
                            .effect("higher = softer, sloped risers; 0 = flat treads and vertical cliffs");
  return s;
}

void terrace_params::check(std::vector<std::pair<std::string, std::string>>& problems) const {
  if (!(max > min))
    problems.emplace_back("max", format_number(max) + " must be greater than min (" + format_number(min) + ")");
}

void apply_terrace(heightfield& h, const terrace_params& p, const stage_context& ctx) {
  const double range = p.max - p.min;
  const double steps = p.steps;
  const double s = p.smoothness;
  ctx.parallel_rows(h.height(), [&](int y0, int y1) {
    for (int j = y0; j < y1; ++j) {
      float* row = h.row(j);
      for (int i = 0; i < h.width(); ++i) {
        const double t = (row[i] - p.min) / range * steps;
        const double k = std::floor(t);
        const double f = t - k;
        double g = 0.0;
        if (s > 0.0) {
          const double u = std::clamp((f - (1.0 - s)) / s, 0.0, 1.0);
          g = u * u * (3.0 - 2.0 * u);
        }
        row[i] = static_cast<float>(p.min + (k + g) / steps * range);
      }
    }
  });
}

stage_info terrace_stage_info() {
  return make_stage_info<terrace_params>(
      "terrace", stage_category::filter, stage_scope::pointwise,
      "flat treads and smooth risers: steps between min and max",
      "t = (h - min) / (max - min) * steps; the riser takes the last `smoothness` of each step with a smoothstep, "
      "h' = min + (floor(t) + g) / steps * (max - min). smoothness 0 gives a staircase, 0.1 to 0.4 natural "
      "terraces, 1 an S-curve per step.",
      &apply_terrace);
}

}  // namespace landform
