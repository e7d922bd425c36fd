// `river_carve`: channels cut along the rivers of derive/water (issue 10).

#include "landform/stages/river_carve.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace landform {

const param_schema<river_carve_params>& river_carve_params::schema() {
  using P = river_carve_params;
  static const auto s =
      water_parameters(param_schema<P>())
          .number("depth_scale", &P::depth_scale)
          .range(between(0, 100))
          .doc("the channel's depth below the filled surface, times the river's depth d = depth_c Q^depth_f")
          .effect("higher = deeper, more visible channels; 0 carves nothing but what drainage needs")
          .number("width_scale", &P::width_scale)
          .range(between(0, 100))
          .doc("the channel's width, times the river's width w = width_a Q^width_b")
          .effect("higher = wider channels and valley floors")
          .number("min_width", &P::min_width)
          .unit("cells")
          .range(between(1, 64))
          .doc("channels narrower than this are carved this wide (a channel needs cells to show)")
          .effect("higher = small streams read as grooves instead of single-cell lines")
          .number("bank_m", &P::bank_m)
          .unit("m")
          .range(between(0, 1e5))
          .doc("width of each bank, over which the channel's edge blends into the terrain (smoothstep)")
          .effect("higher = softer, wider banks; 0 = vertical channel walls")
          .choice("profile", &P::profile,
                  {{"parabolic", river_carve_profile::parabolic}, {"flat", river_carve_profile::flat}})
          .doc("cross section across the width: parabolic (deepest on the centreline) or flat (a flat bed)")
          .effect("parabolic = rounded natural beds; flat = box channels with graded banks")
          .integer("smoothing", &P::smoothing)
          .range(between(0, 16))
          .doc("passes of a [1 2 1] / 4 filter over each river's centreline (ends fixed)")
          .effect("higher = rounder curves instead of the D8 path's 45-degree zigzag");
  return s;
}

namespace {

constexpr double k_grade_m = 1e-3;  // m per cell: the floor's fall towards a river's mouth

double smoothstep(double t) {
  t = std::clamp(t, 0.0, 1.0);
  return t * t * (3.0 - 2.0 * t);
}

// One piece of a centreline, in cell units, with the bed (height units),
// depth below the water surface (height units) and half-width (cells) at
// each end.
struct carve_piece {
  std::array<double, 2> a, b;
  double bed_a, bed_b, depth_a, depth_b, half_width;
};

// Lowers `carve` (the minimum over pieces of the carved height) over the
// cells a piece reaches. `input` is the terrain.
void stamp_piece(std::vector<double>& carve, const float* input, int width, int height, const carve_piece& piece,
                 double bank_cells, river_carve_profile profile) {
  const double reach = piece.half_width + bank_cells + 1.0;
  const int x0 = std::max(0, static_cast<int>(std::floor(std::min(piece.a[0], piece.b[0]) - reach)));
  const int x1 = std::min(width - 1, static_cast<int>(std::ceil(std::max(piece.a[0], piece.b[0]) + reach)));
  const int y0 = std::max(0, static_cast<int>(std::floor(std::min(piece.a[1], piece.b[1]) - reach)));
  const int y1 = std::min(height - 1, static_cast<int>(std::ceil(std::max(piece.a[1], piece.b[1]) + reach)));
  const double dx = piece.b[0] - piece.a[0], dy = piece.b[1] - piece.a[1];
  const double len2 = dx * dx + dy * dy;
  const double hw = piece.half_width;
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      const double along = len2 > 0.0 ? ((x - piece.a[0]) * dx + (y - piece.a[1]) * dy) / len2 : 0.0;
      const double t = std::clamp(along, 0.0, 1.0);
      const double ex = x - (piece.a[0] + t * dx), ey = y - (piece.a[1] + t * dy);
      const double r = std::sqrt(ex * ex + ey * ey);
      if (r >= hw + bank_cells) continue;
      // Upstream of the piece the bed is extrapolated up its slope, so the
      // round cap at its start never cuts below the bed of the piece before.
      const double bed = piece.bed_a + std::min(along, 1.0) * (piece.bed_b - piece.bed_a);
      const double depth = piece.depth_a + t * (piece.depth_b - piece.depth_a);
      const std::size_t c = static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x);
      const double terrain = static_cast<double>(input[c]);
      double z = 0.0;
      if (profile == river_carve_profile::parabolic) {
        const double u = std::min(r, hw) / hw;
        z = bed + depth * u * u;
      } else {
        z = bed;
      }
      if (r > hw) z += (terrain - z) * smoothstep((r - hw) / bank_cells);
      carve[c] = std::min(carve[c], z);
    }
  }
}

// [1 2 1] / 4 passes over the interior vertices of a line.
void smooth_line(std::vector<std::array<double, 2>>& points, int passes) {
  if (points.size() < 3) return;
  std::vector<std::array<double, 2>> next = points;
  for (int pass = 0; pass < passes; ++pass) {
    for (std::size_t k = 1; k + 1 < points.size(); ++k) {
      for (std::size_t i = 0; i < 2; ++i) {
        next[k][i] = 0.25 * points[k - 1][i] + 0.5 * points[k][i] + 0.25 * points[k + 1][i];
      }
    }
    points.swap(next);
    next = points;
  }
}

}  // namespace

namespace {

// What the steps after the water share.
struct carve_state {
  const river_carve_params& p;
  const water_maps& water;
  const water_routing& routing;
  double scale, sea_level, cell_size;
  std::vector<double> floor, bed;  // height units, per river cell
  std::vector<double> mouth;       // height units, per river cell: the level of the water it ends in

  // True when the receiver of c is a river cell (c is not its own receiver).
  [[nodiscard]] bool river_to(std::uint32_t c) const {
    const std::uint32_t r = routing.graph.receiver[c];
    return r != c && water.is_river[r] != 0;
  }
  void find_floors();
  void find_beds();
  void carve_channels(std::vector<double>& carve, const float* input, int width, int height) const;
  std::size_t drain(std::vector<float>& out) const;
};

// The floor, receivers first: the level the river ends in (its mouth),
// plus the grade per cell upstream of its mouth.
void carve_state::find_floors() {
  const std::size_t n = water.is_river.size();
  const double grade = k_grade_m / scale;
  floor.assign(n, -std::numeric_limits<double>::infinity());
  mouth.assign(n, -std::numeric_limits<double>::infinity());
  const std::vector<std::uint32_t>& receiver = routing.graph.receiver;
  for (const std::uint32_t c : routing.graph.stack) {
    const std::uint32_t r = receiver[c];
    if (!water.is_river[c] || r == c) continue;  // r == c: the map edge
    if (water.is_river[r]) {
      mouth[c] = mouth[r];
      floor[c] = floor[r] + grade;
      continue;
    }
    if (water.ocean[r]) {
      mouth[c] = sea_level;
    } else if (water.lake[r] >= 0) {
      mouth[c] = water.lakes[static_cast<std::size_t>(water.lake[r])].level;
    } else {
      mouth[c] = routing.filled[r];
    }
    floor[c] = mouth[c] + grade;
  }
}

// 2. Beds: the floors, then the running minimum of the targets, upstream
// first, then the floor.
void carve_state::find_beds() {
  const std::size_t n = water.is_river.size();
  find_floors();
  bed.assign(n, std::numeric_limits<double>::infinity());
  const std::vector<std::uint32_t>& stack = routing.graph.stack;
  const std::vector<std::uint32_t>& receiver = routing.graph.receiver;
  for (std::size_t i = n; i-- > 0;) {
    const std::uint32_t c = stack[i];
    if (!water.is_river[c]) continue;
    const double target = routing.filled[c] - p.depth_scale * static_cast<double>(water.river_depth[c]) / scale;
    bed[c] = std::min(bed[c], target);
    if (river_to(c)) bed[receiver[c]] = std::min(bed[receiver[c]], bed[c]);
  }
  for (std::size_t c = 0; c < n; ++c) {
    if (water.is_river[c]) bed[c] = std::max(bed[c], floor[c]);
  }
}

// 3. and 4. Centrelines and cross sections: the minimum over pieces.
void carve_state::carve_channels(std::vector<double>& carve, const float* input, int width, int height) const {
  const double grade = k_grade_m / scale;
  const double min_half = p.min_width / 2.0;
  const double bank_cells = p.bank_m / cell_size;
  const auto cell_of = [width](const std::array<double, 2>& pt) {
    return static_cast<std::size_t>(pt[1]) * static_cast<std::size_t>(width) + static_cast<std::size_t>(pt[0]);
  };
  const auto on_cell = [](const std::array<double, 2>& pt) {
    return pt[0] == std::floor(pt[0]) && pt[1] == std::floor(pt[1]);
  };
  for (const river_segment& s : water.network) {
    // A line leaving the map ends on its border, half a cell out: the channel
    // is carved to its last cell, as the border holds the base level.
    const std::size_t m = s.points.size() - (s.end == "edge" && !on_cell(s.points.back()) ? 1 : 0);
    if (m < 2) continue;
    std::vector<double> beds(m);
    for (std::size_t k = 0; k < m; ++k) {
      if (on_cell(s.points[k])) {
        beds[k] = bed[cell_of(s.points[k])];
      } else if (k == 0) {  // on a lake's shore: the bed of the river's first cell
        beds[k] = bed[cell_of(s.points[1])];
      } else {  // halfway to the lake or sea it ends in: down to its level
        const std::size_t last = cell_of(s.points[k - 1]);
        beds[k] = std::min(bed[last], floor[last] - 0.5 * grade);
      }
    }
    std::vector<std::array<double, 2>> line(s.points.begin(), s.points.begin() + static_cast<std::ptrdiff_t>(m));
    smooth_line(line, p.smoothing);
    for (std::size_t k = 0; k + 1 < m; ++k) {
      carve_piece piece;
      piece.a = line[k];
      piece.b = line[k + 1];
      piece.bed_a = beds[k];
      piece.bed_b = beds[k + 1];
      piece.depth_a = std::max(0.0, static_cast<double>(s.surface[k]) - beds[k]);
      piece.depth_b = std::max(0.0, static_cast<double>(s.surface[k + 1]) - beds[k + 1]);
      piece.half_width = std::max(min_half, p.width_scale * static_cast<double>(s.widths[k]) / 2.0 / cell_size);
      stamp_piece(carve, input, width, height, piece, bank_cells, p.profile);
    }
  }
}

// The float nearest `level` on the side `toward` (+inf: at or above it,
// -inf: strictly below it).
float float_beside(double level, float toward) {
  auto f = static_cast<float>(level);
  if (toward > 0.0f ? static_cast<double>(f) < level : static_cast<double>(f) >= level) f = std::nextafter(f, toward);
  return f;
}

// 5. Strictly falling channels, upstream first: each receiver just below its
// donor, but not below its floor. A donor already below the floor lies in a
// pit under the level of the water the river ends in (too small to be a lake
// itself, walled off from that water by a rim): the floor cannot hold there,
// so the path on to the mouth is cut just under that level, the pit joins
// the lake or sea and the river ends at it. Returns the cells lowered.
std::size_t carve_state::drain(std::vector<float>& out) const {
  constexpr float k_up = std::numeric_limits<float>::infinity();
  const std::vector<std::uint32_t>& stack = routing.graph.stack;
  std::size_t lowered = 0;
  for (std::size_t i = stack.size(); i-- > 0;) {
    const std::uint32_t c = stack[i];
    if (!water.is_river[c] || !river_to(c)) continue;
    const std::uint32_t r = routing.graph.receiver[c];
    const float below = std::nextafter(out[c], -k_up);
    float target = std::max(below, float_beside(floor[r], k_up));
    if (target > out[c]) target = std::max(below, float_beside(mouth[r], -k_up));
    if (target < out[r]) {
      out[r] = target;
      ++lowered;
    }
  }
  return lowered;
}

constexpr int k_settle_passes = 16;  // bound on step 6; the presets tried settle in 2 to 4

// 6. Settle: the water of the carved terrain (what the water outputs draw)
// routes again, and its rivers can cross closed depressions step 5 never
// reached: small filled pits of the input (too small to be lakes) off the
// input's D8 path, or the part of a pit beside a path step 5 breached. The
// heights fall into such a pit and rise out of it along the line. So each
// pass drains the rivers of the carved terrain's own water as step 5 did,
// until a pass lowers nothing. Returns the passes that lowered cells.
int settle(std::vector<float>& out, const heightfield& input, const river_carve_params& p, const water_params& wp,
           const stage_context& ctx) {
  heightfield carved(input.placement());
  for (int pass = 0; pass < k_settle_passes; ++pass) {
    std::copy(out.begin(), out.end(), carved.data());
    water_routing routing;
    const water_maps water = compute_water(carved, ctx.height_scale, wp, ctx.nthreads, &routing);
    carve_state state{p, water, routing, ctx.height_scale, wp.sea_level, input.placement().cell_size, {}, {}, {}};
    state.find_floors();
    if (state.drain(out) == 0) return pass;
    ctx.check_stop();
  }
  return k_settle_passes;
}

}  // namespace

void apply_river_carve(heightfield& h, const river_carve_params& p, const stage_context& ctx,
                       river_carve_report* report) {
  const std::size_t n = h.size();
  if (n == 0) return;
  const std::vector<float>* precipitation = nullptr;
  if (!p.precipitation_layer.empty()) {
    precipitation = ctx.read_layer(p.precipitation_layer);
    if (!precipitation || precipitation->size() != n) {
      throw std::invalid_argument("river_carve.precipitation_layer: \"" + p.precipitation_layer +
                                  "\" is not a layer written by an earlier stage");
    }
  }
  const double scale = ctx.height_scale;
  const double sea_level = ctx.sea_level.value_or(0.0);
  const double cell_size = h.placement().cell_size;
  // 1. The water of the input.
  const water_params wp = p.params(sea_level, precipitation);
  water_routing routing;
  const water_maps water = compute_water(h, scale, wp, ctx.nthreads, &routing);
  ctx.progress(0.5);
  ctx.check_stop();
  carve_state state{p, water, routing, scale, sea_level, cell_size, {}, {}, {}};
  state.find_beds();
  std::vector<double> carve(n, std::numeric_limits<double>::infinity());
  state.carve_channels(carve, h.data(), h.width(), h.height());
  ctx.check_stop();
  std::vector<float> out(h.data(), h.data() + n);
  for (std::size_t c = 0; c < n; ++c) {
    if (carve[c] < static_cast<double>(out[c])) out[c] = std::min(out[c], static_cast<float>(carve[c]));
  }
  state.drain(out);
  river_carve_report r;
  r.settle_passes = settle(out, h, p, wp, ctx);
  for (std::size_t c = 0; c < n; ++c) {
    r.river_cells += water.is_river[c];
    const double cut = (static_cast<double>(h.data()[c]) - static_cast<double>(out[c])) * scale;
    if (cut > 0.0) {
      ++r.carved_cells;
      r.volume_m3 += cut * cell_size * cell_size;
      r.max_depth_m = std::max(r.max_depth_m, cut);
    }
    h.data()[c] = out[c];
  }
  ctx.progress(1.0);
  if (report) *report = r;
}

stage_info river_carve_stage_info() {
  stage_info info = make_stage_info<river_carve_params>(
      "river_carve", stage_category::filter, stage_scope::world,
      "carves the rivers of the water outputs into the terrain: channels of their width and depth, smooth banks",
      "Finds the water as the water outputs do (derive/water: sea at the preset's sea_level, lakes by "
      "Priority-Flood, discharge Q from precipitation, rivers from river_area or river_discharge, width "
      "w = width_a Q^width_b and depth d = depth_c Q^depth_f after Leopold and Maddock 1953; the same keys), then "
      "cuts a channel along each river: the bed is the filled surface minus depth_scale x d(Q), made "
      "non-increasing downstream by a running minimum along the D8 receivers (upstream first) and kept above "
      "the lake or sea the river ends in; the cross section is parabolic or flat across width_scale x w (at "
      "least min_width cells) around the river's centreline (the network's line, smoothed), with banks blending "
      "into the terrain over bank_m by smoothstep; carving only lowers. Then each river cell is lowered to just "
      "below the one upstream, so channels fall strictly and hold no flat or closed depression (a pit under the "
      "level of the water the river ends in is cut through just under that level: it joins that water). Last, "
      "the water of the carved terrain is computed again and that drainage repeated along its rivers until "
      "nothing changes (at most 16 passes), so the heights under the rivers the water outputs draw never rise "
      "downstream. The water outputs of the carved terrain then follow the channels. Reports river_cells, "
      "carved_cells, carved_volume_m3, max_cut_m and settle_passes. Bit-identical for every thread count. Needs the "
      "whole world: a region "
      "build computes the world and crops it.",
      +[](heightfield& h, const river_carve_params& p, const stage_context& ctx) {
        river_carve_report r;
        apply_river_carve(h, p, ctx, &r);
        ctx.report("river_cells", static_cast<double>(r.river_cells));
        ctx.report("carved_cells", static_cast<double>(r.carved_cells));
        ctx.report("carved_volume_m3", r.volume_m3);
        ctx.report("max_cut_m", r.max_depth_m);
        ctx.report("settle_passes", static_cast<double>(r.settle_passes));
      });
  set_cost<river_carve_params>(info, [](const river_carve_params&, double cells) {
    // The water (sort, flood, routing, network) dominates.
    return cells * 250.0;
  });
  info.halo_rule = "whole world (a river's discharge depends on the terrain anywhere upstream)";
  return info;
}

}  // namespace landform
