#include "landform/derive/water.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

#include "landform/derive/flow.hpp"
#include "landform/derive/flow_routing.hpp"
#include "line_raster.hpp"
#include "priority_flood.hpp"

namespace landform {

using detail::append_number;
using detail::stamp_capsule;

namespace {

constexpr double k_seconds_per_year = 365.25 * 86400.0;
constexpr std::uint32_t k_none = detail::k_no_cell;

// What the steps of compute_water() share.
struct water_state {
  const water_params& p;
  water_maps& w;
  double height_scale;
  int width, height;
  std::size_t n;
  double cell_size, cell_area;
  const float* z;
  std::vector<double> filled;  // the filled surface (sea at sea level)
  std::vector<double> q;       // discharge, m^3/s
  std::vector<double> area;    // drainage area, m^2
  flow_graph graph;

  [[nodiscard]] std::size_t index(int x, int y) const {
    return static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x);
  }
  // Neighbour k of cell c inside the grid (into m).
  bool neighbour(std::size_t c, std::size_t k, std::size_t& m) const {
    const int x = static_cast<int>(c % static_cast<std::size_t>(width)) + k_flow_dx[k];
    const int y = static_cast<int>(c / static_cast<std::size_t>(width)) + k_flow_dy[k];
    if (x < 0 || y < 0 || x >= width || y >= height) return false;
    m = index(x, y);
    return true;
  }
  void find_sea();
  void fill_lakes();
  void route_discharge();
  void find_rivers();
  void trace_network();
};

// 1. The sea: below sea level and connected to the border (8-neighbours).
void water_state::find_sea() {
  w.ocean = find_ocean(z, width, height, p.sea_level);
}

// 2. Lakes: depressions filled to their spill height.
void water_state::fill_lakes() {
  // 2. Fill: the sea's surface at sea level, depressions to their spill height.
  filled.resize(n);
  for (std::size_t c = 0; c < n; ++c) filled[c] = w.ocean[c] ? p.sea_level : static_cast<double>(z[c]);
  std::vector<std::uint32_t> spill(n);
  {
    const std::vector<double> bed = filled;
    detail::priority_flood_epsilon(filled, width, height, detail::flood_ties::last_in_first_out, {spill.data()});
    // Lakes: cells of one spill cell whose bed lies below its height.
    std::vector<std::int32_t> candidate_of_spill(n, -1);
    std::vector<lake_info> candidates;
    std::vector<double> candidate_area;
    w.lake.assign(n, -1);
    for (std::size_t c = 0; c < n; ++c) {
      const std::uint32_t s = spill[c];
      if (s == k_none || w.ocean[c] || !(bed[c] < bed[s])) continue;
      std::int32_t& id = candidate_of_spill[s];
      if (id < 0) {
        id = static_cast<std::int32_t>(candidates.size());
        lake_info info;
        info.outlet = s;
        info.level = bed[s];
        candidates.push_back(info);
      }
      lake_info& l = candidates[static_cast<std::size_t>(id)];
      ++l.cells;
      l.max_depth = std::max(l.max_depth, (bed[s] - bed[c]) * height_scale);
      w.lake[c] = id;
    }
    std::vector<std::int32_t> kept(candidates.size(), -1);
    for (std::size_t k = 0; k < candidates.size(); ++k) {
      const lake_info& l = candidates[k];
      if (l.max_depth >= p.min_depth && static_cast<double>(l.cells) * cell_area >= p.min_area) {
        kept[k] = static_cast<std::int32_t>(w.lakes.size());
        w.lakes.push_back(l);
      }
    }
    for (std::size_t c = 0; c < n; ++c) {
      if (w.lake[c] >= 0) w.lake[c] = kept[static_cast<std::size_t>(w.lake[c])];
    }
  }
}

// 3. Discharge, evaporation, water levels and depths.
void water_state::route_discharge() {
  // 3. Discharge along D8 receivers of the filled surface, upstream first.
  q.assign(n, 0.0);
  area.assign(n, cell_area);
  const double runoff = p.precipitation / 1000.0 / k_seconds_per_year * cell_area;  // m^3/s per cell
  for (std::size_t c = 0; c < n; ++c) {
    const double factor = p.precipitation_layer ? std::max(0.0, static_cast<double>((*p.precipitation_layer)[c])) : 1.0;
    q[c] = runoff * factor;
  }
  std::vector<double> loss(w.lakes.size());
  for (std::size_t k = 0; k < w.lakes.size(); ++k) {
    loss[k] = p.evaporation / 1000.0 / k_seconds_per_year * static_cast<double>(w.lakes[k].cells) * cell_area;
  }
  const std::vector<double> full_loss = loss;
  for (std::size_t i = n; i-- > 0;) {
    const std::uint32_t c = graph.stack[i];
    const std::uint32_t r = graph.receiver[c];
    const std::int32_t l = w.lake[c];
    if (l >= 0 && (r == c || w.lake[r] != l)) {
      // An exit of the lake: its evaporation is taken from what leaves.
      auto& lake = w.lakes[static_cast<std::size_t>(l)];
      lake.inflow += q[c];
      const double take = std::min(q[c], loss[static_cast<std::size_t>(l)]);
      q[c] -= take;
      loss[static_cast<std::size_t>(l)] -= take;
    }
    if (r != c) {
      q[r] += q[c];
      area[r] += area[c];
    }
  }
  for (std::size_t k = 0; k < w.lakes.size(); ++k) {
    w.lakes[k].dry = p.evaporation > 0.0 && w.lakes[k].inflow < full_loss[k];
  }
  w.level.resize(n);
  w.depth.resize(n);
  for (std::size_t c = 0; c < n; ++c) {
    double surface = static_cast<double>(z[c]);
    if (w.ocean[c]) {
      surface = p.sea_level;
    } else if (w.lake[c] >= 0 && !w.lakes[static_cast<std::size_t>(w.lake[c])].dry) {
      surface = w.lakes[static_cast<std::size_t>(w.lake[c])].level;
    }
    w.level[c] = static_cast<float>(surface);
    w.depth[c] = static_cast<float>(std::max(0.0, (surface - static_cast<double>(z[c])) * height_scale));
  }
  w.discharge.assign(q.begin(), q.end());
  w.area.assign(area.begin(), area.end());
}

// 4. River cells and their hydraulic geometry.
void water_state::find_rivers() {
  // 4. Rivers: above the threshold, outside the sea and lakes (wet or dry).
  w.is_river.assign(n, 0);
  w.river_width.assign(n, 0.0f);
  w.river_depth.assign(n, 0.0f);
  for (std::size_t c = 0; c < n; ++c) {
    const bool enough = p.river_discharge > 0.0 ? q[c] >= p.river_discharge : area[c] >= p.river_area;
    if (!enough || !(q[c] > 0.0) || w.ocean[c] || w.lake[c] >= 0) continue;
    w.is_river[c] = 1;
    w.river_width[c] = static_cast<float>(p.width_a * std::pow(q[c], p.width_b));
    w.river_depth[c] = static_cast<float>(p.depth_c * std::pow(q[c], p.depth_f));
  }
}

// 5. The network and the river mask.
void water_state::trace_network() {
  // 5. Network: chains of river cells along receivers, split at confluences.
  std::vector<std::uint8_t> donors(n, 0);
  std::vector<std::uint8_t> order(n, 0), max_in(n, 0), count_max(n, 0);
  const auto next_of = [&](std::uint32_t c) {
    const std::uint32_t r = graph.receiver[c];
    return r != c && w.is_river[r] ? r : k_none;
  };
  for (std::size_t i = n; i-- > 0;) {
    const std::uint32_t c = graph.stack[i];
    if (!w.is_river[c]) continue;
    order[c] = donors[c] == 0 ? 1 : static_cast<std::uint8_t>(max_in[c] + (count_max[c] >= 2 ? 1 : 0));
    const std::uint32_t r = next_of(c);
    if (r == k_none) continue;
    ++donors[r];
    if (order[c] > max_in[r]) {
      max_in[r] = order[c];
      count_max[r] = 1;
    } else if (order[c] == max_in[r]) {
      ++count_max[r];
    }
  }
  const auto cell_point = [this](std::uint32_t c) {
    const std::uint32_t column = c % static_cast<std::uint32_t>(width);
    const std::uint32_t row = c / static_cast<std::uint32_t>(width);
    return std::array<double, 2>{static_cast<double>(column), static_cast<double>(row)};
  };
  const auto midpoint = [&](std::uint32_t a, std::uint32_t b) {
    const auto pa = cell_point(a), pb = cell_point(b);
    return std::array<double, 2>{(pa[0] + pb[0]) / 2.0, (pa[1] + pb[1]) / 2.0};
  };
  w.river_mask.assign(n, 0.0f);
  for (std::uint32_t head = 0; head < n; ++head) {
    if (!w.is_river[head] || donors[head] == 1) continue;
    river_segment s;
    std::vector<float> widths;
    s.strahler = order[head];
    // A river leaving a lake starts on its shore, halfway from the lake's exit.
    if (donors[head] == 0) {
      for (std::size_t k = 0; k < 8; ++k) {
        std::size_t m = 0;
        if (neighbour(head, k, m) && graph.receiver[m] == head && w.lake[m] >= 0 &&
            !w.lakes[static_cast<std::size_t>(w.lake[m])].dry) {
          s.points.push_back(midpoint(static_cast<std::uint32_t>(m), head));
          s.surface.push_back(static_cast<float>(filled[m]));
          widths.push_back(w.river_width[head]);
          break;
        }
      }
    }
    std::uint32_t cur = head;
    for (;;) {
      s.points.push_back(cell_point(cur));
      s.surface.push_back(static_cast<float>(filled[cur]));
      widths.push_back(w.river_width[cur]);
      s.discharge = q[cur];
      s.width = w.river_width[cur];
      s.depth = w.river_depth[cur];
      const std::uint32_t nx = next_of(cur);
      if (nx == k_none) {
        const std::uint32_t r = graph.receiver[cur];
        if (r == cur) {
          // It leaves the map: the line goes on to the border, half a cell
          // out, so a river rising on a border cell is a line too (RFC 7946
          // wants two positions).
          s.end = "edge";
          const auto [x, y] = cell_point(cur);
          const double dx = x == 0.0 ? -0.5 : x == static_cast<double>(width - 1) ? 0.5 : 0.0;
          const double dy = y == 0.0 ? -0.5 : y == static_cast<double>(height - 1) ? 0.5 : 0.0;
          if (dx != 0.0 || dy != 0.0) {
            s.points.push_back({x + dx, y + dy});
            s.surface.push_back(static_cast<float>(filled[cur]));
            widths.push_back(w.river_width[cur]);
          }
        } else {
          s.end = w.ocean[r] ? "sea" : (w.lake[r] >= 0 ? "lake" : "sink");
          s.points.push_back(midpoint(cur, r));
          s.surface.push_back(static_cast<float>(w.ocean[r] ? p.sea_level : filled[r]));
          widths.push_back(w.river_width[cur]);
        }
        break;
      }
      if (donors[nx] != 1) {
        s.points.push_back(cell_point(nx));
        s.surface.push_back(static_cast<float>(filled[nx]));
        widths.push_back(w.river_width[cur]);
        s.end = "confluence";
        break;
      }
      cur = nx;
    }
    for (std::size_t k = 0; k + 1 < s.points.size(); ++k) {
      stamp_capsule(w.river_mask, width, height, s.points[k], s.points[k + 1],
                    static_cast<double>(widths[k]) / 2.0 / cell_size);
    }
    s.widths = std::move(widths);
    w.network.push_back(std::move(s));
  }
}

}  // namespace

std::vector<std::uint8_t> find_ocean(const float* z, int width, int height, double sea_level) {
  const std::size_t n = static_cast<std::size_t>(std::max(width, 0)) * static_cast<std::size_t>(std::max(height, 0));
  std::vector<std::uint8_t> ocean(n, 0);
  if (n == 0) return ocean;
  const auto index = [width](int x, int y) {
    return static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x);
  };
  std::vector<std::uint32_t> queue;
  const auto seed = [&](std::size_t c) {
    if (!ocean[c] && static_cast<double>(z[c]) < sea_level) {
      ocean[c] = 1;
      queue.push_back(static_cast<std::uint32_t>(c));
    }
  };
  for (int x = 0; x < width; ++x) {
    seed(index(x, 0));
    seed(index(x, height - 1));
  }
  for (int y = 1; y < height - 1; ++y) {
    seed(index(0, y));
    seed(index(width - 1, y));
  }
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const std::size_t c = queue[head];
    const int cx = static_cast<int>(c % static_cast<std::size_t>(width));
    const int cy = static_cast<int>(c / static_cast<std::size_t>(width));
    for (std::size_t k = 0; k < 8; ++k) {
      const int x = cx + k_flow_dx[k], y = cy + k_flow_dy[k];
      if (x >= 0 && y >= 0 && x < width && y < height) seed(index(x, y));
    }
  }
  return ocean;
}

std::vector<std::uint8_t> find_ocean(const heightfield& h, double sea_level) {
  return find_ocean(h.data(), h.width(), h.height(), sea_level);
}

water_maps compute_water(const heightfield& h, double height_scale, const water_params& p, int nthreads,
                         water_routing* routing) {
  water_maps w;
  w.width = h.width();
  w.height = h.height();
  if (h.size() == 0) return w;
  const double cell_size = h.placement().cell_size;
  water_state s{p,        w,  height_scale, h.width(), h.height(), h.size(), cell_size, cell_size * cell_size,
                h.data(), {}, {},           {},        {}};
  s.find_sea();
  s.fill_lakes();
  compute_receivers_d8(s.filled, s.width, s.height, cell_size, s.graph, nthreads);
  compute_stack(s.graph);
  s.route_discharge();
  s.find_rivers();
  s.trace_network();
  if (routing) {
    routing->filled = std::move(s.filled);
    routing->graph = std::move(s.graph);
  }
  return w;
}

std::string river_network_geojson(const water_maps& w, const region& grid, double height_scale, int x0, int y0,
                                  int width, int height) {
  std::string out = "{\"type\":\"FeatureCollection\",\"features\":[";
  bool first = true;
  const double cs = grid.cell_size;
  for (const river_segment& s : w.network) {
    const bool inside = std::any_of(s.points.begin(), s.points.end(), [&](const std::array<double, 2>& pt) {
      return pt[0] >= x0 - 0.5 && pt[0] < x0 + width - 0.5 && pt[1] >= y0 - 0.5 && pt[1] < y0 + height - 0.5;
    });
    if (!inside) continue;
    out += first ? "\n" : ",\n";
    first = false;
    out += "{\"type\":\"Feature\",\"geometry\":{\"type\":\"LineString\",\"coordinates\":[";
    for (std::size_t k = 0; k < s.points.size(); ++k) {
      if (k > 0) out += ",";
      out += "[";
      append_number(out, "%.3f", (static_cast<double>(grid.origin_x) + s.points[k][0]) * cs);
      out += ",";
      append_number(out, "%.3f", -(static_cast<double>(grid.origin_y) + s.points[k][1]) * cs);
      out += ",";
      append_number(out, "%.3f", static_cast<double>(s.surface[k]) * height_scale);
      out += "]";
    }
    out += "]},\"properties\":{\"strahler\":" + std::to_string(s.strahler) + ",\"discharge_m3s\":";
    append_number(out, "%.6g", s.discharge);
    out += ",\"width_m\":";
    append_number(out, "%.4g", s.width);
    out += ",\"depth_m\":";
    append_number(out, "%.4g", s.depth);
    out += ",\"widths_m\":[";
    for (std::size_t k = 0; k < s.widths.size(); ++k) {
      if (k > 0) out += ",";
      append_number(out, "%.4g", static_cast<double>(s.widths[k]));
    }
    out += "],\"end\":\"" + s.end + "\"}}";
  }
  out += "\n]}\n";
  return out;
}

}  // namespace landform
