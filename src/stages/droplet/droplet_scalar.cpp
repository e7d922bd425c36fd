#include "stages/droplet/droplet_scalar.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "landform/core/error.hpp"
#include "stages/droplet/droplet_cells.hpp"

namespace landform::droplet {

namespace {

// A droplet's state between steps.
struct droplet_state {
  float x = 0.0f, y = 0.0f;  // position, cells
  float dir_x = 0.0f, dir_y = 0.0f;
  float speed = 0.0f;
  float water = 0.0f;
  float sediment = 0.0f;
  int life = 0;  // steps moved
  double eroded = 0.0, deposited = 0.0;
};

// The height at (x, y) by bilinear interpolation of the four cells around it,
// in the lanes' order of operations.
float bilinear_height(const float* map, int width, float x, float y) {
  const int nx = static_cast<int>(x), ny = static_cast<int>(y);
  const float u = x - static_cast<float>(nx), v = y - static_cast<float>(ny);
  const int n = ny * width + nx;
  const float h00 = map[n], h10 = map[n + 1], h01 = map[n + width], h11 = map[n + width + 1];
  return (h00 * (1.0f - u) + h10 * u) * (1.0f - v) + (h01 * (1.0f - u) + h11 * u) * v;
}

template <bool k_maps>
void run_droplet(const field_view& f, const droplet_constants& c, const erosion_brush& brush, particle_start start,
                 droplet_totals& t) {
  const int w = f.width, ht = f.height_cells;
  const float* map = f.height;
  droplet_state d;
  d.x = start.x;
  d.y = start.y;
  d.speed = c.initial_speed;
  d.water = c.initial_water;
  const float keep_gradient = 1.0f - c.inertia;
  for (;;) {
    const int node_x = static_cast<int>(d.x), node_y = static_cast<int>(d.y);
    const float u = d.x - static_cast<float>(node_x), v = d.y - static_cast<float>(node_y);
    const int node = node_y * w + node_x;
    const float h00 = map[node], h10 = map[node + 1], h01 = map[node + w], h11 = map[node + w + 1];
    const float grad_x = (h10 - h00) * (1.0f - v) + (h11 - h01) * v;
    const float grad_y = (h01 - h00) * (1.0f - u) + (h11 - h10) * u;
    const float height = (h00 * (1.0f - u) + h10 * u) * (1.0f - v) + (h01 * (1.0f - u) + h11 * u) * v;

    float dx = d.dir_x * c.inertia - grad_x * keep_gradient;
    float dy = d.dir_y * c.inertia - grad_y * keep_gradient;
    const float len = std::sqrt(dx * dx + dy * dy);
    const bool has_direction = len > 1e-20f;
    const float inv_len = has_direction ? 1.0f / len : 0.0f;
    dx *= inv_len;
    dy *= inv_len;
    const float next_x = d.x + dx, next_y = d.y + dy;
    const bool in_bounds =
        next_x >= 0.0f && next_x < static_cast<float>(w - 1) && next_y >= 0.0f && next_y < static_cast<float>(ht - 1);
    bool on_map = in_bounds;
    if (on_map && f.sea != nullptr) {
      const auto cx = static_cast<std::ptrdiff_t>(next_x + 0.5f), cy = static_cast<std::ptrdiff_t>(next_y + 0.5f);
      on_map = f.sea[cy * w + cx] == 0;
    }
    const bool alive = d.life < c.lifetime && has_direction;
    const bool at_sea =
        f.sea != nullptr &&
        f.sea[static_cast<std::ptrdiff_t>(d.y + 0.5f) * w + static_cast<std::ptrdiff_t>(d.x + 0.5f)] != 0;
    if (alive && !in_bounds && !at_sea) {
      // Leaving across the edge: the last step still erodes, toward the
      // height continued along the gradient (as the lanes do; not from the
      // sea, which is base level).
      const float edge = std::max(height + grad_x * dx + grad_y * dy, std::min(std::min(h00, h10), std::min(h01, h11)));
      const float dh = edge - height;
      const float capacity =
          std::max(std::max(-dh, c.min_slope) * d.speed * d.water * c.capacity_factor, c.min_capacity);
      if (!(d.sediment > capacity || dh > 0.0f)) {
        const float want = std::min((capacity - d.sediment) * c.erode_speed, -dh);
        const cell_change erode = apply_brush<k_maps>(f, brush, node_x, node_y, u, v, want, edge);
        d.eroded += static_cast<double>(erode.counted);
        d.sediment = d.sediment + erode.total;
      }
    }
    if (!alive || !on_map) {
      const droplet_end end{node_x, node_y, u, v, d.sediment, alive, d.life};
      end_droplet<k_maps>(f, brush, end, d.eroded, d.deposited, t);
      return;
    }

    const float next_height = bilinear_height(map, w, next_x, next_y);
    const float dh = next_height - height;
    const float capacity = std::max(std::max(-dh, c.min_slope) * d.speed * d.water * c.capacity_factor, c.min_capacity);
    const bool uphill = dh > 0.0f;
    if (k_maps) {
      const int centre_x = node_x + (u >= 0.5f ? 1 : 0), centre_y = node_y + (v >= 0.5f ? 1 : 0);
      f.flow[static_cast<std::ptrdiff_t>(centre_y) * w + centre_x] += 1.0f;
    }
    if (d.sediment > capacity || uphill) {
      // Fill the pit (at most dh) or drop a share of the surplus.
      const float ceiling = std::max(height, next_height);
      const float want = uphill ? std::min(dh, d.sediment) : (d.sediment - capacity) * c.deposit_speed;
      const cell_change deposit = uphill ? deposit_settled<k_maps>(f, node_x, node_y, want, ceiling)
                                         : deposit_bilinear<k_maps>(f, node_x, node_y, u, v, want, ceiling);
      d.deposited += static_cast<double>(deposit.counted);
      d.sediment = std::max(0.0f, d.sediment - deposit.total);
    } else {
      // Erode a share of the free capacity, at most the drop.
      const float want = std::min((capacity - d.sediment) * c.erode_speed, -dh);
      const cell_change erode = apply_brush<k_maps>(f, brush, node_x, node_y, u, v, want, next_height);
      d.eroded += static_cast<double>(erode.counted);
      d.sediment = d.sediment + erode.total;
    }
    d.speed = std::sqrt(std::max(0.0f, d.speed * d.speed - dh * c.gravity));
    d.water = d.water * c.water_kept;
    d.dir_x = dx;
    d.dir_y = dy;
    d.x = next_x;
    d.y = next_y;
    ++d.life;
  }
}

}  // namespace

void run_droplet_scalar(const field_view& f, const droplet_constants& c, const erosion_brush& brush,
                        particle_start start, droplet_totals& t) {
  if (f.flow != nullptr) {
    run_droplet<true>(f, c, brush, start, t);
  } else {
    run_droplet<false>(f, c, brush, start, t);
  }
}

void run_tiles_scalar(const field_view& f, const droplet_constants& c, const erosion_brush& brush,
                      particle_tile_queue& queue, droplet_totals* tile_totals) {
  while (const particle_tile* tile = queue.take()) {
    for (const particle_start* s = tile->begin; s != tile->end; ++s) {
      if (queue.stop_requested()) throw cancelled_error();
      run_droplet_scalar(f, c, brush, *s, tile_totals[tile->id]);
    }
  }
}

}  // namespace landform::droplet
