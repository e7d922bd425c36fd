#include "landform/stages/hydraulic_erosion.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "landform/core/overlap_blocks.hpp"
#include "landform/core/particle_scheduler.hpp"
#include "landform/core/rng.hpp"
#include "landform/derive/water.hpp"
#include "stages/droplet/droplet_lanes.hpp"
#include "stages/droplet/droplet_model.hpp"
#include "stages/droplet/droplet_spawn.hpp"
#include "stages/droplet/erosion_brush.hpp"

namespace landform {

const param_schema<hydraulic_erosion_params>& hydraulic_erosion_params::schema() {
  using P = hydraulic_erosion_params;
  static const auto s =
      param_schema<P>()
          .number("droplets_per_cell", &P::droplets_per_cell)
          .unit("droplets per cell")
          .range(between(0, 1000))
          .doc("amount of rain: droplets per map cell (used when droplet_count is 0)")
          .effect("more = deeper, more connected channels and gullies (and a slower stage)")
          .integer("droplet_count", &P::droplet_count)
          .unit("droplets")
          .range(between(0, 1000000000))
          .doc("number of droplets on the map (the edge margin rains as densely); > 0 overrides droplets_per_cell")
          .effect("more = deeper, more connected channels and gullies (and a slower stage)")
          .choice("spawn", &P::spawn,
                  {{"uniform", P::spawn_kind::uniform}, {"high_ground", P::spawn_kind::high_ground}})
          .doc("uniform: droplets start anywhere; high_ground: start points biased towards high ground")
          .effect("high_ground concentrates carving on ridges and slopes, leaving lowlands smoother")
          .number("inertia", &P::inertia)
          .unit("fraction")
          .range(between(0, 0.99))
          .doc("share of the previous direction kept each step")
          .effect(
              "higher = straighter, longer channels; lower = droplets follow every bump (dendritic, wiggly gullies)")
          .number("sediment_capacity_factor", &P::sediment_capacity_factor)
          .unit("per slope x speed x water")
          .range(above(0))
          .doc("how much sediment a droplet can carry")
          .effect("higher = deeper carving and more material moved into valleys")
          .number("min_sediment_capacity", &P::min_sediment_capacity)
          .unit("height units")
          .range(between(0, 1))
          .doc("capacity floor, so droplets on gentle ground still carry some sediment")
          .effect("higher = erosion also on gentle slopes and flats")
          .number("min_slope", &P::min_slope)
          .effect("higher = droplets keep carving on flat ground: deeper channels across plains")
          .unit("height units per cell")
          .range(between(0, 1))
          .doc("slope floor in the capacity (Beyer's p_minSlope); 0 disables it")
          .number("erode_speed", &P::erode_speed)
          .unit("fraction")
          .range(between(0, 1))
          .doc("share of the free capacity eroded per step")
          .effect("higher = sharper, deeper channels")
          .number("deposit_speed", &P::deposit_speed)
          .unit("fraction")
          .range(between(0, 1))
          .doc("share of the surplus sediment deposited per step")
          .effect("higher = sediment settles sooner: fuller valley floors, shorter channels")
          .number("evaporate_speed", &P::evaporate_speed)
          .unit("fraction per step")
          .range(between(0, 1))
          .doc("share of a droplet's water that evaporates each step")
          .effect("higher = droplets die sooner: shorter channels, erosion stays near where rain fell")
          .number("gravity", &P::gravity)
          .unit("speed^2 per height unit")
          .range(between(0, 1000))
          .doc("acceleration down slopes")
          .effect("higher = droplets speed up faster on slopes and carry more")
          .integer("max_lifetime", &P::max_lifetime)
          .unit("steps")
          .range(between(1, 1000))
          .doc("steps (cells travelled) before a droplet dies")
          .effect("higher = longer channels reaching further downhill")
          .integer("erosion_radius", &P::erosion_radius)
          .unit("cells")
          .range(between(1, 16))
          .doc("radius of the erosion brush")
          .effect("higher = wider, softer channels; lower = narrow, sharp gullies")
          .number("initial_water", &P::initial_water)
          .effect("more = longer-lived droplets: longer, deeper gullies")
          .unit("water volume")
          .range(above_to(0, 1000))
          .doc("water of a new droplet")
          .number("initial_speed", &P::initial_speed)
          .unit("cells per step")
          .range(between(0, 1000))
          .doc("speed of a new droplet")
          .choice("base_level", &P::base_level,
                  {{"edges", erosion_base_level::edges}, {"sea", erosion_base_level::sea}})
          .doc(
              "where droplets end: the map's edge (edges), or also the sea below the preset's sea_level (sea; needs "
              "sea_level)")
          .effect("sea = gullies end at the coast and their sediment leaves the map instead of filling the sea floor")
          .choice("units", &P::units, {{"world", P::unit_kind::world}, {"cells", P::unit_kind::cells}})
          .doc(
              "world: the per-step values hold on the reference grid and are converted to the same behaviour per "
              "metre on the preset's grid (lifetime in metres, rates per metre, capacity from the slope in m/m); "
              "cells: used per step as given, as Beyer published them")
          .effect("world = the same world erodes alike at every resolution and relief; cells = Beyer's model as is")
          .number("reference_cell_size", &P::reference_cell_size)
          .unit("m")
          .range(above_to(0, 1e6))
          .doc("cell size of the grid the per-step values hold for (units: world)")
          .effect("larger = the same values act over longer distances: longer droplet paths, gentler rates per metre")
          .number("reference_height_scale", &P::reference_height_scale)
          .unit("m per height unit")
          .range(above_to(0, 1e7))
          .doc("height scale of the grid the per-step values hold for (units: world)")
          .effect("larger = the same relief counts as gentler: slower droplets, less carving")
          .choice("tiling", &P::tiling, {{"world", P::tiling_kind::world}, {"overlap", P::tiling_kind::overlap}})
          .doc(
              "world: droplets run over the whole map, so a tile or region build computes the whole world; overlap: "
              "droplets run in world-aligned blocks of block_size cells, each grown by block_overlap and "
              "cross-faded with its neighbours, so a tile computes only the blocks it touches and tiles meet "
              "without seams (the whole-world build uses the same blocks); rain then comes from "
              "droplets_per_cell (droplet_count must be 0)")
          .effect(
              "overlap = tiles of a large world build in time and memory of their own size; erosion across a "
              "block boundary is the blend of two runs (gullies a little softer within block_overlap / 2 of it)")
          .integer("block_size", &P::block_size)
          .unit("cells")
          .range(between(16, 65536))
          .doc("side of a block's core (tiling: overlap); at least 2 x block_overlap")
          .effect("larger = fewer block boundaries, longer uninterrupted drainage; a tile then computes more around it")
          .integer("block_overlap", &P::block_overlap)
          .unit("cells")
          .range(between(0, 8192))
          .doc(
              "cells each block is grown by on every side (tiling: overlap); neighbours are cross-faded over the "
              "block_overlap cells centred on their boundary, and the outer half feeds droplets into the fade; "
              "about a droplet's path (max_lifetime cells in the grid's units) hides the block edges; 0 gives "
              "plain blocks whose edges erode like map edges and show as a grid; at most block_size / 2")
          .effect("larger = smoother hand-over between blocks, more work per block");
  return s;
}

stage_scope hydraulic_erosion_params::scope() const {
  return tiling == tiling_kind::overlap ? stage_scope::local : stage_scope::world;
}

int hydraulic_erosion_params::halo() const {
  return tiling == tiling_kind::overlap ? overlap_grid().halo() : -1;
}

overlap_blocks hydraulic_erosion_params::overlap_grid() const {
  return {block_size, block_overlap};
}

void hydraulic_erosion_params::check(std::vector<std::pair<std::string, std::string>>& problems) const {
  if (tiling != tiling_kind::overlap) return;
  if (block_size < 2 * block_overlap) {
    problems.emplace_back("block_overlap", std::to_string(block_overlap) + " is more than half of block_size (" +
                                               std::to_string(block_size) +
                                               "): the cross-fades of a block's two sides would meet");
  }
  if (droplet_count > 0) {
    problems.emplace_back("droplet_count",
                          "tiling \"overlap\" takes its rain from droplets_per_cell; a total droplet_count has no "
                          "share per block (set droplet_count to 0)");
  }
}

hydraulic_erosion_params hydraulic_erosion_grid_params(const hydraulic_erosion_params& p, double cell_size,
                                                       double height_scale) {
  if (!(cell_size > 0.0 && std::isfinite(cell_size) && height_scale > 0.0 && std::isfinite(height_scale))) {
    throw std::invalid_argument("hydraulic_erosion: cell_size and height_scale must be positive and finite");
  }
  if (p.units == hydraulic_erosion_params::unit_kind::cells) return p;
  const double c = cell_size / p.reference_cell_size, r = height_scale / p.reference_height_scale;
  hydraulic_erosion_params g = p;
  g.units = hydraulic_erosion_params::unit_kind::cells;
  g.reference_cell_size = cell_size;
  g.reference_height_scale = height_scale;
  // Exact identity on the reference grid: no rounding through pow.
  if (c != 1.0) {
    // A share s kept per step of c reference cells is s^c; a share taken is
    // 1 - (1 - t)^c.
    const auto per_step = [c](double taken) { return 1.0 - std::pow(1.0 - taken, c); };
    g.erode_speed = per_step(p.erode_speed);
    g.deposit_speed = per_step(p.deposit_speed);
    g.evaporate_speed = per_step(p.evaporate_speed);
    g.inertia = std::pow(p.inertia, c);
    g.sediment_capacity_factor = p.sediment_capacity_factor / c;
    constexpr double k_max_steps = 65536.0;
    g.max_lifetime = static_cast<int>(std::clamp(std::round(p.max_lifetime / c), 1.0, k_max_steps));
  }
  if (c != 1.0 || r != 1.0) g.min_slope = p.min_slope * c / r;
  if (r != 1.0) {
    g.min_sediment_capacity = p.min_sediment_capacity / r;
    g.gravity = p.gravity * r;
  }
  return g;
}

double hydraulic_erosion_params::droplet_density(std::size_t cells) const {
  if (droplet_count > 0)
    return static_cast<double>(droplet_count) / static_cast<double>(std::max<std::size_t>(cells, 1));
  return droplets_per_cell;
}

std::uint64_t hydraulic_erosion_params::total_droplets(std::size_t cells) const {
  if (droplet_count > 0) return static_cast<std::uint64_t>(droplet_count);
  return static_cast<std::uint64_t>(std::llround(droplets_per_cell * static_cast<double>(cells)));
}

namespace {

// The hash stream of the tile grid offsets.
constexpr std::uint64_t k_stream_grid = 0x47524944ULL;  // "GRID"
// Droplets per round: one per k_cells_per_round_droplet cells (at least
// k_min_round_droplets), so a round rains lightly everywhere and the tile
// grid moves between rounds. Rounds smaller than k_min_parallel_round run on
// one thread: waking threads would cost more than it saves.
constexpr std::uint64_t k_cells_per_round_droplet = 8;
constexpr std::uint64_t k_min_round_droplets = 256;
constexpr std::size_t k_min_parallel_round = 4096;

hydraulic_erosion_result to_result(const droplet::droplet_totals& t) {
  hydraulic_erosion_result r;
  r.droplets = t.droplets;
  r.steps = t.steps;
  r.eroded = t.eroded;
  r.deposited = t.deposited;
  r.sediment_lost = t.lost;
  r.sediment_outflow = t.outflow;
  return r;
}

// The map and, when asked for, the per-cell maps, zeroed.
droplet::field_view make_view(heightfield& h, hydraulic_erosion_maps* maps) {
  droplet::field_view f;
  f.height = h.data();
  f.width = h.width();
  f.height_cells = h.height();
  if (h.size() > 0) f.top = *std::max_element(h.values().begin(), h.values().end());
  if (maps != nullptr) {
    maps->erosion.assign(h.size(), 0.0f);
    maps->deposition.assign(h.size(), 0.0f);
    maps->flow.assign(h.size(), 0.0f);
    f.erosion = maps->erosion.data();
    f.deposition = maps->deposition.data();
    f.flow = maps->flow.data();
  }
  return f;
}

// Rounds of droplets over the map through the particle scheduler, in the
// lanes kernel; each tile's totals summed in tile order after each round.
droplet::droplet_totals run_rounds(heightfield& h, const hydraulic_erosion_params& p, const stage_context& ctx,
                                   const droplet::field_view& f, std::uint64_t total) {
  const droplet::droplet_constants c(p);
  const droplet::erosion_brush brush(p.erosion_radius);
  particle_schedule schedule;
  schedule.width = h.width();
  schedule.height = h.height();
  schedule.particles = total;
  schedule.per_round = std::max(k_min_round_droplets, static_cast<std::uint64_t>(h.size()) / k_cells_per_round_droplet);
  schedule.reach = droplet::reach(p, brush);
  schedule.seed = ctx.seed;
  schedule.grid_stream = k_stream_grid;
  schedule.nthreads = ctx.nthreads;
  schedule.min_parallel_round = k_min_parallel_round;

  droplet::droplet_totals totals;
  std::vector<droplet::droplet_totals> tile_totals;
  particle_hooks hooks;
  hooks.spawn = [&](std::uint64_t first, std::span<particle_start> starts) {
    if (p.spawn == hydraulic_erosion_params::spawn_kind::uniform) {
      droplet::spawn_uniform(ctx.seed, first, starts, h.width(), h.height(), ctx.nthreads);
    } else {
      droplet::spawn_high_ground(h, ctx.seed, first, starts, ctx.nthreads);
    }
  };
  hooks.begin_round = [&](std::size_t tiles) { tile_totals.assign(tiles, droplet::droplet_totals{}); };
  hooks.work = [&](particle_tile_queue& queue) { droplet::run_tiles_lanes(f, c, brush, queue, tile_totals.data()); };
  hooks.end_round = [&] {
    for (const auto& t : tile_totals) totals.add(t);
  };
  hooks.progress = [&](double done) { ctx.progress(done); };
  hooks.stop = &ctx.stop_requested;
  particle_scheduler(schedule).run(hooks);
  return totals;
}

}  // namespace

hydraulic_erosion_result run_droplet(heightfield& h, const hydraulic_erosion_params& p, float x, float y,
                                     hydraulic_erosion_maps* maps) {
  const droplet::field_view f = make_view(h, maps);
  droplet::droplet_totals totals;
  if (h.width() < 2 || h.height() < 2) return to_result(totals);
  if (!(x >= 0.0f && x < static_cast<float>(h.width() - 1) && y >= 0.0f && y < static_cast<float>(h.height() - 1))) {
    return to_result(totals);
  }
  const particle_start start{x, y};
  const particle_tile tile{&start, &start + 1, 0};
  particle_tile_queue queue(std::span(&tile, 1));
  droplet::run_tiles_lanes(f, droplet::droplet_constants(p), droplet::erosion_brush(p.erosion_radius), queue, &totals);
  return to_result(totals);
}

namespace {

// Cells the map grows by on each side while the droplets run: every droplet
// that could change one of the map's cells on a larger world (it moves at
// most max_lifetime cells and its disc reaches erosion_radius beyond) runs.
// Without a margin no droplet entered across the edge and none that left
// went on eroding beyond it: the outer column eroded 0.55 to 0.63 times as
// much as columns 4 to 8 in and stood as a rim (eroded-mountains' noise at
// 512^2, two droplets per cell). A margin of only the disc (2 x radius + 2)
// overshot: the droplets crossing the edge were all young, carried little,
// and the outer cells eroded up to 1.4 times as much (docs/erosion.md). On
// a small map long lives would make the margin dwarf the map: it is at most
// an eighth of the map's shorter side (the cost at most (1 + 2 / 8)^2 =
// 1.56 times the map's droplets) or the disc, whichever is larger.
int edge_margin(const hydraulic_erosion_params& p, int width, int height) {
  const int disc = 2 * p.erosion_radius + 2;
  return std::min(p.max_lifetime + p.erosion_radius, std::max(disc, std::min(width, height) / 8));
}

// Index j of a line of n cells continued past its ends by odd reflection:
// the value there is 2 v(end) - v(mirror), so slopes run on across the edge.
// Returns the mirror index (clamped into the line) and the end it reflects about.
std::pair<int, int> odd_mirror(int j, int n) {
  if (j < 0) return {std::min(-j, n - 1), 0};
  if (j >= n) return {std::max(2 * (n - 1) - j, 0), n - 1};
  return {j, j};
}

// The height continued `dist` cells beyond a line's end at `end`, from
// the cell mirrored about it and the cell next to the end (`inner`): the
// odd reflection 2 end - mirror, at most hi (the map's highest cell, so the
// ceilings the droplets use stay in range). Below the map's lowest cell lo
// it falls no faster than the end's own slope continued: a map whose edge
// is its lowest ground (stream power drains to its edges) goes on falling,
// so droplets leave across the edge with their load (clamped at lo, the
// margin was a flat plain where they stalled and dropped it on the edge),
// but ground that flattens towards the edge is not continued as a trough
// (the reflection of a cone's flat foot dug one beyond each side's middle,
// and the foot lost 30 % less deposit there than towards the corners). At
// least 2 lo - hi, the reflection's own bound across one edge.
float continued_height(float end, float inner, float mirror, int dist, float lo, float hi) {
  float v = 2.0f * end - mirror;
  if (v < lo) v = std::max(v, std::min(lo, end - static_cast<float>(dist) * std::max(0.0f, inner - end)));
  return std::clamp(v, 2.0f * lo - hi, hi);
}

// The margin of `g` (m cells on each side of its w x ht core) rewritten
// from the core, each cell by continued_height across the nearest edge (rows
// first, then columns of the grown rows). The map's cells may then be cut
// below lo, as a larger world's would be.
void continue_margin(heightfield& g, int m, float lo, float hi) {
  const int gw = g.width(), gh = g.height(), w = gw - 2 * m, ht = gh - 2 * m;
  // The cell next to a line's end `e` (of n cells), towards the inside.
  const auto inner = [](int e, int n) { return n < 2 ? e : (e == 0 ? 1 : n - 2); };
  for (int y = m; y < m + ht; ++y) {
    for (int x = 0; x < gw; ++x) {
      if (x >= m && x < m + w) continue;  // the map's own cell
      const auto [mx, ex] = odd_mirror(x - m, w);
      g.at(x, y) =
          continued_height(g.at(ex + m, y), g.at(inner(ex, w) + m, y), g.at(mx + m, y), std::abs(x - m - ex), lo, hi);
    }
  }
  for (int y = 0; y < gh; ++y) {
    if (y >= m && y < m + ht) continue;  // a row of the map
    const auto [my, ey] = odd_mirror(y - m, ht);
    for (int x = 0; x < gw; ++x)
      g.at(x, y) =
          continued_height(g.at(x, ey + m), g.at(x, inner(ey, ht) + m), g.at(x, my + m), std::abs(y - m - ey), lo, hi);
  }
}

// `h` grown by `m` cells on each side, its margin continued from it (continue_margin).
heightfield grown_map(const heightfield& h, int m, float lo, float hi) {
  const int w = h.width(), ht = h.height();
  const region& r = h.placement();
  heightfield g(region{w + 2 * m, ht + 2 * m, r.origin_x - m, r.origin_y - m, r.cell_size});
  for (int y = 0; y < ht; ++y)
    for (int x = 0; x < w; ++x) g.at(x + m, y + m) = h.at(x, y);
  continue_margin(g, m, lo, hi);
  return g;
}

// The window of `g` (grown by m on each side) moved to the front of g's own
// storage and g cut to w x ht: each row lands at or before where it was
// read, so rows moved in order never overwrite one still to move. No second
// map-sized buffer (the grown map's few extra rows stay as capacity).
std::vector<float> crop_in_place(std::vector<float> g, int gw, int m, int w, int ht) {
  for (int y = 0; y < ht; ++y) {
    const float* row = g.data() + static_cast<std::size_t>(y + m) * static_cast<std::size_t>(gw) + m;
    std::copy(row, row + w, g.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(w));
  }
  g.resize(static_cast<std::size_t>(w) * static_cast<std::size_t>(ht));
  return g;
}

// The map's budget from the totals of a run over the grown map, whose
// eroded and deposited count the map's cells only: what the map lost is
// eroded - deposited; the droplets' float rounding (what ended carried
// beyond the outflow of the grown map) is the same, wherever it happened,
// so the rest crossed the map's edge.
hydraulic_erosion_result map_budget(const droplet::droplet_totals& t) {
  hydraulic_erosion_result r = to_result(t);
  r.sediment_lost = t.eroded - t.deposited;
  r.sediment_outflow = r.sediment_lost - (t.lost - t.outflow);
  return r;
}

}  // namespace

hydraulic_erosion_result apply_hydraulic_erosion(heightfield& h, const hydraulic_erosion_params& params,
                                                 const stage_context& ctx, hydraulic_erosion_maps* maps) {
  const hydraulic_erosion_params p = hydraulic_erosion_grid_params(params, h.placement().cell_size, ctx.height_scale);
  if (p.base_level == erosion_base_level::sea && !ctx.sea_level) {
    throw std::invalid_argument(
        "hydraulic_erosion.base_level: \"sea\" needs the preset's top-level sea_level, which is not given");
  }
  const int w = h.width(), ht = h.height(), m = edge_margin(p, w, ht);
  // The margin rains as densely as the map: the count on the grown map from
  // the density itself (rounding the map's count first made the rain of a
  // tiny map jump: 0 droplets at 0.12 per cell, twice the density at 0.13).
  const double grown_cells = static_cast<double>(w + 2 * m) * static_cast<double>(ht + 2 * m);
  const auto grown_total = static_cast<std::uint64_t>(std::llround(p.droplet_density(h.size()) * grown_cells));
  // (A map one cell wide runs too: its grown copy is the margin wide.)
  if (grown_total == 0) {
    if (maps != nullptr) make_view(h, maps);
    return to_result(droplet::droplet_totals{});
  }
  const auto [lo_it, hi_it] = std::minmax_element(h.values().begin(), h.values().end());
  const float lo = *lo_it, hi = *hi_it;
  heightfield g = grown_map(h, m, lo, hi);
  hydraulic_erosion_maps grown_maps;
  droplet::field_view f = make_view(g, maps != nullptr ? &grown_maps : nullptr);
  f.top = hi;
  f.set_core(m, m, m + w, m + ht);
  std::vector<std::uint8_t> sea;
  if (p.base_level == erosion_base_level::sea) {
    sea = find_ocean(g, *ctx.sea_level);
    f.sea = sea.data();
  }
  // The grown copy holds the map while the droplets run: the map's own
  // storage is freed (peak memory one map, not two) and the crop moves in.
  h.values() = {};
  droplet::droplet_totals t;
  try {
    t = run_rounds(g, p, ctx, f, grown_total);
  } catch (...) {
    h.values() = crop_in_place(std::move(g.values()), g.width(), m, w, ht);  // cancelled: the map as it stands
    throw;
  }
  h.values() = crop_in_place(std::move(g.values()), g.width(), m, w, ht);
  if (maps != nullptr) {
    for (auto [from, to] :
         {std::pair{&grown_maps.erosion, &maps->erosion}, std::pair{&grown_maps.deposition, &maps->deposition},
          std::pair{&grown_maps.flow, &maps->flow}}) {
      *to = crop_in_place(std::move(*from), g.width(), m, w, ht);
    }
  }
  return map_budget(t);
}

namespace {

// The sediment budget in m^3 (height units x height_scale x cell area), for
// the manifest: eroded = deposited + outflow + undeposited, exactly (the
// undeposited part is what the droplets' float32 loads lost to rounding).
void report_budget(const hydraulic_erosion_result& r, const heightfield& h, const stage_context& ctx) {
  const double cell = h.placement().cell_size;
  const double m3 = ctx.height_scale * cell * cell;
  ctx.report("droplets", static_cast<double>(r.droplets));
  ctx.report("eroded_m3", r.eroded * m3);
  ctx.report("deposited_m3", r.deposited * m3);
  ctx.report("outflow_m3", r.sediment_outflow * m3);
  ctx.report("undeposited_m3", (r.eroded - r.deposited - r.sediment_outflow) * m3);
}

void add_result(hydraulic_erosion_result& sum, const hydraulic_erosion_result& r) {
  sum.droplets += r.droplets;
  sum.steps += r.steps;
  sum.eroded += r.eroded;
  sum.deposited += r.deposited;
  sum.sediment_lost += r.sediment_lost;
  sum.sediment_outflow += r.sediment_outflow;
}

// The hash stream of the blocks' seeds (tiling overlap).
constexpr std::uint64_t k_stream_block = 0x424c4f434bULL;  // "BLOCK"

// Tiling overlap: each world-aligned block erodes on its own, with a seed of
// its own, and the blocks are cross-faded. The budget is the blocks' sum
// (cells in an overlap count once per block).
hydraulic_erosion_result erode_in_blocks(heightfield& h, const hydraulic_erosion_params& p, const stage_context& ctx,
                                         hydraulic_erosion_maps* maps) {
  hydraulic_erosion_result sum;
  std::vector<std::vector<float>> blended;
  const std::size_t map_count = maps != nullptr ? 3 : 0;
  run_overlap_blocks(
      h, ctx.world, p.overlap_grid(), map_count,
      [&](heightfield& block, const overlap_block& b, std::vector<std::vector<float>>& out) {
        stage_context sub = ctx;
        sub.seed = hash64(ctx.seed, k_stream_block, static_cast<std::uint64_t>(b.bx), static_cast<std::uint64_t>(b.by));
        sub.progress = [&ctx, b](double done) { ctx.progress((b.index + done) / b.count); };
        hydraulic_erosion_maps block_maps;
        add_result(sum, apply_hydraulic_erosion(block, p, sub, maps != nullptr ? &block_maps : nullptr));
        if (maps == nullptr) return;
        out[0] = std::move(block_maps.erosion);
        out[1] = std::move(block_maps.deposition);
        out[2] = std::move(block_maps.flow);
      },
      blended);
  if (maps != nullptr) {
    maps->erosion = std::move(blended[0]);
    maps->deposition = std::move(blended[1]);
    maps->flow = std::move(blended[2]);
    // A field no block fits in (smaller than one grown block) has no maps.
    for (auto* m : {&maps->erosion, &maps->deposition, &maps->flow}) {
      if (m->empty()) m->assign(h.size(), 0.0f);
    }
  }
  return sum;
}

}  // namespace

stage_info hydraulic_erosion_stage_info() {
  stage_info info = make_stage_info<hydraulic_erosion_params>(
      "hydraulic_erosion", stage_category::filter, stage_scope::world,
      "droplet erosion: simulated rain carves gullies and deposits sediment in valleys (Beyer 2015)",
      "The particle model of H. T. Beyer, \"Implementation of a method for hydraulic erosion\" (2015): each "
      "droplet follows the bilinear gradient with inertia, erodes over a disc while under its sediment "
      "capacity (slope x speed x water) and deposits when over it or moving uphill; water evaporates each "
      "step. Droplets start at points hashed from the seed and run in tile rounds with a 2 x 2 colouring, so "
      "results are bit-identical for every thread count. A dying droplet lays its remaining sediment where "
      "it stops; only a droplet leaving the map carries sediment away. No cut goes below the height the "
      "droplet moves to and no deposit above the droplet or a cell's neighbours, so heights stay within "
      "the range the stage started from for any parameters, and the map's edge erodes like the rest. With "
      "tiling world it needs the whole world (a region build computes the world and crops it); with tiling "
      "overlap it runs on world-aligned blocks grown by block_overlap and cross-faded, so a region computes "
      "only the blocks it touches and equals the same window of the whole world bit for bit.",
      +[](heightfield& h, const hydraulic_erosion_params& p, const stage_context& ctx) -> layer_set {
        // The per-cell amounts are side layers that presets can write as
        // outputs; recording them about doubles the stage's time at 1024^2, so they are only computed
        // when the pipeline keeps one of them.
        layer_set side;
        const bool keep_maps = ctx.wants("erosion") || ctx.wants("deposition") || ctx.wants("droplet_flow");
        hydraulic_erosion_maps maps;
        hydraulic_erosion_maps* kept = keep_maps ? &maps : nullptr;
        if (p.tiling == hydraulic_erosion_params::tiling_kind::overlap) {
          report_budget(erode_in_blocks(h, p, ctx, kept), h, ctx);
        } else {
          report_budget(apply_hydraulic_erosion(h, p, ctx, kept), h, ctx);
        }
        if (!keep_maps) return side;
        if (ctx.wants("erosion")) side.put("erosion", std::move(maps.erosion));
        if (ctx.wants("deposition")) side.put("deposition", std::move(maps.deposition));
        if (ctx.wants("droplet_flow")) side.put("droplet_flow", std::move(maps.flow));
        return side;
      });
  // Side layers, writable as outputs: {"map": "erosion", "format": "png8"};
  // two hydraulic stages add up.
  info.writes = {"erosion", "deposition", "droplet_flow"};
  info.accumulates = info.writes;
  set_cost<hydraulic_erosion_params>(info, [](const hydraulic_erosion_params& p, double cells) {
    // Every droplet step erodes over the brush disc.
    const double brush = (2.0 * p.erosion_radius + 1.0) * (2.0 * p.erosion_radius + 1.0);
    // Tiling overlap computes each overlap once per block.
    double grown = 1.0;
    if (p.tiling == hydraulic_erosion_params::tiling_kind::overlap) {
      grown = std::pow(static_cast<double>(p.block_size + 2 * p.block_overlap) / p.block_size, 2.0);
    }
    return static_cast<double>(p.total_droplets(static_cast<std::size_t>(cells))) * p.max_lifetime * (brush + 20.0) *
           1.5 * grown;
  });
  info.tile_mode = {"tiling", "overlap"};
  info.halo_rule = "whole world (a droplet travels without bound); tiling overlap: block_size + 2 x block_overlap";
  info.sea_level_param = sea_level_when("base_level", "sea");
  info.advise = [](const json& params, double cell_size, double height_scale) {
    std::vector<std::pair<std::string, std::string>> advice;
    const auto p = hydraulic_erosion_params::schema().parse(params);
    if (p.tiling != hydraulic_erosion_params::tiling_kind::overlap) return advice;
    // A droplet walks about max_lifetime cells on the grid: an overlap much
    // shorter than that leaves each block's edge (where droplets leave and
    // none enter) in the result, a grid of trenches block_size apart.
    const int path = hydraulic_erosion_grid_params(p, cell_size, height_scale).max_lifetime;
    if (4 * p.block_overlap < path) {
      advice.emplace_back("block_overlap",
                          std::to_string(p.block_overlap) + " cells is under a quarter of a droplet's path (" +
                              std::to_string(path) + " cells on this grid): block edges may show as a grid " +
                              std::to_string(p.block_size) + " cells apart; about " + std::to_string(path) +
                              " hides them (with block_size at least twice that)");
    }
    return advice;
  };
  return info;
}

}  // namespace landform
