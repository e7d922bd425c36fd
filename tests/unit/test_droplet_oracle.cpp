// The droplet lane kernel (src/stages/droplet/droplet_lanes.cpp) against its
// scalar oracle (droplet_scalar.cpp): the same droplets through the same
// particle schedule, one kernel running droplets in vector lanes (at both
// its widths: four lanes, and eight on AVX-512 machines), the other one
// droplet at a time in plain float. The heights, the side maps and the totals
// must agree bit for bit, over parameter sets that take every branch of a
// step (erode, deposit, pit fill, the disc's padded rows, the map's edge, the
// sea).

#include <catch2/catch.hpp>

#include "bit_equal.hpp"
#include "noise_fields.hpp"

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "landform/core/heightfield.hpp"
#include "landform/core/particle_scheduler.hpp"
#include "landform/derive/water.hpp"
#include "landform/stages/hydraulic_erosion.hpp"
#include "stages/droplet/droplet_lanes.hpp"
#include "stages/droplet/droplet_model.hpp"
#include "stages/droplet/droplet_scalar.hpp"
#include "stages/droplet/droplet_spawn.hpp"

namespace {

using namespace landform;
using namespace landform::droplet;
using landform_test::bit_equal;

using tile_kernel = void (*)(const field_view&, const droplet_constants&, const erosion_brush&, particle_tile_queue&,
                             droplet_totals*);

// 192 x 192 cells: with a lifetime of 12 steps a tile is ~40 cells, so each
// colour phase has about nine tiles and the four lanes all carry droplets.
constexpr int k_size = 192;
// Cells around the counted core (erode_with's `core`), about a droplet's path.
constexpr int k_core_margin = 16;

heightfield terrain() {
  return landform_test::noise_field(k_size, 4.0, 3, 40.0, 5);
}

struct eroded {
  heightfield h;
  hydraulic_erosion_maps maps;
  droplet_totals totals;
};

// One run of `p` (in grid units) over `input` with `kernel`: 1.5 droplets per
// cell in rounds of 4096, serially (the order of tiles within a phase is
// the scheduler's concern, tested in test_particle_scheduler.cpp).
// With `core`, the budget counts an inner rectangle only (as when the map
// is grown by a margin): discs across its edge take the per-cell path.
eroded erode_with(tile_kernel kernel, const heightfield& input, const hydraulic_erosion_params& p, bool sea, bool maps,
                  bool core = false) {
  eroded out{input, {}, {}};
  field_view f{out.h.data(), nullptr, nullptr, nullptr, nullptr, k_size, k_size};
  if (core) f.set_core(k_core_margin, k_core_margin + 5, k_size - k_core_margin - 3, k_size - k_core_margin);
  if (maps) {
    for (std::vector<float>* m : {&out.maps.erosion, &out.maps.deposition, &out.maps.flow})
      m->assign(input.size(), 0.0f);
    f.erosion = out.maps.erosion.data();
    f.deposition = out.maps.deposition.data();
    f.flow = out.maps.flow.data();
  }
  const std::vector<std::uint8_t> ocean = find_ocean(input, -0.1);
  if (sea) f.sea = ocean.data();
  const droplet_constants c(p);
  const erosion_brush brush(p.erosion_radius);
  particle_schedule s{k_size, k_size, input.size() * 3 / 2, 4096, reach(p, brush), 11, 0x4f52, 1, 0};
  std::vector<droplet_totals> per_tile;
  particle_hooks hooks;
  hooks.spawn = [&](std::uint64_t first, std::span<particle_start> starts) {
    spawn_uniform(s.seed, first, starts, k_size, k_size, 1);
  };
  hooks.begin_round = [&](std::size_t tiles) { per_tile.assign(tiles, droplet_totals{}); };
  hooks.work = [&](particle_tile_queue& queue) { kernel(f, c, brush, queue, per_tile.data()); };
  hooks.end_round = [&] {
    for (const droplet_totals& t : per_tile) out.totals.add(t);
  };
  particle_scheduler(s).run(hooks);
  return out;
}

bool same_totals(const droplet_totals& a, const droplet_totals& b) {
  const double da[] = {a.eroded, a.deposited, a.lost, a.outflow};
  const double db[] = {b.eroded, b.deposited, b.lost, b.outflow};
  return std::memcmp(da, db, sizeof da) == 0 && a.steps == b.steps && a.droplets == b.droplets;
}

struct variant {
  std::string name;
  std::function<void(hydraulic_erosion_params&)> set;
};

// Parameter sets that move the balance between the step's branches.
std::vector<variant> variants() {
  using P = hydraulic_erosion_params;
  return {
      {"Beyer's defaults", [](P&) {}},
      {"high inertia", [](P& p) { p.inertia = 0.8; }},
      {"no inertia, high capacity",
       [](P& p) {
         p.inertia = 0.0;
         p.sediment_capacity_factor = 12.0;
       }},
      {"low capacity, high floor",
       [](P& p) {
         p.sediment_capacity_factor = 0.5;
         p.min_sediment_capacity = 0.05;
       }},
      {"radius 1", [](P& p) { p.erosion_radius = 1; }},
      {"radius 6 (padded rows)", [](P& p) { p.erosion_radius = 6; }},
      {"no slope floor", [](P& p) { p.min_slope = 0.0; }},
      {"steep slope floor, fast evaporation",
       [](P& p) {
         p.min_slope = 0.05;
         p.evaporate_speed = 0.2;
       }},
      {"no evaporation, fast exchange",
       [](P& p) {
         p.evaporate_speed = 0.0;
         p.erode_speed = 0.9;
         p.deposit_speed = 0.9;
         p.gravity = 10.0;
       }},
  };
}

}  // namespace

TEST_CASE("droplet lanes equal the scalar oracle bit for bit", "[stages][hydraulic_erosion][droplet_oracle]") {
  const heightfield input = terrain();
  for (const variant& var : variants()) {
    hydraulic_erosion_params p;
    p.units = hydraulic_erosion_params::unit_kind::cells;
    p.max_lifetime = 12;
    var.set(p);
    for (const bool sea : {false, true}) {
      for (const bool maps : {false, true}) {
        for (const bool core : {false, true}) {
          if (core && !maps) continue;  // a counted core once per sea setting, with the side maps to check it
          INFO(var.name << (sea ? ", sea base level" : ", edges base level") << (maps ? ", with side maps" : "")
                        << (core ? ", counted core" : ""));
          const eroded lanes = erode_with(&run_tiles_lanes, input, p, sea, maps, core);
          const eroded scalar = erode_with(&run_tiles_scalar, input, p, sea, maps, core);
          // The four-lane kernel too, which AVX-512 machines do not otherwise run.
          const eroded lanes4 = erode_with(&run_tiles_lanes4, input, p, sea, maps, core);
          CHECK(bit_equal(lanes4.h, scalar.h));
          CHECK(bit_equal(lanes4.maps.deposition, scalar.maps.deposition));
          CHECK(same_totals(lanes4.totals, scalar.totals));
          CHECK_FALSE(bit_equal(lanes.h, input));  // the run did erode
          CHECK(bit_equal(lanes.h, scalar.h));
          CHECK(lanes.maps.erosion.empty() != maps);  // side maps exist exactly when asked for
          CHECK(bit_equal(lanes.maps.erosion, scalar.maps.erosion));
          CHECK(bit_equal(lanes.maps.deposition, scalar.maps.deposition));
          CHECK(bit_equal(lanes.maps.flow, scalar.maps.flow));
          CHECK(same_totals(lanes.totals, scalar.totals));
          CHECK(lanes.totals.droplets == input.size() * 3 / 2);
          if (core) {
            // The budget is the core's share of the erosion map (float sums
            // of each cell's changes against double sums of each update's).
            double in_core = 0.0, all = 0.0;
            for (int y = 0; y < k_size; ++y) {
              for (int x = 0; x < k_size; ++x) {
                const double e = lanes.maps.erosion[static_cast<std::size_t>(y) * k_size + x];
                all += e;
                if (x >= k_core_margin && x < k_size - k_core_margin - 3 && y >= k_core_margin + 5 &&
                    y < k_size - k_core_margin)
                  in_core += e;
              }
            }
            CHECK(lanes.totals.eroded == Approx(in_core).epsilon(1e-4));
            CHECK(lanes.totals.eroded < 0.9 * all);
          }
        }
      }
    }
  }
}

TEST_CASE("droplet oracle: a single droplet matches run_droplet", "[stages][hydraulic_erosion][droplet_oracle]") {
  const heightfield input = terrain();
  hydraulic_erosion_params p;
  p.units = hydraulic_erosion_params::unit_kind::cells;
  heightfield a = input, b = input;
  run_droplet(a, p, 60.3f, 71.8f);
  field_view f{b.data(), nullptr, nullptr, nullptr, nullptr, k_size, k_size};
  droplet_totals t;
  run_droplet_scalar(f, droplet_constants(p), erosion_brush(p.erosion_radius), {60.3f, 71.8f}, t);
  CHECK(t.droplets == 1);
  CHECK(t.steps > 0);
  CHECK(bit_equal(a, b));
}
