#include "landform/stages/curve.hpp"

#include "landform/core/parallel.hpp"

namespace landform {

const param_schema<curve_params>& curve_params::schema() {
  using P = curve_params;
  static const auto s = param_schema<P>()
                            .point_list("points", &P::points)
                            .count(2, 64)
                            .unit("height units")
                            .doc("control points [input height, output height], input strictly increasing")
                            .choice("interpolation", &P::interpolation,
                                    {{"linear", control_curve::kind::linear}, {"smooth", control_curve::kind::smooth}})
                            .doc("linear: straight segments; smooth: monotone cubic through the points (no overshoot)");
  return s;
}

void curve_params::check(std::vector<std::pair<std::string, std::string>>& problems) const {
  if (std::string problem = check_control_points(points); !problem.empty()) {
    problems.emplace_back("points", std::move(problem));
  }
}

void apply_curve(heightfield& h, const curve_params& p, const stage_context& ctx) {
  const control_curve curve(p.points, p.interpolation);
  ctx.parallel_rows(h.height(), [&](int y0, int y1) {
    for (int j = y0; j < y1; ++j) {
      float* row = h.row(j);
      for (int i = 0; i < h.width(); ++i) row[i] = static_cast<float>(curve(row[i]));
    }
  });
}

stage_info curve_stage_info() {
  return make_stage_info<curve_params>(
      "curve", stage_category::filter, stage_scope::pointwise,
      "remaps heights through control points, piecewise-linear or smooth (monotone cubic)",
      "The artist's curves tool: each height h becomes curve(h), constant beyond the first and last point. "
      "`smooth` is the monotone cubic Hermite spline of Fritsch and Carlson (1980): no kinks and no overshoot, "
      "so the output stays within the points' output range. Example: [[0,0],[0.4,0.1],[1,1]] flattens "
      "lowlands into plains.",
      &apply_curve);
}

}  // namespace landform
