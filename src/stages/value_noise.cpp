#include "landform/stages/value_noise.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <stdexcept>
#include <vector>

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

using interp = value_noise_params::interpolation_kind;

// One lattice layer: contribution weight * (a * v + b) with v in [0, 1).
struct layer {
  double frequency;  // lattice units per world unit
  double weight;
  double a, b;
  std::uint64_t stream;  // hash state after (seed, layer index)
};

double fade(double t, interp kind) {
  switch (kind) {
    case interp::linear:
      return t;
    case interp::cosine:
      return (1.0 - std::cos(std::numbers::pi * t)) / 2.0;
    case interp::cubic:
      return t * t * (3.0 - 2.0 * t);
    case interp::quintic:
      return t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
    case interp::catmull_rom:
      return t;  // not used
  }
  return t;
}

double lattice(std::uint64_t stream, std::int64_t ix, std::int64_t iy) {
  return unit_double(
      hash_combine(hash_combine(stream, static_cast<std::uint64_t>(ix)), static_cast<std::uint64_t>(iy)));
}

// Catmull-Rom weights for the four values at -1, 0, 1, 2 around t in [0, 1).
void catmull_rom_weights(double t, double w[4]) {
  const double t2 = t * t, t3 = t2 * t;
  w[0] = 0.5 * (-t3 + 2.0 * t2 - t);
  w[1] = 0.5 * (3.0 * t3 - 5.0 * t2 + 2.0);
  w[2] = 0.5 * (-3.0 * t3 + 4.0 * t2 + t);
  w[3] = 0.5 * (t3 - t2);
}

// The layer's interpolated value in [0, 1] at lattice coordinates (x, y).
double sample(const layer& l, double x, double y, interp kind) {
  const double fx = std::floor(x), fy = std::floor(y);
  const double tx = x - fx, ty = y - fy;
  const auto ix = static_cast<std::int64_t>(fx), iy = static_cast<std::int64_t>(fy);
  if (kind == interp::catmull_rom) {
    double wx[4], wy[4];
    catmull_rom_weights(tx, wx);
    catmull_rom_weights(ty, wy);
    double sum = 0.0;
    for (int b = 0; b < 4; ++b) {
      double row = 0.0;
      for (int a = 0; a < 4; ++a) row += wx[a] * (2.0 * lattice(l.stream, ix + a - 1, iy + b - 1) - 1.0);
      sum += wy[b] * row;
    }
    // |sum| <= (sum of |w|)^2 = 1.25^2 for values in [-1, 1].
    return std::clamp(0.5 + sum / (2.0 * 1.5625), 0.0, 1.0);
  }
  const double v00 = lattice(l.stream, ix, iy), v10 = lattice(l.stream, ix + 1, iy);
  const double v01 = lattice(l.stream, ix, iy + 1), v11 = lattice(l.stream, ix + 1, iy + 1);
  const double sx = fade(tx, kind), sy = fade(ty, kind);
  // As in seed 001: (N1 (1 - sx) + N2 sx) (1 - sy) + (N3 (1 - sx) + N4 sx) sy.
  return (v00 * (1.0 - sx) + v10 * sx) * (1.0 - sy) + (v01 * (1.0 - sx) + v11 * sx) * sy;
}

std::vector<layer> make_layers(const value_noise_params& p, const stage_context& ctx, double cell_size) {
  std::vector<layer> layers;
  const std::uint64_t base = mix64(ctx.seed);
  if (p.mode == value_noise_params::mode_kind::multiresolution) {
    const int n = value_noise_passes(p, ctx.world, cell_size);
    for (int k = 0; k < n; ++k) {
      layers.push_back({1.0 / (p.spacing * std::ldexp(1.0, k)), p.scale * std::pow(p.multiplier, k), 1.0, 0.0,
                        hash_combine(base, static_cast<std::uint64_t>(k))});
    }
  } else {
    for (int k = 0; k < p.octaves; ++k) {
      layers.push_back({std::pow(p.lacunarity, k) / p.feature_size, p.amplitude * std::pow(p.gain, k), 2.0, -1.0,
                        hash_combine(base, static_cast<std::uint64_t>(k))});
    }
  }
  if (p.normalize) {
    double total = 0.0;
    for (const auto& l : layers) total += std::abs(l.weight);
    if (total > 0.0)
      for (auto& l : layers) l.weight /= total;
  }
  return layers;
}

}  // namespace

void apply_value_noise(heightfield& h, const value_noise_params& p, const stage_context& ctx) {
  const region& r = h.placement();
  const std::vector<layer> layers = make_layers(p, ctx, r.cell_size);
  // Lattice coordinates must stay exact as integers and fractions.
  constexpr double k_limit = 1125899906842624.0;  // 2^50
  const double far = std::max({std::abs(r.world_x(0)), std::abs(r.world_x(r.width - 1)), std::abs(r.world_y(0)),
                               std::abs(r.world_y(r.height - 1))});
  for (const auto& l : layers) {
    if (far * l.frequency > k_limit) {
      throw std::domain_error("value noise lattice coordinates exceed 2^50; increase spacing or feature_size");
    }
  }
  ctx.parallel_rows(h.height(), [&](int y0, int y1) {
    for (int j = y0; j < y1; ++j) {
      float* out = h.row(j);
      const double wy = r.world_y(j);
      for (int i = 0; i < h.width(); ++i) {
        const double wx = r.world_x(i);
        double sum = 0.0;
        for (const auto& l : layers) {
          sum += l.weight * (l.a * sample(l, wx * l.frequency, wy * l.frequency, p.interpolation) + l.b);
        }
        out[i] = static_cast<float>(sum);
      }
    }
  });
}

stage_info value_noise_stage_info() {
  return make_stage_info<value_noise_params>(
      "value_noise", stage_category::generator, stage_scope::pointwise,
      "multi-resolution value noise (seed 001) or value-noise fBm from hashed lattice values",
      "Lattice values are hash(seed, layer, ix, iy) uniform in [0, 1), so the map depends on neither the map size "
      "nor the region. multiresolution is Shawn Swift's Perlin Noise HeightMap Generator (2003, seed document "
      "001): pass k has spacing `spacing` * 2^k and values in [0, scale * multiplier^k], summed, with the "
      "original's cosine-weighted bilinear interpolation; scale 0.25 and multiplier 2 in a 1024-cell world give "
      "10 passes and heights in [0, 255.75] like the original. fbm: octave k has spacing feature_size / "
      "lacunarity^k and values in [-1, 1] * amplitude * gain^k. catmull_rom is bicubic, scaled by 1/1.5625 so "
      "ranges hold.",
      &apply_value_noise);
}

}  // namespace landform
