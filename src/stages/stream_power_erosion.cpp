#include "landform/stages/stream_power_erosion.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "landform/core/error.hpp"
#include "landform/core/parallel.hpp"
#include "landform/derive/water.hpp"

namespace landform {

const param_schema<stream_power_erosion_params>& stream_power_erosion_params::schema() {
  using P = stream_power_erosion_params;
  static const auto s =
      param_schema<P>()
          .number("uplift", &P::uplift)
          .unit("mm/yr")
          .range(between(0, 100))
          .doc("rock uplift rate U of interior cells; steady-state relief grows with U / K")
          .effect("higher = higher, steeper mountains between the valleys")
          .layer("uplift_layer", &P::uplift_layer)
          .doc("layer multiplying the uplift cell by cell (e.g. noise written with target); empty = uniform")
          .effect("where the layer is high, ranges rise; where it is 0, plains stay low")
          .number("erodibility", &P::erodibility)
          .unit("1/yr m^(1-2m)")
          .range(above(0))
          .doc("K of the stream power law: higher cuts faster, lowers relief")
          .effect("higher = deeper, wider-spaced valleys and lower relief")
          .layer("erodibility_layer", &P::erodibility_layer)
          .doc("layer multiplying K cell by cell (rock strength); empty = uniform")
          .effect(
              "where the layer is high, rock is soft: broad lowlands; where low, hard rock stands as ridges and gorges")
          .number("m", &P::m)
          .range(between(0, 2))
          .doc("drainage-area exponent; concavity of river profiles is m / n")
          .effect("higher = more concave river profiles: flat lowland valleys under steep headwaters")
          .number("n", &P::n)
          .range(between(0.5, 4))
          .doc("slope exponent; 1 is solved directly (Braun and Willett 2013), others by Newton iterations")
          .effect("higher = straighter, less concave river profiles (concavity is m / n); steep reaches erode first")
          .number("diffusivity", &P::diffusivity)
          .unit("m^2/yr")
          .range(between(0, 100))
          .doc("hillslope diffusion D: rounds ridges and widens valleys; 0 keeps knife-edge ridges")
          .effect("higher = softer, rounded hills and fewer small gullies")
          .number("channel_width", &P::channel_width)
          .unit("m")
          .range(between(0, 1000))
          .doc(
              "width of the channels that carry concentrated flow; the incision area is measured per unit contour "
              "width (Pelletier 2010), so the same world erodes alike at any cell_size (at cell_size = channel_width "
              "it is the drainage area itself); 0 = the drainage area per cell")
          .effect("larger = lower hills; 0 = finer grids keep higher hills (about 20 % per halving of the cell size)")
          .number("hillslope_length", &P::hillslope_length)
          .unit("m")
          .range(between(1, 100000))
          .doc(
              "specific catchment area (drainage area per unit contour width) at which sheet flow on hillslopes "
              "gathers into channels; used with channel_width")
          .effect("larger = longer unchannelled hillslopes, fewer small valleys")
          .number("time_step", &P::time_step)
          .unit("years")
          .range(above(0))
          .doc("length of one step (implicit: stable for any step)")
          .effect("smaller = more accurate, slower")
          .number("duration", &P::duration)
          .unit("years")
          .range(above(0))
          .doc("simulated time; duration x uplift is the rock uplifted")
          .effect("longer = a more mature, fully dissected landscape")
          .choice("routing", &P::routing, {{"d8", routing_method::d8}, {"mfd", routing_method::mfd}})
          .doc(
              "drainage area: d8 steepest descent, or mfd multiple flow direction (Freeman 1991) on hillslopes and, "
              "with channel_width, d8 from the channel heads on (Pelletier 2010)")
          .effect("mfd spreads water on hillslopes: smoother slopes, fewer parallel rills")
          .number("deposition", &P::deposition)
          .range(between(0, 10))
          .doc("sediment deposition coefficient G (Yuan et al. 2019): ~1 fills valley floors, forms fans")
          .effect("higher = flatter, sediment-filled valley floors")
          .choice("base_level", &P::base_level,
                  {{"edges", erosion_base_level::edges}, {"sea", erosion_base_level::sea}})
          .doc(
              "what rivers erode down to: the map's border (edges), or also the sea below the preset's sea_level "
              "(sea; held fixed, needs sea_level)")
          .effect("sea = rivers end at the coast and the sea floor stays as it was")
          .choice("tiling", &P::tiling, {{"world", P::tiling_kind::world}, {"coarse", P::tiling_kind::coarse}})
          .doc(
              "world: the model runs on the whole world at full resolution, so a tile or region build computes "
              "the whole world; coarse: it runs on the world averaged onto cells of coarse_factor x coarse_factor "
              "and its change is interpolated (cubic B-spline) onto every cell, so a tile computes only itself plus "
              "a coarse pass, and tiles meet without seams (the whole-world build does the same)")
          .effect(
              "coarse = tiles of a large world build in memory of their own size, valleys drawn at the coarse "
              "resolution with the input's finer detail on top; about coarse_factor^2 x faster")
          .integer("coarse_factor", &P::coarse_factor)
          .unit("cells")
          .range(between(2, 1024))
          .doc(
              "world cells per coarse cell along each axis (tiling: coarse); the model's cell size is "
              "coarse_factor x cell_size")
          .effect("larger = faster and broader valleys; smaller = finer channels, slower")
          .path("coarse_result", &P::coarse_result)
          .may_be_empty()
          .doc(
              "tiling coarse: an r32 file of the coarse grid's change in height units, which landform tiles plan "
              "computes once and gives every tile; empty = run the model")
          .effect("the same terrain as running the model, without its cost: every tile takes its valleys from it")
          .integer("coarse_result_width", &P::coarse_result_width)
          .unit("coarse cells")
          .range(between(0, 1 << 20))
          .doc("coarse cells per row of coarse_result; 0 = square")
          .effect("none on the terrain: it tells the file's rows apart (a wrong width is refused)");
  return s;
}

void stream_power_erosion_params::check(std::vector<std::pair<std::string, std::string>>& problems) const {
  if (!coarse_result.empty() && tiling != tiling_kind::coarse) {
    problems.emplace_back("coarse_result", "is the result of tiling \"coarse\", but tiling is \"world\"");
  }
  // A width far below any cell divides hillslope incision by dx / w: 0.001 m
  // at 20 m cells stops it almost entirely (a 20x higher landscape), which is
  // never what a preset meant; 0 is the per-cell area.
  if (channel_width > 0.0 && channel_width < 1.0) {
    problems.emplace_back("channel_width",
                          format_number(channel_width) + " m must be 0 (the per-cell drainage area) or at least 1 m");
  }
  if (time_step > duration) {
    problems.emplace_back("time_step", format_number(time_step) + " years must not exceed duration (" +
                                           format_number(duration) + " years)");
  }
  // The step count is an integer loop bound: 1e12 / 1e-300 would overflow it.
  if (constexpr double k_max_steps = 1e7; duration / time_step > k_max_steps) {
    problems.emplace_back("time_step", "duration / time_step = " + format_number(duration / time_step) +
                                           " steps, more than 10^7; use a longer time_step");
  }
}

namespace {

constexpr int k_deposition_iterations = 5;
constexpr int k_newton_iterations = 60;
constexpr int k_column_block = 64;

void check_field(std::size_t n, int width, int height, const char* what) {
  if (width < 1 || height < 1 || n != static_cast<std::size_t>(width) * static_cast<std::size_t>(height)) {
    throw std::invalid_argument(std::string("stream_power_model: ") + what + " has " + std::to_string(n) +
                                " values for a " + std::to_string(width) + " x " + std::to_string(height) + " grid");
  }
}

// h - h* + f (h - h_r)^n = 0 for h in (h_r, h*], h* > h_r: Newton from h*
// kept inside the bracket, bisection when a step leaves it.
double solve_newton(double start, double base, double f, double n) {
  double lo = base, hi = start, x = start;
  for (int it = 0; it < k_newton_iterations; ++it) {
    const double d = x - base;
    const double p = std::pow(d, n);
    const double g = x - start + f * p;
    if (g > 0.0)
      hi = x;
    else
      lo = x;
    const double dg = 1.0 + n * f * p / d;
    double next = x - g / dg;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (std::abs(next - x) <= 1e-12 * (1.0 + std::abs(x))) return next;
    x = next;
  }
  return x;
}

}  // namespace

stream_power_model::stream_power_model(int width, int height, double cell_size, std::vector<double> heights,
                                       std::vector<double> uplift, std::vector<double> erodibility,
                                       const stream_power_erosion_params& p, int nthreads)
    : m_width(width),
      m_height(height),
      m_cell_size(cell_size),
      m_p(p),
      m_nthreads(nthreads),
      m_z(std::move(heights)),
      m_uplift(std::move(uplift)),
      m_k(std::move(erodibility)) {
  check_field(m_z.size(), width, height, "heights");
  check_field(m_uplift.size(), width, height, "uplift");
  check_field(m_k.size(), width, height, "erodibility");
  if (!(cell_size > 0.0)) throw std::invalid_argument("stream_power_model: cell_size must be > 0");
}

void stream_power_model::set_base_nodes(std::vector<std::uint8_t> base) {
  if (!base.empty()) check_field(base.size(), m_width, m_height, "base nodes");
  m_base = std::move(base);
}

void stream_power_model::fill_depressions() {
  route_depression_free_d8(m_z, m_width, m_height, m_cell_size, m_graph, m_nthreads, base_nodes());
}

void stream_power_model::check_stop() const {
  if (m_stop && m_stop()) throw cancelled_error();
}

void stream_power_model::step(double dt) {
  const int w = m_width, ht = m_height;
  const std::size_t n = m_z.size();
  // 1. depressions, 2. routing.
  check_stop();
  const std::uint8_t* base = base_nodes();
  route_depression_free_d8(m_z, w, ht, m_cell_size, m_graph, m_nthreads, base);
  check_stop();
  if (m_p.routing == routing_method::mfd)
    m_area = drainage_area_mfd(m_z, w, ht, m_cell_size, 1.1, base, channel_head_area(), m_nthreads);
  else
    drainage_area_d8(m_graph, m_cell_size, m_area, m_nthreads);
  check_stop();
  // 3. uplift and the per-node incision factors F = K dt A^m / L^n
  // (independent per node); the filled heights (previous_elevation()) and
  // the solve's start h* = h + U dt are kept in the same pass (serial copies
  // of the whole grid cost as much as the pass).
  m_factor.resize(n);
  m_previous.resize(n);
  m_start.resize(n);
  const double m_exp = m_p.m, n_exp = m_p.n;
  parallel_rows(ht, m_nthreads, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y) {
      for (int x = 0; x < w; ++x) {
        const std::size_t c = static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x);
        const bool interior = x > 0 && y > 0 && x < w - 1 && y < ht - 1 && !(base && base[c]);
        m_previous[c] = m_z[c];
        if (interior) m_z[c] += m_uplift[c] * dt;
        m_start[c] = m_z[c];
        const double l = m_graph.receiver_distance(c);
        m_factor[c] = (interior && l > 0.0) ? m_k[c] * dt * std::pow(incision_area(m_area[c]), m_exp) /
                                                  (n_exp == 1.0 ? l : std::pow(l, n_exp))
                                            : 0.0;
      }
    }
  });
  // 4. and 5. incision (with deposition), 6. diffusion.
  check_stop();
  solve_incision(dt);
  check_stop();
  if (m_p.diffusivity > 0.0) {
    if (base)
      diffuse_with_base(dt);
    else
      diffuse(dt);
  }
}

// Pelletier (2010), "Minimizing the grid-resolution dependence of
// flow-routing algorithms for geomorphic applications": the area that drives
// incision is measured per unit contour width, not per cell. Up to the channel
// head (specific catchment area A / dx <= hillslope_length) flow is a sheet, and
// the cell stands for a channel of width channel_width draining the same
// specific catchment: A w / dx. Beyond it the flow is channelled and only the
// hillslope part is rescaled: A + a_c (w - dx), continuous at the head. With
// dx = w this is A itself; without it a hillslope cell's D8 area is
// (distance to the divide) x dx, so finer grids erode hillslopes less.
double stream_power_model::incision_area(double area) const {
  const double w = m_p.channel_width;
  if (w <= 0.0) return area;
  return area <= channel_head_area() ? area * (w / m_cell_size) : area + m_p.hillslope_length * (w - m_cell_size);
}

// The drainage area (m^2) at which a hillslope becomes a channel:
// hillslope_length of specific catchment over a cell's contour width; 0
// without channel_width (no channel heads: per-cell area, plain MFD).
double stream_power_model::channel_head_area() const {
  return m_p.channel_width > 0.0 ? m_p.hillslope_length * m_cell_size : 0.0;
}

// Solves from m_start (h* = h + U dt) into m_z.
void stream_power_model::solve_incision(double dt) {
  const std::vector<double>& start = m_start;
  const std::vector<std::uint32_t>& stack = m_graph.stack;
  const std::vector<std::uint32_t>& rec = m_graph.receiver;
  const double n_exp = m_p.n;
  // Sediment term per node (m): dt * G / A * Qs, Qs from the previous iterate.
  std::vector<double> sediment;
  const int iterations = m_p.deposition > 0.0 ? k_deposition_iterations : 1;
  const double cell_area = m_cell_size * m_cell_size;
  // Each node reads only its receiver, which lies in the same stack part
  // (drainage tree): the parts run on any thread count with serial results.
  for (int it = 0; it < iterations; ++it) {
    for_each_stack_part(m_graph, m_nthreads, [&](std::size_t begin, std::size_t end) {
      std::size_t polled = 0;
      for (std::size_t i = begin; i < end; ++i) {
        poll_stop(polled);
        const std::uint32_t c = stack[i];
        const std::uint32_t r = rec[c];
        if (r == c) continue;
        const double zs = start[c] + (sediment.empty() ? 0.0 : sediment[c]);
        const double zr = m_z[r];
        const double f = m_factor[c];
        if (f <= 0.0 || zs <= zr) {
          m_z[c] = zs;
        } else if (n_exp == 1.0) {
          m_z[c] = (zs + f * zr) / (1.0 + f);
        } else {
          m_z[c] = solve_newton(zs, zr, f, n_exp);
        }
      }
    });
    if (it + 1 == iterations) break;
    // Qs (m^3/yr) leaving each node: its own net erosion plus what arrives
    // from upstream, accumulated in reverse stack order.
    std::vector<double> qs(m_z.size(), 0.0);
    for_each_stack_part(m_graph, m_nthreads, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = end; i-- > begin;) {
        const std::uint32_t c = stack[i];
        const std::uint32_t r = rec[c];
        if (r == c) continue;
        qs[c] += (start[c] - m_z[c]) / dt * cell_area;
        qs[c] = std::max(qs[c], 0.0);
        qs[r] += qs[c];
      }
    });
    sediment.assign(m_z.size(), 0.0);
    for (const std::uint32_t c : stack) {
      if (rec[c] != c) sediment[c] = dt * m_p.deposition * qs[c] / m_area[c];
    }
  }
}

void stream_power_model::diffuse(double dt) {
  const int w = m_width, ht = m_height;
  if (w < 3 || ht < 3) return;
  const double a = m_p.diffusivity * dt / (m_cell_size * m_cell_size);
  const double b = 1.0 + 2.0 * a;
  // Thomas algorithm for -a u[i-1] + b u[i] - a u[i+1] = d[i], i = 1..L-2,
  // u[0] and u[L-1] fixed: the coefficients depend only on the position.
  const auto coefficients = [a, b](int length, std::vector<double>& cp, std::vector<double>& inv) {
    cp.assign(static_cast<std::size_t>(length), 0.0);
    inv.assign(static_cast<std::size_t>(length), 0.0);
    for (int i = 1; i < length - 1; ++i) {
      const double denom = b + a * cp[static_cast<std::size_t>(i - 1)];
      inv[static_cast<std::size_t>(i)] = 1.0 / denom;
      cp[static_cast<std::size_t>(i)] = -a / denom;
    }
  };
  std::vector<double> cpx, invx, cpy, invy;
  coefficients(w, cpx, invx);
  coefficients(ht, cpy, invy);
  // Rows (interior rows only: the border rows are fixed).
  parallel_rows(ht - 2, m_nthreads, [&](int r0, int r1) {
    std::vector<double> dp(static_cast<std::size_t>(w));
    for (int y = r0 + 1; y < r1 + 1; ++y) {
      double* u = m_z.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(w);
      dp[0] = u[0];
      for (int i = 1; i < w - 1; ++i) {
        const auto k = static_cast<std::size_t>(i);
        dp[k] = (u[i] + a * dp[k - 1]) * invx[k];
      }
      for (int i = w - 2; i >= 1; --i) {
        const auto k = static_cast<std::size_t>(i);
        u[i] = dp[k] - cpx[k] * u[i + 1];
      }
    }
  });
  // Columns, in blocks of adjacent interior columns swept row by row.
  m_scratch.resize(m_z.size());
  const int blocks = (w - 2 + k_column_block - 1) / k_column_block;
  parallel_rows(blocks, m_nthreads, [&](int b0, int b1) {
    const auto wz = static_cast<std::size_t>(w);
    for (int blk = b0; blk < b1; ++blk) {
      const int x0 = 1 + blk * k_column_block, x1 = std::min(w - 1, x0 + k_column_block);
      for (int x = x0; x < x1; ++x) m_scratch[static_cast<std::size_t>(x)] = m_z[static_cast<std::size_t>(x)];
      for (int y = 1; y < ht - 1; ++y) {
        const double inv = invy[static_cast<std::size_t>(y)];
        const double* u = m_z.data() + static_cast<std::size_t>(y) * wz;
        double* dp = m_scratch.data() + static_cast<std::size_t>(y) * wz;
        const double* dprev = dp - wz;
        for (int x = x0; x < x1; ++x) dp[x] = (u[x] + a * dprev[x]) * inv;
      }
      for (int y = ht - 2; y >= 1; --y) {
        const double c = cpy[static_cast<std::size_t>(y)];
        double* u = m_z.data() + static_cast<std::size_t>(y) * wz;
        const double* below = u + wz;
        const double* dp = m_scratch.data() + static_cast<std::size_t>(y) * wz;
        for (int x = x0; x < x1; ++x) u[x] = dp[x] - c * below[x];
      }
    }
  });
}

// diffuse() with the base nodes fixed as well as the border: each row and
// column is a tridiagonal system whose fixed nodes have the equation u = u
// (c' = 0, d' = u), so the coefficients vary per node. The expressions are
// diffuse()'s, so without base nodes the bits are the same.
void stream_power_model::diffuse_with_base(double dt) {
  const int w = m_width, ht = m_height;
  if (w < 3 || ht < 3) return;
  const double a = m_p.diffusivity * dt / (m_cell_size * m_cell_size);
  const double b = 1.0 + 2.0 * a;
  const std::uint8_t* base = m_base.data();
  const auto wz = static_cast<std::size_t>(w);
  parallel_rows(ht - 2, m_nthreads, [&](int r0, int r1) {
    std::vector<double> dp(wz), cp(wz);
    for (int y = r0 + 1; y < r1 + 1; ++y) {
      double* u = m_z.data() + static_cast<std::size_t>(y) * wz;
      const std::uint8_t* fixed = base + static_cast<std::size_t>(y) * wz;
      dp[0] = u[0];
      cp[0] = 0.0;
      for (int i = 1; i < w - 1; ++i) {
        const auto k = static_cast<std::size_t>(i);
        if (fixed[k]) {
          dp[k] = u[i];
          cp[k] = 0.0;
          continue;
        }
        const double denom = b + a * cp[k - 1];
        const double inv = 1.0 / denom;
        cp[k] = -a / denom;
        dp[k] = (u[i] + a * dp[k - 1]) * inv;
      }
      for (int i = w - 2; i >= 1; --i) {
        const auto k = static_cast<std::size_t>(i);
        if (!fixed[k]) u[i] = dp[k] - cp[k] * u[i + 1];
      }
    }
  });
  m_scratch.resize(m_z.size());
  m_scratch_cp.resize(m_z.size());
  const int blocks = (w - 2 + k_column_block - 1) / k_column_block;
  parallel_rows(blocks, m_nthreads, [&](int b0, int b1) {
    for (int blk = b0; blk < b1; ++blk) {
      const int x0 = 1 + blk * k_column_block, x1 = std::min(w - 1, x0 + k_column_block);
      for (int x = x0; x < x1; ++x) {
        m_scratch[static_cast<std::size_t>(x)] = m_z[static_cast<std::size_t>(x)];
        m_scratch_cp[static_cast<std::size_t>(x)] = 0.0;
      }
      for (int y = 1; y < ht - 1; ++y) {
        const std::size_t row = static_cast<std::size_t>(y) * wz;
        for (int x = x0; x < x1; ++x) {
          const std::size_t c = row + static_cast<std::size_t>(x);
          if (base[c]) {
            m_scratch[c] = m_z[c];
            m_scratch_cp[c] = 0.0;
            continue;
          }
          const double denom = b + a * m_scratch_cp[c - wz];
          const double inv = 1.0 / denom;
          m_scratch_cp[c] = -a / denom;
          m_scratch[c] = (m_z[c] + a * m_scratch[c - wz]) * inv;
        }
      }
      for (int y = ht - 2; y >= 1; --y) {
        const std::size_t row = static_cast<std::size_t>(y) * wz;
        for (int x = x0; x < x1; ++x) {
          const std::size_t c = row + static_cast<std::size_t>(x);
          if (!base[c]) m_z[c] = m_scratch[c] - m_scratch_cp[c] * m_z[c + wz];
        }
      }
    }
  });
}

namespace {

// The side layers the caller asked for, as a layer_set.
layer_set side_layers(stream_power_maps& maps, const stage_context& ctx) {
  layer_set out;
  const std::pair<const char*, std::vector<float>*> named[] = {
      {"drainage_area", &maps.drainage_area}, {"erosion_rate", &maps.erosion_rate}, {"uplift", &maps.uplift}};
  for (const auto& [name, values] : named) {
    if (ctx.wants(name)) out.acquire(name, values->size()).swap(*values);
  }
  return out;
}

// Land ends at or above sea level in metres; the smallest float at or above
// sea_level keeps it there in height units after rounding, so the sea of the
// result is the sea of the input.
float coast_height(double sea_level) {
  auto coast = static_cast<float>(sea_level);
  if (static_cast<double>(coast) < sea_level) coast = std::nextafter(coast, std::numeric_limits<float>::infinity());
  return coast;
}

}  // namespace

void apply_stream_power_erosion(heightfield& h, const stream_power_erosion_params& p, const stage_context& ctx,
                                stream_power_maps* maps) {
  const int w = h.width(), ht = h.height();
  const std::size_t n = h.size();
  if (n == 0) return;
  const auto layer = [&](const std::string& name, const char* param) -> const std::vector<float>* {
    if (name.empty()) return nullptr;
    const std::vector<float>* values = ctx.read_layer(name);
    if (!values || values->size() != n) {
      throw std::invalid_argument(std::string("stream_power_erosion.") + param + ": \"" + name +
                                  "\" is not a layer written by an earlier stage");
    }
    return values;
  };
  const std::vector<float>* uplift_factor = layer(p.uplift_layer, "uplift_layer");
  const std::vector<float>* k_factor = layer(p.erodibility_layer, "erodibility_layer");
  const double scale = ctx.height_scale;
  // Base level "sea": the sea of the input, held fixed at sea level.
  std::vector<std::uint8_t> sea;
  double sea_level = 0.0;
  if (p.base_level == erosion_base_level::sea) {
    if (!ctx.sea_level) {
      throw std::invalid_argument(
          "stream_power_erosion.base_level: \"sea\" needs the preset's top-level sea_level, which is not given");
    }
    sea_level = *ctx.sea_level;
    sea = find_ocean(h, sea_level);
  }
  std::vector<double> z(n), uplift(n), k(n);
  for (std::size_t c = 0; c < n; ++c) {
    z[c] = (sea.empty() || !sea[c]) ? static_cast<double>(h.data()[c]) * scale : sea_level * scale;
    uplift[c] = p.uplift * 1e-3 * (uplift_factor ? static_cast<double>((*uplift_factor)[c]) : 1.0);
    k[c] = p.erodibility * (k_factor ? static_cast<double>((*k_factor)[c]) : 1.0);
  }
  stream_power_model model(w, ht, h.placement().cell_size, std::move(z), std::move(uplift), std::move(k), p,
                           ctx.nthreads);
  model.set_stop(ctx.stop_requested);
  const bool any_sea = std::find(sea.begin(), sea.end(), std::uint8_t{1}) != sea.end();
  if (any_sea) model.set_base_nodes(sea);
  const auto steps = static_cast<long long>(std::max(1.0, std::ceil(p.duration / p.time_step - 1e-9)));
  const double dt = p.duration / static_cast<double>(steps);
  for (long long s = 0; s < steps; ++s) {
    model.step(dt);
    ctx.progress(static_cast<double>(s + 1) / static_cast<double>(steps));
  }
  if (maps) {
    maps->drainage_area.assign(model.drainage_area().begin(), model.drainage_area().end());
    maps->erosion_rate.assign(n, 0.0f);
    maps->uplift.assign(n, 0.0f);
    for (int y = 1; y < ht - 1; ++y) {
      for (int x = 1; x < w - 1; ++x) {
        const std::size_t c = static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x);
        if (any_sea && sea[c]) continue;
        const double u = model.uplift()[c];
        maps->uplift[c] = static_cast<float>(u * 1e3);
        maps->erosion_rate[c] =
            static_cast<float>((u - (model.elevation()[c] - model.previous_elevation()[c]) / dt) * 1e3);
      }
    }
  }
  model.fill_depressions();
  const double inv_scale = 1.0 / scale;
  if (!any_sea) {
    for (std::size_t c = 0; c < n; ++c) h.data()[c] = static_cast<float>(model.elevation()[c] * inv_scale);
    return;
  }
  // Land ends at or above sea level; sea cells keep their input heights.
  const float coast = coast_height(sea_level);
  for (std::size_t c = 0; c < n; ++c) {
    if (!sea[c]) h.data()[c] = std::max(static_cast<float>(model.elevation()[c] * inv_scale), coast);
  }
}

namespace {

// The world's input on the coarse grid, for a whole-world build: what the
// pipeline's coarse pass gives a region build, with the same bits.
coarse_input average_world(const heightfield& h, const coarse_grid& g, const stage_context& ctx) {
  const region& r = h.placement();
  if (r.origin_x != g.world.origin_x || r.origin_y != g.world.origin_y || r.width != g.world.width ||
      r.height != g.world.height) {
    throw std::logic_error("stream_power_erosion (tiling coarse): a region needs the coarse pass (ctx.coarse)");
  }
  coarse_input in{g, heightfield(g.coarse_region(r.cell_size)), {}, {}};
  box_mean_rows(g, r, h.values(), 0, g.height(), in.heights.values(), ctx.nthreads);
  for (const auto& [name, values] : ctx.read_layers) {
    if (!values) continue;
    std::vector<float>& out = in.layers.acquire(name, in.heights.size());
    box_mean_rows(g, r, *values, 0, g.height(), out, ctx.nthreads);
  }
  return in;
}

}  // namespace

namespace {

// The model's border is its fixed base level: a coarse grid without cells
// inside it would change nothing. A preset problem: (key, message), or an
// empty key when the grid is fine.
std::pair<std::string, std::string> interior_problem(const coarse_grid& g) {
  if (g.width() >= 3 && g.height() >= 3) return {};
  return {"coarse_factor",
          std::to_string(g.factor) + " leaves a " + std::to_string(g.width()) + "x" + std::to_string(g.height()) +
              " coarse grid, which has no cell inside its fixed border; at most " +
              std::to_string(std::max(1, std::min(g.world.width, g.world.height) / 3)) + " for this world"};
}

// A coarse_result that does not fit the world's coarse grid, or holds values
// that are not finite: (key, message), or an empty key.
std::pair<std::string, std::string> result_problem(const coarse_grid& g, const heightmap_samples& result) {
  if (!std::all_of(result.values.begin(), result.values.end(), [](float v) { return std::isfinite(v); })) {
    return {"coarse_result", "holds values that are not finite (NaN or infinity)"};
  }
  if (result.width != g.width() || result.height != g.height()) {
    return {"coarse_result", std::to_string(result.width) + "x" + std::to_string(result.height) +
                                 " values, but this world's coarse grid is " + std::to_string(g.width()) + "x" +
                                 std::to_string(g.height()) + " (coarse_factor " + std::to_string(g.factor) + ")"};
  }
  return {};
}

// Throws a problem as the domain_error the pipeline names the stage with.
void require_none(const std::pair<std::string, std::string>& problem) {
  if (!problem.first.empty()) throw std::domain_error(problem.first + ": " + problem.second);
}

}  // namespace

std::vector<float> stream_power_coarse_change(const coarse_input& in, const stream_power_erosion_params& p,
                                              const stage_context& ctx, stream_power_maps* maps) {
  require_none(interior_problem(in.grid));
  // The model on the coarse grid, reading the coarse layers.
  stage_context sub = ctx;
  sub.coarse = nullptr;
  for (auto& [name, values] : sub.read_layers) values = in.layers.find(name);
  heightfield coarse = in.heights;
  apply_stream_power_erosion(coarse, p, sub, maps);
  std::vector<float> change(coarse.size());
  for (std::size_t c = 0; c < change.size(); ++c) change[c] = coarse.values()[c] - in.heights.values()[c];
  return change;
}

layer_set apply_stream_power_erosion_coarse(heightfield& h, const stream_power_erosion_params& p,
                                            const stage_context& ctx, const heightmap_samples* result) {
  const coarse_grid g{ctx.world, p.coarse_factor};
  const bool side = !ctx.wanted.empty();
  std::vector<float> change;
  stream_power_maps maps;
  require_none(interior_problem(g));
  if (result) {
    require_none(result_problem(g, *result));
    if (side) {
      throw std::invalid_argument(
          "stream_power_erosion.coarse_result: the side layers need the model's run; leave coarse_result empty");
    }
    change = result->values;
  } else {
    coarse_input own;
    const coarse_input* in = ctx.coarse;
    if (!in) {
      own = average_world(h, g, ctx);
      in = &own;
    }
    if (in->grid.factor != g.factor || !(in->grid.world == g.world)) {
      throw std::logic_error("stream_power_erosion (tiling coarse): the coarse pass used another grid");
    }
    change =
        (!side && !in->change.empty()) ? in->change : stream_power_coarse_change(*in, p, ctx, side ? &maps : nullptr);
  }
  // The change interpolated onto every cell, then added to its input.
  const region& r = h.placement();
  std::vector<float> fine(h.size(), 0.0f);
  add_interpolated(g, change, r, fine, ctx.nthreads);
  const bool sea = p.base_level == erosion_base_level::sea && ctx.sea_level;
  const double sea_level = sea ? *ctx.sea_level : 0.0;
  const float coast = coast_height(sea_level);
  float* z = h.data();
  for (std::size_t c = 0; c < h.size(); ++c) {
    // No change keeps the input's bits (a -0 stays -0).
    const float eroded = fine[c] == 0.0f ? z[c] : z[c] + fine[c];
    if (!sea)
      z[c] = eroded;
    else if (!(static_cast<double>(z[c]) < sea_level))
      z[c] = std::max(eroded, coast);
  }
  layer_set out;
  if (!side) return out;
  // The wanted side layers, each interpolated from the coarse grid.
  layer_set coarse_maps = side_layers(maps, ctx);
  for (const std::string& name : coarse_maps.names()) {
    std::vector<float>& layer = out.acquire(name, h.size());
    std::fill(layer.begin(), layer.end(), 0.0f);
    add_interpolated(g, *coarse_maps.find(name), r, layer, ctx.nthreads);
  }
  return out;
}

stage_info stream_power_erosion_stage_info() {
  stage_info info = make_stage_info<stream_power_erosion_params>(
      "stream_power_erosion", stage_category::filter, stage_scope::world,
      "landscape evolution: uplift, stream-power river incision and hillslope diffusion (Braun and Willett 2013)",
      "dh/dt = U - K A^m S^n + D laplacian(h) in metres and years (heights through height_scale, distances "
      "through cell_size). Every step fills closed depressions by Priority-Flood+epsilon (Barnes et al. 2014), "
      "routes water along D8 steepest-descent receivers (drainage area by D8 or by Freeman's 1991 multiple flow "
      "direction), solves the incision implicitly in the stack order of Braun and Willett (2013) (n = 1 "
      "directly, otherwise by Newton iterations), optionally deposits sediment after Yuan et al. (2019, G), and "
      "diffuses hillslopes implicitly (row and column tridiagonal solves). The map's border is the base level "
      "and stays fixed; with base_level \"sea\" so is the sea (cells below the preset's sea_level connected to "
      "the border, as for the water outputs): it stands at sea level for the rivers and hillslopes, is neither "
      "uplifted, eroded nor diffused and keeps its heights, and rivers end at the coast. The result drains "
      "everywhere to the border (or the sea). Writes the layers drainage_area (m^2), "
      "erosion_rate (mm/yr) and uplift (mm/yr) of the last step. Bit-identical for every thread count. Needs "
      "the whole world: a region build computes the world and crops it; with tiling \"coarse\" the model runs on "
      "the world averaged onto coarse_factor x coarse_factor cells and its change is interpolated (cubic B-spline) "
      "onto every cell, so a region computes itself plus a coarse pass over the world and equals the window of "
      "the whole build bit for bit.",
      +[](heightfield&, const stream_power_erosion_params&, const stage_context&) -> layer_set {
        throw std::logic_error("stream_power_erosion: created without its files");
      });
  info.writes = {"drainage_area", "erosion_rate", "uplift"};
  using P = stream_power_erosion_params;
  // coarse_result is read and decoded when the preset is built.
  stage_file result{"coarse_result", [](const json& params) {
                      heightmap_request r;
                      r.encoding = heightmap_encoding::r32;
                      r.raw_width = P::schema().parse(params).coarse_result_width;
                      return r;
                    }};
  result.optional = true;
  result.by_content = true;
  result.width_param = "coarse_result_width";
  info.files = {result};
  info.create = [](const json& params, const stage_inputs& inputs) -> stage_fn {
    const P p = P::schema().parse(params);
    std::shared_ptr<const heightmap_samples> coarse = p.coarse_result.empty() ? nullptr : inputs.file("coarse_result");
    return [p, coarse](heightfield& h, const stage_context& ctx) -> layer_set {
      if (p.tiling == P::tiling_kind::coarse) return apply_stream_power_erosion_coarse(h, p, ctx, coarse.get());
      if (ctx.wanted.empty()) {
        apply_stream_power_erosion(h, p, ctx);
        return {};
      }
      stream_power_maps maps;
      apply_stream_power_erosion(h, p, ctx, &maps);
      return side_layers(maps, ctx);
    };
  };
  info.coarse_change = [](const json& params, const coarse_input& in, const stage_context& ctx) {
    return stream_power_coarse_change(in, P::schema().parse(params), ctx);
  };
  set_cost<stream_power_erosion_params>(info, [](const stream_power_erosion_params& p, double cells) {
    // Each step fills, routes, solves and diffuses; n != 1 adds Newton iterations.
    const double steps = std::max(1.0, std::ceil(p.duration / p.time_step - 1e-9));
    const double per_cell = p.n == 1.0 ? 150.0 : 400.0;
    // Tiling coarse: the model on cells / factor^2 (of the world: a region
    // build's coarse pass is not counted), then an interpolation per cell.
    if (p.tiling == stream_power_erosion_params::tiling_kind::coarse) {
      return cells * (steps * per_cell / (static_cast<double>(p.coarse_factor) * p.coarse_factor) + 40.0);
    }
    return cells * steps * per_cell;
  });
  info.tile_mode = {"tiling", "coarse"};
  info.halo_rule =
      "whole world (every cell drains to the map edge or the sea); tiling coarse: 0, after a coarse pass over the "
      "world";
  info.sea_level_param = sea_level_when("base_level", "sea");
  // The coarse grid is the world's: checked when the preset is built, so
  // validate and tiles plan report a grid or a coarse_result that cannot fit.
  info.check_world = [](const json& params, const world_extent& world, double, const stage_inputs& inputs) {
    std::vector<std::pair<std::string, std::string>> problems;
    const P p = P::schema().parse(params);
    if (p.tiling != P::tiling_kind::coarse) return problems;
    const coarse_grid g{world, p.coarse_factor};
    for (const auto& problem :
         {interior_problem(g), p.coarse_result.empty() ? std::pair<std::string, std::string>{}
                                                       : result_problem(g, *inputs.file("coarse_result"))}) {
      if (!problem.first.empty()) problems.push_back(problem);
    }
    return problems;
  };
  info.advise = [](const json& params, double, double) {
    std::vector<std::pair<std::string, std::string>> advice;
    const P p = P::schema().parse(params);
    // coarse_factor only sizes the coarse grid: with tiling world it is read
    // by nothing, and a preset author who set it most likely meant coarse.
    if (p.tiling == P::tiling_kind::world && p.coarse_factor != P{}.coarse_factor) {
      advice.emplace_back("coarse_factor", std::to_string(p.coarse_factor) +
                                               " is used by tiling \"coarse\" only; with tiling \"world\" the model "
                                               "runs at full resolution and ignores it");
    }
    // Likewise hillslope_length only places the channel heads of the
    // per-contour-width area; with channel_width 0 nothing reads it.
    if (p.channel_width == 0.0 && p.hillslope_length != P{}.hillslope_length) {
      advice.emplace_back("hillslope_length", format_number(p.hillslope_length) +
                                                  " m is used with channel_width only; with channel_width 0 the "
                                                  "per-cell drainage area drives incision and ignores it");
    }
    return advice;
  };
  return info;
}

}  // namespace landform
