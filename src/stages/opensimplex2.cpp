#include "landform/stages/opensimplex2.hpp"

#include "landform/noise/opensimplex2.hpp"

namespace landform {

void apply_opensimplex2(heightfield& h, const opensimplex2_params& p, const stage_context& ctx) {
  fill_fractal_noise(h, fractal_plan_of(p, ctx.seed), ctx, &noise::opensimplex2_fractal_row);
}

stage_info opensimplex2_stage_info() {
  stage_info info = make_stage_info<opensimplex2_params>(
      "opensimplex2", stage_category::generator, stage_scope::pointwise,
      "fractal OpenSimplex2 noise (K.jpg) with fbm, ridged and billow modes and domain warp, float SIMD",
      "K.jpg's OpenSimplex2 2D (public domain; the scalar reference equals the published Java bit for bit) "
      "summed over `octaves`, each `lacunarity` times the frequency and `gain` times the amplitude of the "
      "previous; octave k is seeded with hash(seed, k). fbm adds a_k n, billow a_k (2|n| - 1), ridged "
      "a_k (2 (1 - |n|)^2 - 1). warp_amplitude > 0 moves each point by two more OpenSimplex2 fields first. "
      "Evaluated in float SIMD with runtime dispatch (AVX-512/AVX2/SSE4...), bit-identical on every CPU.",
      &apply_opensimplex2);
  set_cost<opensimplex2_params>(info, [](const opensimplex2_params& p, double cells) {
    return cells * (p.octaves + (p.warp_amplitude > 0 ? 2 : 0)) * 10.0;
  });
  return info;
}

}  // namespace landform
