#include "landform/stages/gradient.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "landform/core/parallel.hpp"
#include "landform/core/world_frame.hpp"

namespace landform {

const param_schema<gradient_params>& gradient_params::schema() {
  using P = gradient_params;
  static const auto s =
      param_schema<P>()
          .choice("shape", &P::shape, {{"linear", P::shape_kind::linear}, {"radial", P::shape_kind::radial}})
          .doc("linear: a ramp across the world; radial: from a centre outwards")
          .number("start", &P::start)
          .unit("height units")
          .doc("value at the start of the ramp (or at the centre)")
          .number("end", &P::end)
          .unit("height units")
          .doc("value at the end of the ramp (or at the radius and beyond)")
          .number("angle", &P::angle)
          .unit("degrees")
          .range(between(-360, 360))
          .doc("linear: direction of the ramp, 0 = left to right, 90 = top to bottom")
          .number("center_x", &P::center_x)
          .unit("world fraction")
          .doc("radial: centre column, 0 = left edge, 1 = right edge")
          .number("center_y", &P::center_y)
          .unit("world fraction")
          .doc("radial: centre row, 0 = top edge, 1 = bottom edge")
          .number("radius", &P::radius)
          .unit("smaller world sides")
          .range(above(0))
          .doc("radial: distance at which the ramp reaches `end`");
  return s;
}

void apply_gradient(heightfield& h, const gradient_params& p, const stage_context& ctx) {
  const world_frame f(ctx.world, h.placement());
  const double w = ctx.world.width, ht = ctx.world.height;
  const double a = p.angle * std::numbers::pi / 180.0;
  const double dx = std::cos(a), dy = std::sin(a);
  // Extent of the world rectangle [0, w] x [0, ht] along the direction.
  const double c0 = 0.0, c1 = w * dx, c2 = ht * dy, c3 = w * dx + ht * dy;
  const double lo = std::min({c0, c1, c2, c3}), hi = std::max({c0, c1, c2, c3});
  const double cx = p.center_x * w, cy = p.center_y * ht, reach = p.radius * f.short_side();
  const bool linear = p.shape == gradient_params::shape_kind::linear;
  ctx.parallel_rows(h.height(), [&](int y0, int y1) {
    for (int j = y0; j < y1; ++j) {
      float* row = h.row(j);
      const double y = f.cells_y(j);
      for (int i = 0; i < h.width(); ++i) {
        const double x = f.cells_x(i);
        double t;
        if (linear) {
          t = std::clamp((x * dx + y * dy - lo) / (hi - lo), 0.0, 1.0);
        } else {
          t = std::min(std::hypot(x - cx, y - cy) / reach, 1.0);
        }
        row[i] = static_cast<float>(p.start + (p.end - p.start) * t);
      }
    }
  });
}

stage_info gradient_stage_info() {
  return make_stage_info<gradient_params>(
      "gradient", stage_category::generator, stage_scope::pointwise, "a linear or radial ramp laid out on the world",
      "linear: each cell centre is projected on the direction `angle` and the world's extent along it maps to "
      "start..end. radial: start at the centre, end at `radius` smaller-world-sides and beyond (a circle in any "
      "world aspect). Laid out on the world, so tiles agree; use it for tests, tilts and masks.",
      &apply_gradient);
}

}  // namespace landform
