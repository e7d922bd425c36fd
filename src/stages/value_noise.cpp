#include "landform/stages/value_noise.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>

#include "landform/core/parallel.hpp"
#include "landform/core/rng.hpp"

namespace landform {

const param_schema<value_noise_params>& value_noise_params::schema() {
  using P = value_noise_params;
  using I = P::interpolation_kind;
  static const auto s =
      param_schema<P>()
          .choice("mode", &P::mode, {{"multiresolution", P::mode_kind::multiresolution}, {"fbm", P::mode_kind::fbm}})
          .doc("multiresolution: seed 001's passes, finest first, each twice as coarse; fbm: the usual octave sum")
          .choice("interpolation", &P::interpolation,
                  {{"cosine", I::cosine},
                   {"linear", I::linear},
                   {"cubic", I::cubic},
                   {"quintic", I::quintic},
                   {"catmull_rom", I::catmull_rom}})
          .doc("between lattice values: cosine (seed 001), linear, cubic or quintic fades, bicubic catmull_rom")
          .effect("linear shows the lattice as creases; cosine, cubic and quintic are progressively smoother")
          .number("scale", &P::scale)
          .unit("height units")
          .range(above(0))
          .doc("multiresolution: maximum height of the finest pass")
          .number("multiplier", &P::multiplier)
          .range(above_to(0, 16))
          .doc("multiresolution: amplitude of each pass over the previous, finer one")
          .effect("higher = coarse passes dominate (smoother, larger shapes); lower = rougher")
          .integer("passes", &P::passes)
          .range(between(0, 40))
          .doc("multiresolution: number of passes; 0 = floor(log2(world extent / spacing))")
          .effect("more = larger shapes added on top of the fine ones")
          .number("spacing", &P::spacing)
          .unit("world units")
          .range(above(0))
          .doc("multiresolution: lattice spacing of the finest pass")
          .effect("higher = coarser finest detail")
          .number("feature_size", &P::feature_size)
          .unit("world units")
          .range(above(0))
          .doc("fbm: lattice spacing of the first octave")
          .effect("higher = larger, broader features")
          .integer("octaves", &P::octaves)
          .range(between(1, 24))
          .doc("fbm: number of octaves")
          .effect("more = more small detail")
          .number("lacunarity", &P::lacunarity)
          .range(between(1, 8))
          .doc("fbm: frequency ratio between octaves")
          .effect("higher = detail octaves jump to much finer scales")
          .number("gain", &P::gain)
          .range(between(0, 1))
          .doc("fbm: amplitude ratio between octaves (persistence)")
          .effect("higher = rougher terrain; lower = smoother")
          .number("amplitude", &P::amplitude)
          .unit("height units")
          .doc("fbm: amplitude of the first octave")
          .effect("higher = taller relief")
          .boolean("normalize", &P::normalize)
          .doc("divide by the sum of the amplitudes: [0, 1] (multiresolution) or [-1, 1] (fbm)");
  return s;
}

int value_noise_passes(const value_noise_params& p, const world_extent& world, double cell_size) {
  if (p.passes > 0) return p.passes;
  const double extent = std::max(world.width, world.height) * cell_size;
  // The largest n with spacing * 2^n <= extent (at least 1): 10 passes for
  // spacing 1 in a 1024-cell world, the coarsest with spacing 512 (seed 001).
  int n = 1;
  while (n < 40 && p.spacing * std::ldexp(1.0, n + 1) <= extent) ++n;
  return n;
}

namespace {

noise::value_fade fade_of(value_noise_params::interpolation_kind kind) {
  using I = value_noise_params::interpolation_kind;
  switch (kind) {
    case I::linear:
      return noise::value_fade::linear;
    case I::cosine:
      return noise::value_fade::cosine;
    case I::cubic:
      return noise::value_fade::cubic;
    case I::catmull_rom:
      return noise::value_fade::catmull_rom;
    case I::quintic:
      break;
  }
  return noise::value_fade::quintic;
}

}  // namespace

noise::value_plan value_noise_plan(const value_noise_params& p, const world_extent& world, double cell_size,
                                   std::uint64_t seed) {
  noise::value_plan plan;
  plan.fade = fade_of(p.interpolation);
  if (p.mode == value_noise_params::mode_kind::fbm) {
    // The shared fBm combinator's plan; normalize divides the amplitudes
    // (in double, before they are rounded to float) by their sum.
    double total = 0.0, a = p.amplitude;
    for (int k = 0; k < p.octaves; ++k, a *= p.gain) total += std::abs(a);
    noise::fractal_settings s;
    s.feature_size = p.feature_size;
    s.octaves = p.octaves;
    s.lacunarity = p.lacunarity;
    s.gain = p.gain;
    s.amplitude = p.normalize && total > 0.0 ? p.amplitude / total : p.amplitude;
    plan.fractal = noise::make_fractal_plan(s, seed);
    plan.is_signed = true;
    return plan;
  }
  // Seed 001's passes as octaves of the same combinator: pass k has spacing
  // spacing * 2^k and weight scale * multiplier^k on values in [0, 1).
  const int n = value_noise_passes(p, world, cell_size);
  double total = 0.0;
  for (int k = 0; k < n; ++k) total += std::abs(p.scale * std::pow(p.multiplier, k));
  for (int k = 0; k < n; ++k) {
    noise::octave o;
    o.frequency = 1.0 / (p.spacing * std::ldexp(1.0, k));
    const double weight = p.scale * std::pow(p.multiplier, k);
    o.amplitude = static_cast<float>(p.normalize && total > 0.0 ? weight / total : weight);
    o.seed = static_cast<std::int64_t>(hash64(seed, static_cast<std::uint64_t>(k)));
    plan.fractal.octaves.push_back(o);
  }
  plan.is_signed = false;
  return plan;
}

void apply_value_noise(heightfield& h, const value_noise_params& p, const stage_context& ctx) {
  const region& r = h.placement();
  const noise::value_plan plan = value_noise_plan(p, ctx.world, r.cell_size, ctx.seed);
  // Lattice indices are 32-bit (Catmull-Rom reads two cells beyond).
  const double far = std::max({std::abs(r.world_x(0)), std::abs(r.world_x(r.width - 1)), std::abs(r.world_y(0)),
                               std::abs(r.world_y(r.height - 1))});
  for (const auto& o : plan.fractal.octaves) {
    if (!(far * o.frequency < noise::k_value_noise_limit)) {
      char text[200];
      std::snprintf(text, sizeof text,
                    "value noise lattice coordinates reach %.3g, beyond the 1e9 the 32-bit lattice is defined for; "
                    "increase spacing or feature_size, use fewer octaves or move the origin toward 0",
                    far * o.frequency);
      throw std::domain_error(text);
    }
  }
  // The columns' cells and weights are the same for every row: computed once.
  const noise::value_row_kernel kernel(plan, r.origin_x, h.width(), r.cell_size);
  ctx.parallel_rows(h.height(), [&](int y0, int y1) {
    for (int j = y0; j < y1; ++j) kernel.row(r.world_y(j), h.row(j));
  });
}

stage_info value_noise_stage_info() {
  return make_stage_info<value_noise_params>(
      "value_noise", stage_category::generator, stage_scope::pointwise,
      "multi-resolution value noise (seed 001) or value-noise fBm from hashed lattice values",
      "Lattice values are the top 24 bits of xxHash32(iy, ix) under a 32-bit seed per layer, hashed from (seed, "
      "layer), so the map depends on neither the map size nor the region. multiresolution is Shawn Swift's Perlin "
      "Noise HeightMap Generator (2003, seed document 001): pass k has spacing `spacing` * 2^k and values in [0, "
      "scale * multiplier^k], summed, with the original's cosine-weighted bilinear interpolation; scale 0.25 and "
      "multiplier 2 in a 1024-cell world give 10 passes and heights in [0, 255.75] like the original. fbm: the "
      "shared fBm combinator, octave k has spacing feature_size / lacunarity^k and values in [-1, 1] * amplitude * "
      "gain^k. catmull_rom is bicubic, scaled by 1/1.5625 so ranges hold. Float SIMD with runtime dispatch, "
      "bit-identical on every CPU.",
      &apply_value_noise);
}

}  // namespace landform
