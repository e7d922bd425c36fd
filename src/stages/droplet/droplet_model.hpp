#pragma once
// What the droplet kernels share: the parameters as floats, the maps they
// work on, the totals they keep and how far a droplet can reach.

#include <cstdint>
#include <limits>

#include "landform/stages/hydraulic_erosion.hpp"
#include "stages/droplet/erosion_brush.hpp"

namespace landform::droplet {

// Parameters as floats for the hot loop, in the grid's units (per step).
struct droplet_constants {
  float inertia = 0.0f;
  float capacity_factor = 0.0f;
  float min_capacity = 0.0f;
  float min_slope = 0.0f;
  float erode_speed = 0.0f;
  float deposit_speed = 0.0f;
  float water_kept = 0.0f;  // 1 - evaporate_speed
  float gravity = 0.0f;
  float initial_water = 0.0f;
  float initial_speed = 0.0f;
  int lifetime = 0;

  explicit droplet_constants(const hydraulic_erosion_params& p)
      : inertia(static_cast<float>(p.inertia)),
        capacity_factor(static_cast<float>(p.sediment_capacity_factor)),
        min_capacity(static_cast<float>(p.min_sediment_capacity)),
        min_slope(static_cast<float>(p.min_slope)),
        erode_speed(static_cast<float>(p.erode_speed)),
        deposit_speed(static_cast<float>(p.deposit_speed)),
        water_kept(static_cast<float>(1.0 - p.evaporate_speed)),
        gravity(static_cast<float>(p.gravity)),
        initial_water(static_cast<float>(p.initial_water)),
        initial_speed(static_cast<float>(p.initial_speed)),
        lifetime(p.max_lifetime) {}
};

// The map and, optionally, the per-cell output maps, all width x
// height_cells, row-major.
struct field_view {
  float* height = nullptr;
  float* erosion = nullptr;  // with deposition and flow: all given or all null
  float* deposition = nullptr;
  float* flow = nullptr;
  const std::uint8_t* sea = nullptr;  // base level "sea": nonzero = a sea cell, where droplets end
  int width = 0;
  int height_cells = 0;
  float top = std::numeric_limits<float>::infinity();  // the highest cell the map started from
  // The cells the budget counts: [core_x0, core_x1) x [core_y0, core_y1).
  // All of them by default; when the map was grown by a margin around the
  // region it stands for (apply_hydraulic_erosion), the region's cells: the
  // droplets move and change the margin too, but its cells are cropped
  // away, so what they give or get counts as crossing the region's edge.
  int core_x0 = 0, core_y0 = 0;
  int core_x1 = std::numeric_limits<int>::max(), core_y1 = std::numeric_limits<int>::max();
  bool margin = false;  // the core is not the whole map (a flag: the hot paths test it first)

  void set_core(int x0, int y0, int x1, int y1) {
    core_x0 = x0;
    core_y0 = y0;
    core_x1 = x1;
    core_y1 = y1;
    margin = x0 > 0 || y0 > 0 || x1 < width || y1 < height_cells;
  }
  [[nodiscard]] bool in_core(int x, int y) const { return x >= core_x0 && x < core_x1 && y >= core_y0 && y < core_y1; }
  // Every cell of [x0, x1) x [y0, y1) counts.
  [[nodiscard]] bool counts_all(int x0, int y0, int x1, int y1) const {
    return !margin || (x0 >= core_x0 && x1 <= core_x1 && y0 >= core_y0 && y1 <= core_y1);
  }
  // No cell of [x0, x1) x [y0, y1) counts (it lies on the margin).
  [[nodiscard]] bool counts_none(int x0, int y0, int x1, int y1) const {
    return margin && (x1 <= core_x0 || x0 >= core_x1 || y1 <= core_y0 || y0 >= core_y1);
  }
};

// What a cell update changed, in height units: in all its cells (what the
// droplet takes or gives) and in the cells the budget counts (field_view's core).
struct cell_change {
  float total = 0.0f;
  float counted = 0.0f;
};

// Adds a cell update's counted part to a droplet's budget sum and returns
// its total, what the droplet's load changes by.
inline float tally(cell_change c, double& budget) {
  budget += static_cast<double>(c.counted);
  return c.total;
}

// Sums over droplets, in height units (and steps, droplets).
struct droplet_totals {
  double eroded = 0.0;
  double deposited = 0.0;
  double lost = 0.0;     // still carried when the droplet ended
  double outflow = 0.0;  // of which carried off the map
  std::uint64_t steps = 0;
  std::uint64_t droplets = 0;

  void add(const droplet_totals& o) {
    eroded += o.eroded;
    deposited += o.deposited;
    lost += o.lost;
    outflow += o.outflow;
    steps += o.steps;
    droplets += o.droplets;
  }
  // A droplet's end: what it eroded and deposited, what it still carries,
  // whether it left the map, and how many steps it moved.
  void end_droplet(double droplet_eroded, double droplet_deposited, float sediment, bool left, int life) {
    eroded += droplet_eroded;
    deposited += droplet_deposited;
    lost += static_cast<double>(sediment);
    if (left) outflow += static_cast<double>(sediment);
    steps += static_cast<std::uint64_t>(life);
    droplets += 1;
  }
};

// Cells a droplet can read or write, counted from its start cell in x or y:
// one cell per step (it erodes and reads around positions at most
// max_lifetime cells away), plus the stencil's extent from the droplet's cell
// (zero padding included), plus one for the bilinear neighbour, one for the
// start cell's offset and one of margin for float rounding of the positions.
inline int reach(const hydraulic_erosion_params& p, const erosion_brush& brush) {
  return p.max_lifetime + brush.extent() + 3;
}

}  // namespace landform::droplet
