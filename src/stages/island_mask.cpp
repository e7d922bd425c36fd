#include "landform/stages/island_mask.hpp"

#include <algorithm>
#include <cmath>

#include "landform/core/parallel.hpp"
#include "landform/core/world_frame.hpp"

namespace landform {

const param_schema<island_mask_params>& island_mask_params::schema() {
  using P = island_mask_params;
  static const auto s =
      param_schema<P>()
          .choice("shape", &P::shape, {{"radial", P::shape_kind::radial}, {"square", P::shape_kind::square}})
          .doc("radial: Euclidean distance from the centre; square: the larger of the x and y distances")
          .choice("fit", &P::fit, {{"world", P::fit_kind::world}, {"circle", P::fit_kind::circle}})
          .doc("world: stretched to fill the world; circle: round (square) in world units, sized by the smaller side")
          .number("inner", &P::inner)
          .unit("normalised distance")
          .range(at_least(0))
          .doc("the mask is 1 out to this distance (1 = edge middle)")
          .effect("higher = a larger flat interior at full height")
          .number("outer", &P::outer)
          .unit("normalised distance")
          .range(above(0))
          .doc("the mask reaches 0 at this distance")
          .effect("higher = land reaches further out before the sea")
          .choice("curve", &P::curve,
                  {{"linear", P::curve_kind::linear},
                   {"smoothstep", P::curve_kind::smoothstep},
                   {"smootherstep", P::curve_kind::smootherstep}})
          .effect("smoothstep/smootherstep = a soft beach; linear = a visible crease at the inner and outer edges")
          .doc("shape of the falloff between inner and outer")
          .number("exponent", &P::exponent)
          .range(between(0.05, 20))
          .doc("t^exponent before the curve; > 1 keeps the coast high longer")
          .effect("higher = the coast stays high longer, then drops steeply; lower = a long gentle beach");
  return s;
}

void island_mask_params::check(std::vector<std::pair<std::string, std::string>>& problems) const {
  if (!(outer > inner)) {
    problems.emplace_back("outer", format_number(outer) + " must be greater than inner (" + format_number(inner) + ")");
  }
}

void apply_island_mask(heightfield& h, const island_mask_params& p, const stage_context& ctx) {
  const world_frame f(ctx.world, h.placement());
  using P = island_mask_params;
  const bool stretch = p.fit == P::fit_kind::world;
  const bool radial = p.shape == P::shape_kind::radial;
  const double span = p.outer - p.inner;
  ctx.parallel_rows(h.height(), [&](int y0, int y1) {
    for (int j = y0; j < y1; ++j) {
      float* row = h.row(j);
      const double dy = stretch ? f.ny(j) - 0.5 : f.uy(j);
      for (int i = 0; i < h.width(); ++i) {
        const double dx = stretch ? f.nx(i) - 0.5 : f.ux(i);
        const double d = radial ? 2.0 * std::sqrt(dx * dx + dy * dy) : 2.0 * std::max(std::abs(dx), std::abs(dy));
        double t = std::clamp((d - p.inner) / span, 0.0, 1.0);
        if (p.exponent != 1.0) t = std::pow(t, p.exponent);
        double c = t;
        if (p.curve == P::curve_kind::smoothstep) c = t * t * (3.0 - 2.0 * t);
        if (p.curve == P::curve_kind::smootherstep) c = t * t * t * (t * (6.0 * t - 15.0) + 10.0);
        row[i] = static_cast<float>(std::clamp(1.0 - c, 0.0, 1.0));
      }
    }
  });
}

stage_info island_mask_stage_info() {
  return make_stage_info<island_mask_params>(
      "island_mask", stage_category::generator, stage_scope::pointwise,
      "1 in the middle of the world falling to 0 at its edges (radial or square), through a curve",
      "d = 2 sqrt(dx^2 + dy^2) (radial) or 2 max(|dx|, |dy|) (square, the island shaping of seed document 002), "
      "with (dx, dy) the cell's offset from the world's centre in world fractions (fit: world) or smaller-side "
      "units (fit: circle); d = 1 at the middle of the edges. The mask is 1 - curve(t), t = clamp((d - inner) / "
      "(outer - inner), 0, 1)^exponent. Write it to a layer with `target` and use it as a `mask`, or combine it "
      "with `blend: multiply`.",
      &apply_island_mask);
}

}  // namespace landform
