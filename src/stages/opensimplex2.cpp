#include "landform/stages/opensimplex2.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "landform/core/parallel.hpp"
#include "landform/noise/opensimplex2.hpp"

namespace landform {

const param_schema<opensimplex2_params>& opensimplex2_params::schema() {
  using P = opensimplex2_params;
  using F = P::fractal_mode;
  static const auto s =
      param_schema<P>()
          .choice("fractal", &P::fractal, {{"fbm", F::fbm}, {"ridged", F::ridged}, {"billow", F::billow}},
                  "fbm: plain octave sum; ridged: sharp crests from 1 - |n|; billow: rounded hills from |n|")
          .number("feature_size", &P::feature_size, above(0), "world units",
                  "size of the largest features: world distance per noise unit of octave 1")
          .integer("octaves", &P::octaves, between(1, 16), "", "number of octaves summed")
          .number("lacunarity", &P::lacunarity, between(1, 8), "", "frequency multiplier from one octave to the next")
          .number("gain", &P::gain, between(0, 1), "", "amplitude multiplier from one octave to the next (persistence)")
          .number("amplitude", &P::amplitude, between(-1e6, 1e6), "height units", "amplitude of the first octave")
          .number("warp_amplitude", &P::warp_amplitude, between(0, 1e9), "world units",
                  "domain warp: how far points are moved before sampling; 0 = no warp")
          .number("warp_frequency", &P::warp_frequency, above(0), "1/world units",
                  "domain warp: noise units per world unit of the warp field");
  return s;
}

namespace {

noise::fractal_kind kind_of(opensimplex2_params::fractal_mode m) {
  switch (m) {
    case opensimplex2_params::fractal_mode::ridged:
      return noise::fractal_kind::ridged;
    case opensimplex2_params::fractal_mode::billow:
      return noise::fractal_kind::billow;
    case opensimplex2_params::fractal_mode::fbm:
      break;
  }
  return noise::fractal_kind::fbm;
}

// Lattice indices are 32-bit: refuse noise coordinates the kernel cannot
// represent instead of evaluating garbage.
void check_domain(const region& r, const noise::fractal_plan& plan) {
  const double far = std::max({std::abs(r.world_x(0)), std::abs(r.world_x(r.width - 1)), std::abs(r.world_y(0)),
                               std::abs(r.world_y(r.height - 1))}) +
                     plan.warp_amplitude;
  double top = plan.warp_frequency * (far - plan.warp_amplitude);
  for (const auto& o : plan.octaves) top = std::max(top, far * o.frequency);
  if (!(top < noise::k_opensimplex2_limit)) {
    char text[200];
    std::snprintf(text, sizeof text,
                  "noise coordinates reach %.3g, beyond the 1e9 OpenSimplex2 is defined for; "
                  "increase feature_size, use fewer octaves or move the origin toward 0",
                  top);
    throw std::domain_error(text);
  }
}

}  // namespace

void apply_opensimplex2(heightfield& h, const opensimplex2_params& p, const stage_context& ctx) {
  noise::fractal_settings s;
  s.kind = kind_of(p.fractal);
  s.feature_size = p.feature_size;
  s.octaves = p.octaves;
  s.lacunarity = p.lacunarity;
  s.gain = p.gain;
  s.amplitude = p.amplitude;
  s.warp_amplitude = p.warp_amplitude;
  s.warp_frequency = p.warp_frequency;
  const noise::fractal_plan plan = noise::make_fractal_plan(s, ctx.seed);
  const region& r = h.placement();
  check_domain(r, plan);
  parallel_rows(h.height(), ctx.nthreads, [&](int y0, int y1) {
    for (int j = y0; j < y1; ++j) {
      noise::opensimplex2_fractal_row(plan, r.origin_x, h.width(), r.cell_size, r.world_y(j), h.row(j));
    }
  });
}

stage_info opensimplex2_stage_info() {
  return make_stage_info<opensimplex2_params>(
      "opensimplex2", stage_category::generator, stage_scope::pointwise,
      "fractal OpenSimplex2 noise (K.jpg) with fbm, ridged and billow modes and domain warp, float SIMD",
      "K.jpg's OpenSimplex2 2D (public domain; the scalar reference equals the published Java bit for bit) "
      "summed over `octaves`, each `lacunarity` times the frequency and `gain` times the amplitude of the "
      "previous; octave k is seeded with hash(seed, k). fbm adds a_k n, billow a_k (2|n| - 1), ridged "
      "a_k (2 (1 - |n|)^2 - 1). warp_amplitude > 0 moves each point by two more OpenSimplex2 fields first. "
      "Evaluated in float SIMD with runtime dispatch (AVX-512/AVX2/SSE4...), bit-identical on every CPU.",
      &apply_opensimplex2);
}

}  // namespace landform
