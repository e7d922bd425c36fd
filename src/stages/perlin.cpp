#include "landform/stages/perlin.hpp"

#include "landform/noise/perlin.hpp"

namespace landform {

void apply_perlin(heightfield& h, const perlin_params& p, const stage_context& ctx) {
  fill_fractal_noise(h, fractal_plan_of(p, ctx.seed), ctx, &noise::perlin_fractal_row);
}

stage_info perlin_stage_info() {
  stage_info info = make_stage_info<perlin_params>(
      "perlin", stage_category::generator, stage_scope::pointwise,
      "fractal improved Perlin gradient noise (Perlin 2002) with fbm, ridged and billow modes and domain warp, "
      "float SIMD",
      "Ken Perlin's improved gradient noise (SIGGRAPH 2002: quintic fade, hashed gradients; here 8 gradients of "
      "length sqrt 2, values in [-1, 1]) summed over `octaves` exactly as `opensimplex2` does: octave k seeded "
      "with hash(seed, k), fbm a_k n, billow a_k (2|n| - 1), ridged a_k (2 (1 - |n|)^2 - 1), optional domain "
      "warp by two more Perlin fields. Float SIMD with runtime dispatch, bit-identical on every CPU.",
      &apply_perlin);
  set_cost<perlin_params>(info, [](const perlin_params& p, double cells) {
    return cells * (p.octaves + (p.warp_amplitude > 0 ? 2 : 0)) * 10.0;
  });
  return info;
}

}  // namespace landform
