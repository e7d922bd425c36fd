#include "landform/stages/perturb.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "landform/core/parallel.hpp"
#include "landform/noise/open_simplex_legacy.hpp"

namespace landform {

const param_schema<perturb_params>& perturb_params::schema() {
  using P = perturb_params;
  static const auto s =
      param_schema<P>()
          .number("frequency", &P::frequency)
          .unit("cycles per world width")
          .range(above_to(0, 1e6))
          .doc("how many displacement waves cross the world")
          .effect("higher = finer, more tightly curled wobble; lower = broad bends of whole ranges")
          .number("magnitude", &P::magnitude)
          .unit("cells")
          .range(between(0, 1e6))
          .doc("largest displacement of a cell")
          .effect("higher = stronger swirling and smearing of features; 0 = no change")
          .choice("sampling", &P::sampling,
                  {{"bilinear", P::sampling_mode::bilinear}, {"nearest", P::sampling_mode::nearest}})
          .doc("nearest = the tutorial's truncated integer offsets; bilinear = smooth fractional offsets")
          .effect("nearest keeps the tutorial's blocky, jittery look; bilinear is smooth");
  return s;
}

int perturb_params::halo() const {
  return static_cast<int>(std::ceil(magnitude)) + 1;
}

namespace {

float sample_bilinear(const heightfield& h, double x, double y) {
  x = std::clamp(x, 0.0, static_cast<double>(h.width() - 1));
  y = std::clamp(y, 0.0, static_cast<double>(h.height() - 1));
  const int x0 = static_cast<int>(x);  // x >= 0, so truncation is floor
  const int y0 = static_cast<int>(y);
  const int x1 = std::min(x0 + 1, h.width() - 1);
  const int y1 = std::min(y0 + 1, h.height() - 1);
  const double fx = x - x0, fy = y - y0;
  const double top = h.at(x0, y0) + (h.at(x1, y0) - static_cast<double>(h.at(x0, y0))) * fx;
  const double bottom = h.at(x0, y1) + (h.at(x1, y1) - static_cast<double>(h.at(x0, y1))) * fx;
  return static_cast<float>(top + (bottom - top) * fy);
}

}  // namespace

void apply_perturb(heightfield& h, const perturb_params& p, const stage_context& ctx) {
  const open_simplex_legacy noise(static_cast<std::int64_t>(ctx.seed));
  const region& r = h.placement();
  // Offsets from the world's origin: the noise field is laid out on the
  // world, so the same cell gets the same displacement in any region.
  const std::int64_t world_x0 = ctx.world.origin_x, world_y0 = ctx.world.origin_y;
  const auto world_w = static_cast<double>(ctx.world.width);
  std::vector<float> out(h.size());
  const int w = h.width(), ht = h.height();
  ctx.parallel_rows(ht, [&](int y0, int y1) {
    // One row of noise at a time (SIMD rows, the same doubles as eval).
    std::vector<double> a(static_cast<std::size_t>(w)), noise_u(a.size()), noise_v(a.size());
    for (int i = 0; i < w; ++i) {
      // Multiply, then divide, as the tutorial's f * i / (double)Size.
      a[static_cast<std::size_t>(i)] = p.frequency * static_cast<double>(r.origin_x + i - world_x0) / world_w;
    }
    for (int j = y0; j < y1; ++j) {
      const double b = p.frequency * static_cast<double>(r.origin_y + j - world_y0) / world_w;
      noise.eval_row(a.data(), b, 0.0, w, noise_u.data());
      noise.eval_row(a.data(), b, 1.0, w, noise_v.data());
      for (int i = 0; i < w; ++i) {
        const double du = noise_u[static_cast<std::size_t>(i)] * p.magnitude;
        const double dv = noise_v[static_cast<std::size_t>(i)] * p.magnitude;
        float value;
        if (p.sampling == perturb_params::sampling_mode::nearest) {
          const int u = std::clamp(i + static_cast<int>(du), 0, w - 1);
          const int v = std::clamp(j + static_cast<int>(dv), 0, ht - 1);
          value = h.at(u, v);
        } else {
          value = sample_bilinear(h, i + du, j + dv);
        }
        out[static_cast<std::size_t>(j) * static_cast<std::size_t>(w) + static_cast<std::size_t>(i)] = value;
      }
    }
  });
  h.values().swap(out);
}

stage_info perturb_stage_info() {
  stage_info info = make_stage_info<perturb_params>(
      "perturb", stage_category::filter, stage_scope::local,
      "domain warp: displace cells by an OpenSimplex vector field",
      "The tutorial's Perturb(f, d) (seed document 000, after float4x4's C++ tutorial): each cell takes the "
      "height at a position displaced by two OpenSimplex samples (z = 0 and z = 1) scaled by `magnitude`. "
      "Local: a region build computes the region grown by ceil(magnitude) + 1 cells.",
      &apply_perturb);
  info.halo_rule = "ceil(magnitude) + 1";
  return info;
}

}  // namespace landform
