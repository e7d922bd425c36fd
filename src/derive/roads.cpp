#include "landform/derive/roads.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <initializer_list>
#include <limits>
#include <numeric>
#include <optional>
#include <queue>
#include <stdexcept>
#include <string_view>
#include <tuple>
#include <utility>

#include "landform/core/error.hpp"
#include "landform/derive/distance.hpp"
#include "line_raster.hpp"

namespace landform {

namespace {

constexpr double k_unreached = std::numeric_limits<double>::infinity();

// The 16 moves: 8 king moves, then 8 knight moves.
constexpr std::array<int, 16> k_move_dx = {1, 1, 0, -1, -1, -1, 0, 1, 2, 1, -1, -2, -2, -1, 1, 2};
constexpr std::array<int, 16> k_move_dy = {0, -1, -1, -1, 0, 1, 1, 1, -1, -2, -2, -1, 1, 2, 2, 1};

std::size_t cell_index(int width, int x, int y) {
  return static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x);
}

// Column and row of cell c in a grid `width` wide.
int col_of(std::uint32_t c, int width) {
  return static_cast<int>(c % static_cast<std::uint32_t>(width));
}
int row_of(std::uint32_t c, int width) {
  return static_cast<int>(c / static_cast<std::uint32_t>(width));
}

bool is_land(const road_grid& g, int x, int y) {
  if (x < 0 || y < 0 || x >= g.width || y >= g.height) return false;
  const std::size_t c = cell_index(g.width, x, y);
  return g.blocked[c] == 0 && g.river[c] == 0;
}

// Union-find root with path halving (Kruskal's tree, road_reach's parts).
std::uint32_t tree_root(std::vector<std::uint32_t>& parent, std::uint32_t a) {
  while (parent[a] != a) {
    parent[a] = parent[parent[a]];
    a = parent[a];
  }
  return a;
}

// Whether the king or knight move (dx, dy) from (x, y) may be taken (its
// end is checked by the caller): a knight move passes over its two side
// cells, both must be land; a diagonal must not slip between two water cells
// (a D8 river).
bool move_allowed(const road_grid& g, int x, int y, int dx, int dy) {
  if (std::abs(dx) == 2 || std::abs(dy) == 2) {
    const int sx = std::abs(dx) == 2 ? dx / 2 : 0, sy = std::abs(dy) == 2 ? dy / 2 : 0;
    const int ax = std::abs(dx) == 2 ? dx / 2 : dx, ay = std::abs(dy) == 2 ? dy / 2 : dy;
    return is_land(g, x + sx, y + sy) && is_land(g, x + ax, y + ay);
  }
  if (dx != 0 && dy != 0) return is_land(g, x + dx, y) || is_land(g, x, y + dy);
  return true;
}

// For every cell: the distance (m) to the nearest road step so far and the
// bed height (m) at that nearest point.
struct nearest_step {
  std::vector<double>& best;
  std::vector<double>& best_bed;
  int width, height;
  double cs;
  // Step a-b (cell coordinates) with bed heights za, zb, over the cells
  // within `reach` cells.
  void stamp(std::array<double, 2> a, std::array<double, 2> b, double za, double zb, double reach) const {
    const int x0 = std::max(0, static_cast<int>(std::floor(std::min(a[0], b[0]) - reach)));
    const int x1 = std::min(width - 1, static_cast<int>(std::ceil(std::max(a[0], b[0]) + reach)));
    const int y0 = std::max(0, static_cast<int>(std::floor(std::min(a[1], b[1]) - reach)));
    const int y1 = std::min(height - 1, static_cast<int>(std::ceil(std::max(a[1], b[1]) + reach)));
    const double dx = b[0] - a[0], dy = b[1] - a[1], len2 = dx * dx + dy * dy;
    for (int y = y0; y <= y1; ++y) {
      for (int x = x0; x <= x1; ++x) {
        const double t = std::clamp(((x - a[0]) * dx + (y - a[1]) * dy) / len2, 0.0, 1.0);
        const double ex = x - (a[0] + t * dx), ey = y - (a[1] + t * dy);
        const double d = std::sqrt(ex * ex + ey * ey) * cs;
        const std::size_t c = cell_index(width, x, y);
        if (d < best[c]) {
          best[c] = d;
          best_bed[c] = (1.0 - t) * za + t * zb;
        }
      }
    }
  }
};

// The lower (sign 1) or upper (sign -1) g-Lipschitz envelope of `values` on
// a graph (edges with lengths in m): min over a of values[a] + g d(a, b), or
// the max of values[a] - g d(a, b); one Dijkstra.
std::vector<double> lipschitz_envelope(const std::vector<double>& values,
                                       const std::vector<std::vector<std::pair<std::size_t, double>>>& adjacent,
                                       double grade, double sign) {
  std::vector<double> e(values.size());
  for (std::size_t v = 0; v < values.size(); ++v) e[v] = sign * values[v];
  using entry = std::pair<double, std::size_t>;
  std::priority_queue<entry, std::vector<entry>, std::greater<>> q;
  for (std::size_t v = 0; v < values.size(); ++v) q.emplace(e[v], v);
  while (!q.empty()) {
    const auto [value, v] = q.top();
    q.pop();
    if (value != e[v]) continue;
    for (const auto& [u, run] : adjacent[v]) {
      const double limit = e[v] + grade * run;
      if (limit < e[u]) {
        e[u] = limit;
        q.emplace(limit, u);
      }
    }
  }
  for (double& v : e) v *= sign;
  return e;
}

// A bridge from (x, y) straight on in direction (dx, dy) over river cells
// (at most max_bridge_m of them) to land: the steps to that land cell, or 0
// when there is none.
int bridge_steps(const road_grid& g, const road_params& p, int x, int y, int dx, int dy, double run) {
  for (int t = 1; (t - 1) * run <= p.max_bridge_m; ++t) {
    const int bx = x + t * dx, by = y + t * dy;
    if (bx < 0 || by < 0 || bx >= g.width || by >= g.height) return 0;
    const std::size_t b = cell_index(g.width, bx, by);
    if (g.blocked[b] != 0) return 0;
    if (g.river[b] == 0) return t;
  }
  return 0;
}

// Length, steepest grade and bridges of a path's cells.
void measure(road_path& path, const road_grid& g) {
  for (std::size_t k = 0; k + 1 < path.cells.size(); ++k) {
    const std::uint32_t a = path.cells[k], b = path.cells[k + 1];
    const double dx = col_of(b, g.width) - col_of(a, g.width);
    const double dy = row_of(b, g.width) - row_of(a, g.width);
    const double run = std::sqrt(dx * dx + dy * dy) * g.cell_size;
    path.length_m += run;
    path.max_grade_percent = std::max(path.max_grade_percent, std::abs(g.z[b] - g.z[a]) / run * 100.0);
    path.bridges += path.bridge[k];
  }
}

}  // namespace

road_grid make_road_grid(const heightfield& h, double height_scale, const water_maps& w) {
  road_grid g;
  g.width = h.width();
  g.height = h.height();
  g.cell_size = h.placement().cell_size;
  const std::size_t n = h.size();
  g.z.resize(n);
  g.blocked.assign(n, 0);
  g.river.assign(n, 0);
  for (std::size_t c = 0; c < n; ++c) {
    g.z[c] = static_cast<double>(h.data()[c]) * height_scale;
    const bool lake =
        !w.lake.empty() && w.lake[c] >= 0 && !w.lakes[static_cast<std::size_t>(w.lake[c])].dry && w.depth[c] > 0.0f;
    g.blocked[c] = (!w.ocean.empty() && w.ocean[c] != 0) || lake ? 1 : 0;
    g.river[c] = g.blocked[c] == 0 && !w.is_river.empty() && w.is_river[c] != 0 ? 1 : 0;
  }
  return g;
}

double road_step_cost(double run_m, double rise_m, const road_params& p) {
  const double grade = std::abs(rise_m) / run_m;
  const double max_grade = p.max_grade_percent / 100.0;
  if (grade > max_grade) return -1.0;
  const double r = grade / max_grade;
  return run_m * (1.0 + p.grade_penalty * r * r);
}

namespace {

// A search state's link byte: how the state was reached. With turning, the
// state is (cell, direction of the entering move) and the low bits hold the
// parent state's direction; without, the state is the cell and they hold
// the entering move.
constexpr std::uint8_t k_link_move = 0x0f;
constexpr std::uint8_t k_link_bridge = 0x20;
constexpr std::uint8_t k_link_start = 0x40;
constexpr std::uint8_t k_link_done = 0x80;

// The angle (radians, 0..pi) between moves a and b, times the penalty.
std::array<double, 256> turn_costs(double penalty) {
  std::array<double, 256> t{};
  for (std::size_t a = 0; a < 16; ++a) {
    for (std::size_t b = 0; b < 16; ++b) {
      const double dot = k_move_dx[a] * k_move_dx[b] + k_move_dy[a] * k_move_dy[b];
      const double cross = k_move_dx[a] * k_move_dy[b] - k_move_dy[a] * k_move_dx[b];
      t[a * 16 + b] = penalty * std::abs(std::atan2(cross, dot));
    }
  }
  return t;
}

// Move k from cell c: the cell it lands on (`land`; past the river for a
// bridge, `bridge` set) and its cost without turning; negative when the move
// is not allowed.
double move_cost(const road_grid& g, const road_params& p, std::uint32_t c, int k, std::uint32_t& land, bool& bridge) {
  const int x = col_of(c, g.width), y = row_of(c, g.width);
  const int dx = k_move_dx[static_cast<std::size_t>(k)], dy = k_move_dy[static_cast<std::size_t>(k)];
  const int nx = x + dx, ny = y + dy;
  if (nx < 0 || ny < 0 || nx >= g.width || ny >= g.height) return -1.0;
  const std::size_t m = cell_index(g.width, nx, ny);
  if (g.blocked[m] != 0) return -1.0;
  const double run = std::sqrt(static_cast<double>(dx * dx + dy * dy)) * g.cell_size;
  double cost = 0.0;
  bridge = g.river[m] != 0;
  if (bridge) {
    // A bridge: straight on over river cells (king directions only) to land.
    if (k >= 8) return -1.0;
    const int t = bridge_steps(g, p, x, y, dx, dy, run);
    if (t == 0) return -1.0;
    land = static_cast<std::uint32_t>(cell_index(g.width, x + t * dx, y + t * dy));
    cost = road_step_cost(t * run, g.z[land] - g.z[c], p);  // end to end over (t - 1) river cells
    if (cost < 0.0) return -1.0;
    cost += p.bridge_cost;
  } else {
    if (!move_allowed(g, x, y, dx, dy)) return -1.0;
    land = static_cast<std::uint32_t>(m);
    cost = road_step_cost(run, g.z[m] - g.z[c], p);
    if (cost < 0.0) return -1.0;
  }
  if (p.follow != nullptr) cost *= 1.0 - (1.0 - p.follow_factor) * std::clamp((*p.follow)[land], 0.0f, 1.0f);
  return cost;
}

// The exact cost-to-go to `to` without turning, per cell: an A* backwards
// over the cell graph (the same moves, bridges and follow layer as
// find_road; bound: the straight distance to `from` x the cheapest cost per
// metre, f), stopped when `from` is settled at cost C. A cell c not settled
// then has cost-to-go >= C - f |c - from|, and >= f |c - to|: it takes the
// larger. Both are f-Lipschitz and the settled cells' exact costs are <=
// C - f |c - from|, so the whole is a consistent A* bound for the search over
// (cell, heading) states (turning only adds cost), and a tight one: that
// search keeps to a corridor around the path. Empty when `to` cannot be
// reached from `from`.
std::vector<double> cost_to_go(const road_grid& g, const road_params& p, int moves, std::uint32_t from,
                               std::uint32_t to, double min_factor) {
  auto straight = [&](std::uint32_t c, std::uint32_t t) {
    const double dx = col_of(c, g.width) - col_of(t, g.width);
    const double dy = row_of(c, g.width) - row_of(t, g.width);
    return std::sqrt(dx * dx + dy * dy) * g.cell_size * min_factor;
  };
  const std::size_t n = static_cast<std::size_t>(g.width) * static_cast<std::size_t>(g.height);
  std::vector<double> h(n, k_unreached);
  std::vector<std::uint8_t> done(n, 0);
  using entry = std::pair<double, std::uint32_t>;  // (cost to go + bound, cell): ties by cell index
  std::priority_queue<entry, std::vector<entry>, std::greater<>> open;
  h[to] = 0.0;
  open.emplace(straight(to, from), to);
  while (!open.empty()) {
    const std::uint32_t m = open.top().second;
    open.pop();
    if (done[m] != 0) continue;
    done[m] = 1;
    if (m == from) break;
    const double d = h[m];
    for (int k = 0; k < moves; ++k) {
      // The cell the move k into m starts from: one step back, or for a
      // bridge the first land cell behind the river cells. `from` itself
      // may be water (a sites_layer cell on the flattened terrain), and is
      // left from like land, as the forward search does.
      const int dx = k_move_dx[static_cast<std::size_t>(k)], dy = k_move_dy[static_cast<std::size_t>(k)];
      int x = col_of(m, g.width) - dx, y = row_of(m, g.width) - dy;
      while (x >= 0 && y >= 0 && x < g.width && y < g.height && g.river[cell_index(g.width, x, y)] != 0 &&
             cell_index(g.width, x, y) != from) {
        x -= dx;
        y -= dy;
      }
      if (x < 0 || y < 0 || x >= g.width || y >= g.height) continue;
      const auto c = static_cast<std::uint32_t>(cell_index(g.width, x, y));
      if (done[c] != 0 || (g.blocked[c] != 0 && c != from)) continue;
      std::uint32_t land = 0;
      bool bridge = false;
      const double cost = move_cost(g, p, c, k, land, bridge);
      if (cost < 0.0 || land != m) continue;
      if (d + cost < h[c]) {
        h[c] = d + cost;
        open.emplace(h[c] + straight(c, from), c);
      }
    }
  }
  if (done[from] == 0) return {};
  const double total = h[from];
  for (std::uint32_t c = 0; c < n; ++c) {
    if (done[c] == 0) h[c] = std::max(total - straight(c, from), straight(c, to));
  }
  return h;
}

}  // namespace

void road_search_memory::prepare(std::size_t states, std::size_t cells) {
  if (dist.size() != states) {
    dist.assign(states, std::numeric_limits<float>::infinity());
    link.assign(states, 0);
  } else {
    for (const std::uint32_t s : touched) {
      dist[s] = std::numeric_limits<float>::infinity();
      link[s] = 0;
    }
  }
  touched.clear();
  if (costed.size() != cells) {
    costed.assign(cells, 0);
  } else {
    for (const std::uint32_t c : costed_cells) costed[c] = 0;
  }
  costed_cells.clear();
  steps.clear();
}

// Up to 2^22 moves (64 MB) are kept; past that a cell is costed again each
// time (the same values).
const road_search_memory::step* road_search_memory::steps_of(const road_grid& g, const road_params& p,
                                                             std::uint32_t c) {
  constexpr std::size_t k_max_kept_steps = std::size_t{1} << 22;
  if (costed[c] != 0) return steps.data() + static_cast<std::size_t>(costed[c] - 1) * 16;
  const bool keep = steps.size() < k_max_kept_steps;
  if (keep) {
    costed_cells.push_back(c);
    costed[c] = static_cast<std::uint32_t>(steps.size() / 16 + 1);
  }
  const int moves = p.neighbours == 16 ? 16 : 8;
  for (int k = 0; k < 16; ++k) {
    step& e = scratch[static_cast<std::size_t>(k)];
    e = {};
    if (k < moves) e.cost = move_cost(g, p, c, k, e.land, e.bridge);
    if (keep) steps.push_back(e);
  }
  return scratch.data();
}

road_path find_road(const road_grid& g, const road_params& p, std::uint32_t from, std::uint32_t to,
                    road_search_memory* memory) {
  const std::size_t n = static_cast<std::size_t>(g.width) * static_cast<std::size_t>(g.height);
  const double cs = g.cell_size;
  const auto to_x = col_of(to, g.width);
  const auto to_y = row_of(to, g.width);
  const int moves = p.neighbours == 16 ? 16 : 8;
  // Turning needs the entering direction in the state; without it one state a cell.
  const bool turning = p.curvature_penalty > 0.0;
  const auto dirs = static_cast<std::uint32_t>(turning ? moves : 1);
  const std::array<double, 256> turn = turn_costs(p.curvature_penalty);
  // States are numbered in 32 bits (a 16384^2 world with turning would not fit).
  if (n * dirs > std::numeric_limits<std::uint32_t>::max()) {
    throw std::length_error("find_road: " + std::to_string(n) + " cells x " + std::to_string(dirs) +
                            " directions exceed 2^32 search states");
  }
  // The A* bound: with turning, the exact cost-to-go without it (one
  // backward Dijkstra on cells, which also finds unreachable links before
  // the 8 or 16 times larger search); without, the straight distance times
  // the cheapest cost per metre anywhere. Both admissible and consistent.
  const double min_factor = p.follow != nullptr ? std::min(1.0, p.follow_factor) : 1.0;
  std::vector<double> to_go;
  if (turning) {
    to_go = cost_to_go(g, p, moves, from, to, min_factor);
    if (to_go.empty()) return {};
  }
  auto bound = [&](std::uint32_t c) {
    if (turning) return to_go[c];
    const double dx = col_of(c, g.width) - to_x;
    const double dy = row_of(c, g.width) - to_y;
    return std::sqrt(dx * dx + dy * dy) * cs * min_factor;
  };
  // float distances and one link byte a state: 16 directions at 2048^2 cells
  // take 335 MB (and 32 MB of cost-to-go), not the 600 MB of doubles and
  // parent indices.
  road_search_memory own;
  road_search_memory& mem = memory != nullptr ? *memory : own;
  mem.prepare(n * dirs, n);
  std::vector<float>& dist = mem.dist;
  std::vector<std::uint8_t>& link = mem.link;
  using entry = std::pair<float, std::uint32_t>;  // (cost + bound, state): ties by state index
  std::priority_queue<entry, std::vector<entry>, std::greater<>> open;
  // The first step turns for free: `from` is entered from every direction.
  for (std::uint32_t d = 0; d < dirs; ++d) {
    dist[from * dirs + d] = 0.0f;
    link[from * dirs + d] = k_link_start;
    mem.touched.push_back(from * dirs + d);
    open.emplace(static_cast<float>(bound(from)), from * dirs + d);
  }
  std::uint32_t reached = std::numeric_limits<std::uint32_t>::max();
  while (!open.empty()) {
    const std::uint32_t s = open.top().second;
    open.pop();
    if ((link[s] & k_link_done) != 0) continue;
    link[s] |= k_link_done;
    const std::uint32_t c = s / dirs, d = s % dirs;
    if (c == to) {
      reached = s;
      break;
    }
    const double here = dist[s];
    const bool first = (link[s] & k_link_start) != 0;
    const road_search_memory::step* out = mem.steps_of(g, p, c);
    for (int k = 0; k < moves; ++k) {
      const auto [step_cost, m, bridge] = out[k];
      double cost = step_cost;
      if (cost < 0.0) continue;
      const std::uint32_t md = turning ? static_cast<std::uint32_t>(k) : 0;
      const std::uint32_t ms = m * dirs + md;
      if ((link[ms] & k_link_done) != 0) continue;
      if (turning && !first) cost += turn[d * 16 + static_cast<std::uint32_t>(k)];
      const auto total = static_cast<float>(here + cost);
      if (total < dist[ms]) {
        mem.touched.push_back(ms);  // reset by the next prepare() (twice if improved: harmless)
        dist[ms] = total;
        link[ms] =
            static_cast<std::uint8_t>((turning ? d : static_cast<std::uint32_t>(k)) | (bridge ? k_link_bridge : 0u));
        open.emplace(static_cast<float>(total + bound(m)), ms);
      }
    }
  }
  road_path path;
  if (reached == std::numeric_limits<std::uint32_t>::max()) return path;
  // Back along the links; a bridge's take-off is the first land cell behind
  // its landing.
  std::vector<int> entering;  // per cell after the first: the move that entered it
  for (std::uint32_t s = reached;;) {
    const std::uint32_t c = s / dirs;
    path.cells.push_back(c);
    if ((link[s] & k_link_start) != 0) break;
    const std::uint32_t low = link[s] & k_link_move;
    const auto k = static_cast<std::size_t>(turning ? s % dirs : low);
    const bool bridge = (link[s] & k_link_bridge) != 0;
    int x = col_of(c, g.width) - k_move_dx[k], y = row_of(c, g.width) - k_move_dy[k];
    while (bridge && g.river[cell_index(g.width, x, y)] != 0) {
      x -= k_move_dx[k];
      y -= k_move_dy[k];
    }
    path.bridge.push_back(bridge ? 1 : 0);
    entering.push_back(static_cast<int>(k));
    s = static_cast<std::uint32_t>(cell_index(g.width, x, y)) * dirs + (turning ? low : 0);
  }
  std::reverse(path.cells.begin(), path.cells.end());
  std::reverse(path.bridge.begin(), path.bridge.end());
  std::reverse(entering.begin(), entering.end());
  // The cost again in double (the search kept float sums).
  const std::array<double, 256> angle = turn_costs(1.0);
  for (std::size_t k = 0; k < entering.size(); ++k) {
    std::uint32_t m = 0;
    bool bridge = false;
    path.cost += move_cost(g, p, path.cells[k], entering[k], m, bridge);
    if (k == 0) continue;
    const auto a = static_cast<std::size_t>(entering[k - 1]) * 16 + static_cast<std::size_t>(entering[k]);
    path.turning_rad += angle[a];
    if (turning) path.cost += turn[a];
  }
  measure(path, g);
  return path;
}

namespace {

// Distance (m) of every cell to water (sea, lakes, rivers); infinite without
// water.
std::vector<double> water_distance(const road_grid& g) {
  std::vector<std::uint8_t> water(g.z.size(), 0);
  for (std::size_t c = 0; c < water.size(); ++c) {
    if (g.blocked[c] != 0 || g.river[c] != 0) water[c] = 1;
  }
  return chamfer_distance(water, g.width, g.height, g.cell_size);
}

// Deterministic automatic sites: the flattest dry cells near water, spaced
// apart (no randomness).
std::vector<std::uint32_t> choose_sites(const road_grid& g, const road_params& p) {
  const int width = g.width, height = g.height;
  const double cs = g.cell_size;
  const std::vector<double> dw = water_distance(g);
  const double spacing = std::sqrt(static_cast<double>(width) * height * cs * cs / p.sites);
  const double near_m = spacing / 4.0;
  const double max_grade = p.max_grade_percent / 100.0;
  std::vector<std::pair<double, std::uint32_t>> scored;
  const int margin = 2;
  for (int y = margin; y < height - margin; ++y) {
    for (int x = margin; x < width - margin; ++x) {
      const std::size_t c = cell_index(width, x, y);
      if (dw[c] == 0.0) continue;
      double grade = 0.0;
      for (std::size_t k = 0; k < 8; ++k) {
        const std::size_t m = cell_index(width, x + k_move_dx[k], y + k_move_dy[k]);
        const double run = (k % 2 == 0 ? 1.0 : std::sqrt(2.0)) * cs;
        grade = std::max(grade, std::abs(g.z[m] - g.z[c]) / run);
      }
      if (grade > max_grade) continue;
      scored.emplace_back(grade / max_grade + (dw[c] == k_unreached ? 10.0 : dw[c] / near_m),
                          static_cast<std::uint32_t>(c));
    }
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::uint32_t> sites;
  const double min_cells = 0.5 * spacing / cs;
  for (const auto& [score, c] : scored) {
    if (static_cast<int>(sites.size()) == p.sites) break;
    const int x = col_of(c, width), y = row_of(c, width);
    const bool spaced = std::all_of(sites.begin(), sites.end(), [&](std::uint32_t s) {
      const double dx = col_of(s, width) - x;
      const double dy = row_of(s, width) - y;
      return dx * dx + dy * dy >= min_cells * min_cells;
    });
    if (spaced) sites.push_back(c);
  }
  return sites;
}

}  // namespace

namespace {

// The cell nearest to world point `pt` (m) on `grid`, when its centre is in
// the grid: the extent is closed, a point on its edge takes the border cell.
std::optional<std::uint32_t> nearest_cell(const std::array<double, 2>& pt, const region& grid) {
  const double fx = pt[0] / grid.cell_size - static_cast<double>(grid.origin_x);
  const double fy = pt[1] / grid.cell_size - static_cast<double>(grid.origin_y);
  if (!(fx >= -0.5 && fy >= -0.5 && fx <= grid.width - 0.5 && fy <= grid.height - 0.5)) return std::nullopt;
  const int x = std::clamp(static_cast<int>(std::floor(fx + 0.5)), 0, grid.width - 1);
  const int y = std::clamp(static_cast<int>(std::floor(fy + 0.5)), 0, grid.height - 1);
  return static_cast<std::uint32_t>(cell_index(grid.width, x, y));
}

// The parts one after another (one append each: GCC 12 -O3 warns of a
// bogus memcpy bound, -Wstringop-overflow, in long operator+ chains).
std::string cat(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (const std::string_view part : parts) out += part;
  return out;
}

std::string shown_point(const std::array<double, 2>& pt) {
  return cat({"[", format_number(pt[0]), ", ", format_number(pt[1]), "] m"});
}

// Whether a road can run from site cell `a` to site cell `b` on `labels`
// (road_reach): `b` must be land in a's part; a start on water (a
// sites_layer cell on flattened terrain) is left like land, as find_road
// does, so one of its moves must land in b's part.
bool joined(const road_grid& g, const road_params& p, const std::vector<std::int32_t>& labels, std::uint32_t a,
            std::uint32_t b) {
  if (labels[b] < 0) return false;
  if (labels[a] >= 0) return labels[a] == labels[b];
  const int moves = p.neighbours == 16 ? 16 : 8;
  for (int k = 0; k < moves; ++k) {
    std::uint32_t land = 0;
    bool bridge = false;
    if (move_cost(g, p, a, k, land, bridge) >= 0.0 && labels[land] == labels[b]) return true;
  }
  return false;
}

// road_reach() labels with the grade limit, the bridge span or both lifted,
// each computed when a link first needs it.
struct relaxed_reach {
  std::array<std::vector<std::int32_t>, 3> labels;
};

// What parts sites a and b: the first relaxation of the limits (grade, bridge
// span, both) that joins them, else water.
road_barrier barrier_between(const road_grid& g, const road_params& p, std::uint32_t a, std::uint32_t b,
                             relaxed_reach& relaxed) {
  constexpr double k_none = std::numeric_limits<double>::infinity();
  const std::array<road_barrier, 3> barriers = {road_barrier::grade, road_barrier::river,
                                                road_barrier::grade_and_river};
  for (std::size_t k = 0; k < barriers.size(); ++k) {
    road_params q = p;
    if (k != 1) q.max_grade_percent = k_none;
    if (k != 0) q.max_bridge_m = k_none;
    if (relaxed.labels[k].empty()) relaxed.labels[k] = road_reach(g, q);
    if (joined(g, q, relaxed.labels[k], a, b)) return barriers[k];
  }
  return road_barrier::water;
}

}  // namespace

std::string describe_barrier(road_barrier barrier, const road_params& p) {
  const std::string grade = cat({"a step steeper than max_grade_percent (", format_number(p.max_grade_percent), " %)"});
  const std::string river = p.max_bridge_m > 0.0
                                ? cat({"a river wider than max_bridge_m (", format_number(p.max_bridge_m), " m)"})
                                : std::string("a river, and max_bridge_m is 0 (no bridges)");
  switch (barrier) {
    case road_barrier::grade:
      return cat({"every route has ", grade});
    case road_barrier::river:
      return cat({"every route crosses ", river});
    case road_barrier::grade_and_river:
      return cat({"every route has ", grade, " or crosses ", river});
    case road_barrier::water:
      break;
  }
  return "the sea or a lake lies between the sites (or a site is on water), whatever the grade and bridge limits";
}

std::vector<preset_issue> road_point_issues(const std::vector<std::array<double, 2>>& points, const region& world) {
  std::vector<preset_issue> issues;
  std::vector<std::pair<std::uint32_t, std::size_t>> taken;  // (cell, point index)
  for (std::size_t k = 0; k < points.size(); ++k) {
    std::string where = cat({"points[", std::to_string(k), "]"});
    const std::optional<std::uint32_t> c = nearest_cell(points[k], world);
    if (!c) {
      auto edge = [&](std::int64_t origin, int size) {
        return cat({"[", format_number((static_cast<double>(origin) - 0.5) * world.cell_size), ", ",
                    format_number((static_cast<double>(origin + size) - 0.5) * world.cell_size), "]"});
      };
      issues.push_back({std::move(where),
                        cat({shown_point(points[k]), " is outside the world extent ", edge(world.origin_x, world.width),
                             " x ", edge(world.origin_y, world.height), " m (", std::to_string(world.width), " x ",
                             std::to_string(world.height), " cells of ", format_number(world.cell_size),
                             " m, centred on x = column x cell_size, y = row x cell_size)"})});
      continue;
    }
    const auto same = std::find_if(taken.begin(), taken.end(), [&](const auto& t) { return t.first == *c; });
    if (same != taken.end()) {
      issues.push_back(
          {std::move(where),
           cat({shown_point(points[k]), " is in the same cell (column ", std::to_string(col_of(*c, world.width)),
                ", row ", std::to_string(row_of(*c, world.width)), ") as points[", std::to_string(same->second), "] ",
                shown_point(points[same->second]), "; a road needs two different cells"})});
      continue;
    }
    taken.emplace_back(*c, k);
  }
  return issues;
}

std::vector<std::int32_t> road_reach(const road_grid& g, const road_params& p) {
  const std::size_t n = g.z.size();
  std::vector<std::uint32_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0u);
  const int moves = p.neighbours == 16 ? 16 : 8;
  for (std::uint32_t c = 0; c < n; ++c) {
    if (g.blocked[c] != 0 || g.river[c] != 0) continue;
    for (int k = 0; k < moves; ++k) {
      // Every move is allowed both ways (the same grade, side cells and
      // bridge span), so the moves pointing forward suffice.
      const int dx = k_move_dx[static_cast<std::size_t>(k)], dy = k_move_dy[static_cast<std::size_t>(k)];
      if (dy < 0 || (dy == 0 && dx < 0)) continue;
      std::uint32_t land = 0;
      bool bridge = false;
      if (move_cost(g, p, c, k, land, bridge) < 0.0) continue;
      const std::uint32_t ra = tree_root(parent, c), rb = tree_root(parent, land);
      if (ra != rb) parent[std::max(ra, rb)] = std::min(ra, rb);
    }
  }
  std::vector<std::int32_t> labels(n, -1);
  for (std::uint32_t c = 0; c < n; ++c) {
    if (g.blocked[c] == 0 && g.river[c] == 0) labels[c] = static_cast<std::int32_t>(tree_root(parent, c));
  }
  return labels;
}

road_network compute_roads(const heightfield& h, double height_scale, const water_maps& w, const road_params& p) {
  road_network net;
  net.width = h.width();
  net.height = h.height();
  const road_grid g = make_road_grid(h, height_scale, w);
  const region& grid = h.placement();
  if (p.site_layer != nullptr) {
    for (std::size_t c = 0; c < h.size(); ++c) {
      if ((*p.site_layer)[c] >= 0.5f) net.sites.push_back(static_cast<std::uint32_t>(c));
    }
  } else if (!p.points.empty()) {
    std::vector<preset_issue> issues = road_point_issues(p.points, grid);
    if (issues.empty()) {
      for (std::size_t k = 0; k < p.points.size(); ++k) {
        const std::uint32_t c = *nearest_cell(p.points[k], grid);
        if (g.blocked[c] != 0 || g.river[c] != 0) {
          issues.push_back({cat({"points[", std::to_string(k), "]"}),
                            cat({shown_point(p.points[k]), " lies on water (sea, lake or river)"})});
        }
        net.sites.push_back(c);
      }
    }
    // Every misplaced point at once.
    if (!issues.empty()) throw preset_error(std::move(issues));
  } else {
    net.sites = choose_sites(g, p);
  }
  // Euclidean minimum spanning tree over the sites (Kruskal, ties by index).
  const std::size_t s = net.sites.size();
  std::vector<std::tuple<double, std::uint32_t, std::uint32_t>> links;
  for (std::uint32_t a = 0; a < s; ++a) {
    for (std::uint32_t b = a + 1; b < s; ++b) {
      const double dx = static_cast<double>(col_of(net.sites[a], net.width) - col_of(net.sites[b], net.width));
      const double dy = static_cast<double>(row_of(net.sites[a], net.width) - row_of(net.sites[b], net.width));
      links.emplace_back(dx * dx + dy * dy, a, b);
    }
  }
  std::sort(links.begin(), links.end());
  std::vector<std::uint32_t> parent(s);
  std::iota(parent.begin(), parent.end(), 0u);
  std::vector<std::int32_t> labels;
  road_search_memory memory;
  relaxed_reach relaxed;
  for (const auto& [d2, a, b] : links) {
    const std::uint32_t ra = tree_root(parent, a), rb = tree_root(parent, b);
    if (ra == rb) continue;
    parent[std::max(ra, rb)] = std::min(ra, rb);
    // Labels once for all links: an unreachable link costs no search (the
    // search would settle every state it can reach first).
    if (labels.empty()) labels = road_reach(g, p);
    if (!joined(g, p, labels, net.sites[a], net.sites[b])) {
      net.unreachable.push_back({a, b, barrier_between(g, p, net.sites[a], net.sites[b], relaxed)});
      continue;
    }
    road_path path = find_road(g, p, net.sites[a], net.sites[b], &memory);
    if (path.cells.empty()) throw std::logic_error("compute_roads: road_reach joins sites find_road cannot link");
    path.from_site = a;
    path.to_site = b;
    net.roads.push_back(std::move(path));
  }
  net.mask.assign(h.size(), 0.0f);
  const double half = p.width_m / 2.0 / grid.cell_size;
  for (const road_path& r : net.roads) {
    for (std::size_t k = 0; k + 1 < r.cells.size(); ++k) {
      const std::array<double, 2> a = {static_cast<double>(col_of(r.cells[k], net.width)),
                                       static_cast<double>(row_of(r.cells[k], net.width))};
      const std::array<double, 2> b = {static_cast<double>(col_of(r.cells[k + 1], net.width)),
                                       static_cast<double>(row_of(r.cells[k + 1], net.width))};
      detail::stamp_capsule(net.mask, net.width, net.height, a, b, half);
    }
  }
  return net;
}

std::vector<float> flatten_roads(heightfield& h, double height_scale, const road_network& n, const road_params& p,
                                 double shoulder_m, const water_maps& w) {
  const road_grid g = make_road_grid(h, height_scale, w);
  const int width = n.width, height = n.height;
  const double cs = g.cell_size;
  std::vector<float> layer(h.size(), 0.0f);
  if (n.roads.empty()) return layer;
  // Road graph: nodes = road cells (sorted), edges = the roads' steps.
  std::vector<std::uint32_t> nodes;
  for (const road_path& r : n.roads) nodes.insert(nodes.end(), r.cells.begin(), r.cells.end());
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  auto node_of = [&](std::uint32_t c) {
    return static_cast<std::size_t>(std::lower_bound(nodes.begin(), nodes.end(), c) - nodes.begin());
  };
  auto run_of = [&](std::uint32_t a, std::uint32_t b) {
    const double dx = col_of(b, width) - col_of(a, width);
    const double dy = row_of(b, width) - row_of(a, width);
    return std::sqrt(dx * dx + dy * dy) * cs;
  };
  std::vector<std::vector<std::pair<std::size_t, double>>> adjacent(nodes.size());
  // 1. The terrain along each road, smoothed over about a road width.
  std::vector<double> sum(nodes.size(), 0.0), count(nodes.size(), 0.0);
  const int radius = std::max(1, static_cast<int>(std::lround(p.width_m / cs)));
  for (const road_path& r : n.roads) {
    const auto len = static_cast<int>(r.cells.size());
    for (int k = 0; k < len; ++k) {
      double acc = 0.0;
      int used = 0;
      for (int j = std::max(0, k - radius); j <= std::min(len - 1, k + radius); ++j) {
        acc += g.z[r.cells[static_cast<std::size_t>(j)]];
        ++used;
      }
      const std::size_t v = node_of(r.cells[static_cast<std::size_t>(k)]);
      sum[v] += acc / used;
      count[v] += 1.0;
      if (k + 1 < len) {
        const std::size_t u = node_of(r.cells[static_cast<std::size_t>(k + 1)]);
        const double run = run_of(r.cells[static_cast<std::size_t>(k)], r.cells[static_cast<std::size_t>(k + 1)]);
        adjacent[v].emplace_back(u, run);
        adjacent[u].emplace_back(v, run);
      }
    }
  }
  std::vector<double> bed0(nodes.size());
  for (std::size_t v = 0; v < nodes.size(); ++v) bed0[v] = sum[v] / count[v];
  // 2. Upper and lower g-Lipschitz envelopes on the road graph (a Dijkstra
  //    each); their mean keeps every step at or below g.
  const double grade = p.max_grade_percent / 100.0 * 0.995;
  const std::vector<double> lower = lipschitz_envelope(bed0, adjacent, grade, 1.0);
  const std::vector<double> upper = lipschitz_envelope(bed0, adjacent, grade, -1.0);
  std::vector<double> bed(nodes.size());
  for (std::size_t v = 0; v < nodes.size(); ++v) bed[v] = 0.5 * (lower[v] + upper[v]);
  // 3. Nearest road step of every cell within reach, and the bed height there.
  const double half_m = p.width_m / 2.0, reach_m = half_m + shoulder_m;
  std::vector<double> best(h.size(), k_unreached), best_bed(h.size(), 0.0);
  for (const road_path& r : n.roads) {
    for (std::size_t k = 0; k + 1 < r.cells.size(); ++k) {
      if (r.bridge[k] != 0) continue;
      const std::uint32_t ca = r.cells[k], cb = r.cells[k + 1];
      const nearest_step step{best, best_bed, width, height, cs};
      step.stamp({static_cast<double>(col_of(ca, width)), static_cast<double>(row_of(ca, width))},
                 {static_cast<double>(col_of(cb, width)), static_cast<double>(row_of(cb, width))}, bed[node_of(ca)],
                 bed[node_of(cb)], reach_m / cs + 1.0);
    }
  }
  // 4. Bed, then a smoothstep embankment back to the terrain; water untouched.
  for (std::size_t c = 0; c < h.size(); ++c) {
    if (best[c] > reach_m || g.blocked[c] != 0 || g.river[c] != 0) continue;
    const double d = best[c];
    double z = best_bed[c];
    if (d > half_m) {
      const double t = (d - half_m) / std::max(shoulder_m, 1e-9);
      const double s = t * t * (3.0 - 2.0 * t);
      z += (g.z[c] - z) * s;
    }
    h.data()[c] = static_cast<float>(z / height_scale);
    layer[c] = static_cast<float>(std::clamp((half_m - d) / cs + 0.5, 0.0, 1.0));
  }
  return layer;
}

std::string road_network_geojson(const road_network& n, const heightfield& h, double height_scale, int x0, int y0,
                                 int width, int height) {
  const region& grid = h.placement();
  const double cs = grid.cell_size;
  std::string out = "{\"type\":\"FeatureCollection\",\"features\":[";
  bool first = true;
  for (const road_path& r : n.roads) {
    const bool inside = std::any_of(r.cells.begin(), r.cells.end(), [&](std::uint32_t c) {
      const int x = col_of(c, n.width), y = row_of(c, n.width);
      return x >= x0 && x < x0 + width && y >= y0 && y < y0 + height;
    });
    if (!inside) continue;
    out += first ? "\n" : ",\n";
    first = false;
    out += "{\"type\":\"Feature\",\"geometry\":{\"type\":\"LineString\",\"coordinates\":[";
    for (std::size_t k = 0; k < r.cells.size(); ++k) {
      if (k > 0) out += ",";
      out += "[";
      detail::append_number(out, "%.3f", static_cast<double>(grid.origin_x + col_of(r.cells[k], n.width)) * cs);
      out += ",";
      detail::append_number(out, "%.3f", -static_cast<double>(grid.origin_y + row_of(r.cells[k], n.width)) * cs);
      out += ",";
      detail::append_number(out, "%.3f", static_cast<double>(h.data()[r.cells[k]]) * height_scale);
      out += "]";
    }
    out += "]},\"properties\":{\"from\":" + std::to_string(r.from_site) + ",\"to\":" + std::to_string(r.to_site) +
           ",\"length_m\":";
    detail::append_number(out, "%.3f", r.length_m);
    out += ",\"max_grade_percent\":";
    detail::append_number(out, "%.3f", r.max_grade_percent);
    out += ",\"bridges\":" + std::to_string(r.bridges) + ",\"cost\":";
    detail::append_number(out, "%.3f", r.cost);
    out += "}}";
  }
  out += "\n]}\n";
  return out;
}

}  // namespace landform
