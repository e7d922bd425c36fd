#include "landform/stages/fault_line.hpp"

#include <algorithm>
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

namespace {

// The first column i in [0, w] where `pred(i)` holds, for a predicate that is
// false then true along the row (monotone), starting the search at `guess`.
template <class Pred>
int first_true(Pred pred, double guess, int w) {
  int i = std::isfinite(guess) ? static_cast<int>(std::clamp(std::ceil(guess), 0.0, static_cast<double>(w))) : 0;
  while (i > 0 && pred(i - 1)) --i;
  while (i < w && !pred(i)) ++i;
  return i;
}

// One row's sums, O(faults + band cells) instead of O(faults x columns): a
// fault's term along a row is a function of x * nx + row_term, monotone in
// the column (floating-point rounding is monotone too), so each fault splits
// the row into at most three runs: nothing, the sigmoid band (tanh per cell)
// and the full step. Full steps go into `rise` at the run's first column
// (nx > 0; summed left to right) or `fall` at its last (nx < 0; summed right
// to left), so only positive terms are added and a cell no fault raises stays
// exactly 0. The terms are the per-cell loop's; only the order of the
// additions differs (float32 results equal up to rounding).
struct fault_row {
  std::vector<double> rise, fall, band;

  void run(const std::vector<fault>& faults, const std::vector<double>& row_term, const std::vector<double>& xs,
           bool smooth, double inv_width, float* out) {
    const int w = static_cast<int>(xs.size());
    rise.assign(xs.size() + 1, 0.0);
    fall.assign(xs.size() + 1, 0.0);
    band.assign(xs.size(), 0.0);
    for (std::size_t k = 0; k < faults.size(); ++k) {
      const fault& f = faults[k];
      const double r = row_term[k];
      const auto value = [&](int i) { return xs[static_cast<std::size_t>(i)] * f.nx + r; };
      // Columns where the term starts (smooth: the band; step: the rise) and
      // where it is the full step; for nx < 0 both counted from the right.
      const double lo = smooth ? -20.0 : 0.0, hi = smooth ? 20.0 : 0.0;
      if (f.nx == 0.0) {
        const double z = r * inv_width;
        const double term = !smooth     ? (r > 0.0 ? f.step : 0.0)
                            : z >= 20.0 ? f.step
                            : z > -20.0 ? f.step * 0.5 * (1.0 + std::tanh(z))
                                        : 0.0;
        rise[0] += term;
        continue;
      }
      const auto column = [&](double t) { return (t / (smooth ? inv_width : 1.0) - r) / f.nx - xs[0]; };
      const auto full = [&](int i) { return smooth ? value(i) * inv_width >= hi : value(i) > 0.0; };
      const auto some = [&](int i) { return value(i) * inv_width > lo; };
      int band_begin = 0, band_end = 0;
      if (f.nx > 0.0) {
        const int full_begin = first_true(full, column(hi), w);
        rise[static_cast<std::size_t>(full_begin)] += f.step;
        if (smooth) band_begin = first_true(some, column(lo), full_begin), band_end = full_begin;
      } else {
        const int full_end = first_true([&](int i) { return !full(i); }, column(hi), w);
        if (full_end > 0) fall[static_cast<std::size_t>(full_end - 1)] += f.step;
        if (smooth) band_begin = full_end, band_end = first_true([&](int i) { return !some(i); }, column(lo), w);
      }
      for (int i = band_begin; i < band_end; ++i) {
        band[static_cast<std::size_t>(i)] += f.step * 0.5 * (1.0 + std::tanh(value(i) * inv_width));
      }
    }
    for (int i = w - 2; i >= 0; --i) fall[static_cast<std::size_t>(i)] += fall[static_cast<std::size_t>(i) + 1];
    double up = 0.0;
    for (int i = 0; i < w; ++i) {
      const auto c = static_cast<std::size_t>(i);
      up += rise[c];
      out[i] = static_cast<float>(up + fall[c] + band[c]);
    }
  }
};

}  // namespace

void apply_fault_line(heightfield& h, const fault_line_params& p, const stage_context& ctx) {
  const std::vector<fault> faults = fault_line_faults(p, ctx.seed, ctx.world);
  const world_frame frame(ctx.world, h.placement());
  const double half_w = 0.5 * ctx.world.width, half_h = 0.5 * ctx.world.height;
  const bool smooth = p.profile == fault_line_params::profile_kind::sigmoid;
  const double inv_width = h.placement().cell_size / p.width;  // cells -> units of width
  const std::size_t n = faults.size();
  std::vector<double> xs(static_cast<std::size_t>(h.width()));
  for (int i = 0; i < h.width(); ++i) xs[static_cast<std::size_t>(i)] = frame.cells_x(i) - half_w;
  ctx.parallel_rows(h.height(), [&](int y0, int y1) {
    std::vector<double> row_term(n);
    fault_row row;
    for (int j = y0; j < y1; ++j) {
      ctx.check_stop();
      const double y = frame.cells_y(j) - half_h;
      for (std::size_t k = 0; k < n; ++k) row_term[k] = y * faults[k].ny - faults[k].offset;
      row.run(faults, row_term, xs, smooth, inv_width, h.row(j));
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
    // Each row visits every fault; a sigmoid evaluates tanh across its band.
    const double per_fault = p.profile == fault_line_params::profile_kind::sigmoid ? 40.0 : 10.0;
    return std::sqrt(cells) * p.iterations * per_fault + cells * 4.0;
  });
  return info;
}

}  // namespace landform
