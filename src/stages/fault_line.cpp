#include "landform/stages/fault_line.hpp"

#include <cmath>
#include <numbers>

#include "landform/core/parallel.hpp"
#include "landform/core/rng.hpp"
#include "landform/core/world_frame.hpp"

namespace landform {

const param_schema<fault_line_params>& fault_line_params::schema() {
  using P = fault_line_params;
  static const auto s =
      param_schema<P>()
          .integer("iterations", &P::iterations)
          .range(between(1, 100000))
          .doc("number of faults; about 0.9 of them cross the map; 200 to 1000 look fractal")
          .effect("more = finer, more natural-looking relief; few = visible straight cliffs")
          .number("initial_step", &P::initial_step)
          .unit("height units")
          .range(at_least(0))
          .doc("rise of the first fault")
          .effect("higher = taller large-scale relief")
          .number("final_step", &P::final_step)
          .unit("height units")
          .range(at_least(0))
          .doc("rise of the last fault; steps shrink linearly in between")
          .effect("higher = rougher small-scale relief")
          .choice("profile", &P::profile, {{"step", P::profile_kind::step}, {"sigmoid", P::profile_kind::sigmoid}})
          .effect("step = terraced cliffs along every fault; sigmoid = soft rolling scarps")
          .doc("step: hard cliff along each fault; sigmoid: smooth tanh slope")
          .number("width", &P::width)
          .unit("world units")
          .range(above(0))
          .doc("sigmoid: half-width of the slope (12% to 88% of the rise)")
          .effect("higher = softer, wider fault slopes; lower = sharp cliffs");
  return s;
}

std::vector<fault> fault_line_faults(const fault_line_params& p, std::uint64_t seed, const world_extent& world) {
  const double radius = 0.5 * std::hypot(static_cast<double>(world.width), static_cast<double>(world.height));
  const std::uint64_t base = mix64(seed);
  std::vector<fault> faults(static_cast<std::size_t>(p.iterations));
  for (int i = 0; i < p.iterations; ++i) {
    const std::uint64_t h = hash_combine(base, static_cast<std::uint64_t>(i));
    const double theta = 2.0 * std::numbers::pi * unit_double(h);
    const double u = unit_double(mix64(h ^ 0x6a09e667f3bcc909ULL));
    fault& f = faults[static_cast<std::size_t>(i)];
    f.nx = std::cos(theta);
    f.ny = std::sin(theta);
    f.offset = radius * (2.0 * u - 1.0);
    const double t = p.iterations > 1 ? static_cast<double>(i) / (p.iterations - 1) : 0.0;
    f.step = p.initial_step + (p.final_step - p.initial_step) * t;
  }
  return faults;
}

void apply_fault_line(heightfield& h, const fault_line_params& p, const stage_context& ctx) {
  const std::vector<fault> faults = fault_line_faults(p, ctx.seed, ctx.world);
  const world_frame frame(ctx.world, h.placement());
  const double half_w = 0.5 * ctx.world.width, half_h = 0.5 * ctx.world.height;
  const bool smooth = p.profile == fault_line_params::profile_kind::sigmoid;
  const double inv_width = h.placement().cell_size / p.width;  // cells -> units of width
  const std::size_t n = faults.size();
  ctx.parallel_rows(h.height(), [&](int y0, int y1) {
    std::vector<double> row_term(n);
    for (int j = y0; j < y1; ++j) {
      const double y = frame.cells_y(j) - half_h;
      for (std::size_t k = 0; k < n; ++k) row_term[k] = y * faults[k].ny - faults[k].offset;
      float* out = h.row(j);
      for (int i = 0; i < h.width(); ++i) {
        // A cell sums every fault (up to 10^5): poll within the row.
        if (i % 256 == 0) ctx.check_stop();
        const double x = frame.cells_x(i) - half_w;
        double sum = 0.0;
        if (smooth) {
          for (std::size_t k = 0; k < n; ++k) {
            // Beyond 20 widths tanh is +-1 in double; skip the call there.
            const double z = (x * faults[k].nx + row_term[k]) * inv_width;
            if (z >= 20.0) {
              sum += faults[k].step;
            } else if (z > -20.0) {
              sum += faults[k].step * 0.5 * (1.0 + std::tanh(z));
            }
          }
        } else {
          for (std::size_t k = 0; k < n; ++k) {
            if (x * faults[k].nx + row_term[k] > 0.0) sum += faults[k].step;
          }
        }
        out[i] = static_cast<float>(sum);
      }
    }
  });
}

stage_info fault_line_stage_info() {
  stage_info info = make_stage_info<fault_line_params>(
      "fault_line", stage_category::generator, stage_scope::pointwise,
      "sum of random faults, each raising one side of a line (seed 003), free of corner bias",
      "The fault formation algorithm of seed document 003. Lines come from the uniform measure on lines meeting "
      "the circle enclosing the world (direction uniform, signed distance from the centre uniform in [-R, R]), "
      "so no part of the map is crossed more often than another; picking two random points on the map instead "
      "favours the corners. Fault i of N rises by initial_step + (final_step - initial_step) * i / (N - 1). "
      "About 0.90 * iterations faults cross a square map (2 sqrt 2 / pi); 200 to 1000 give the cloudy fractal "
      "look, fewer show individual cliffs. profile sigmoid uses step * (1 + tanh(d / width)) / 2. Heights lie "
      "in [0, sum of steps]; follow with normalize (min_max).",
      &apply_fault_line);
  set_cost<fault_line_params>(info, [](const fault_line_params& p, double cells) {
    // Each cell sums every fault; tanh costs about five comparisons.
    const double per_fault = p.profile == fault_line_params::profile_kind::sigmoid ? 5.0 : 1.0;
    return cells * p.iterations * per_fault;
  });
  return info;
}

}  // namespace landform
