// The parameters and the row-parallel fill shared by the float fractal
// noise stages (opensimplex2, perlin).

#include "landform/stages/fractal_noise.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "landform/core/parallel.hpp"
#include "landform/noise/opensimplex2.hpp"

namespace landform {

const param_schema<fractal_noise_params>& fractal_noise_params::schema() {
  using P = fractal_noise_params;
  using F = P::fractal_mode;
  static const auto s =
      param_schema<P>()
          .choice("fractal", &P::fractal, {{"fbm", F::fbm}, {"ridged", F::ridged}, {"billow", F::billow}})
          .doc("fbm: plain octave sum; ridged: sharp crests from 1 - |n|; billow: rounded hills from |n|")
          .effect("ridged gives mountain chains with sharp crests; billow gives puffy rounded hills")
          .number("feature_size", &P::feature_size)
          .unit("world units")
          .range(above(0))
          .doc("size of the largest features: world distance per noise unit of octave 1")
          .effect("higher = larger, fewer mountains")
          .integer("octaves", &P::octaves)
          .range(between(1, 16))
          .doc("number of octaves summed")
          .effect("more = finer detail on top of the large shapes")
          .number("lacunarity", &P::lacunarity)
          .range(between(1, 8))
          .doc("frequency multiplier from one octave to the next")
          .effect("higher = detail octaves further apart in size, a rougher, less coherent look")
          .number("gain", &P::gain)
          .range(between(0, 1))
          .doc("amplitude multiplier from one octave to the next (persistence)")
          .effect("higher = rougher terrain, the small octaves count more")
          .number("amplitude", &P::amplitude)
          .unit("height units")
          .range(between(-1e6, 1e6))
          .doc("amplitude of the first octave")
          .effect("higher = taller relief; the whole fractal scales with it")
          .number("warp_amplitude", &P::warp_amplitude)
          .unit("world units")
          .range(between(0, 1e9))
          .doc("domain warp: how far points are moved before sampling; 0 = no warp")
          .effect("higher = more swirled, folded shapes")
          .number("warp_frequency", &P::warp_frequency)
          .unit("1/world units")
          .range(above(0))
          .doc("domain warp: noise units per world unit of the warp field")
          .effect("higher = tighter swirls");
  return s;
}

namespace {

noise::fractal_kind kind_of(fractal_noise_params::fractal_mode m) {
  switch (m) {
    case fractal_noise_params::fractal_mode::ridged:
      return noise::fractal_kind::ridged;
    case fractal_noise_params::fractal_mode::billow:
      return noise::fractal_kind::billow;
    case fractal_noise_params::fractal_mode::fbm:
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
                  "noise coordinates reach %.3g, beyond the 1e9 the noise is defined for; "
                  "increase feature_size, use fewer octaves or move the origin toward 0",
                  top);
    throw std::domain_error(text);
  }
}

}  // namespace

noise::fractal_plan fractal_plan_of(const fractal_noise_params& p, std::uint64_t seed) {
  noise::fractal_settings s;
  s.kind = kind_of(p.fractal);
  s.feature_size = p.feature_size;
  s.octaves = p.octaves;
  s.lacunarity = p.lacunarity;
  s.gain = p.gain;
  s.amplitude = p.amplitude;
  s.warp_amplitude = p.warp_amplitude;
  s.warp_frequency = p.warp_frequency;
  return noise::make_fractal_plan(s, seed);
}

void fill_fractal_noise(heightfield& h, const noise::fractal_plan& plan, const stage_context& ctx, fractal_row_fn row) {
  const region& r = h.placement();
  check_domain(r, plan);
  ctx.parallel_rows(h.height(), [&](int y0, int y1) {
    for (int j = y0; j < y1; ++j) row(plan, r.origin_x, h.width(), r.cell_size, r.world_y(j), h.row(j));
  });
}

}  // namespace landform
