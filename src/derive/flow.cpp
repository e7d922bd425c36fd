#include "landform/derive/flow.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>

#include "core/huge_pages.hpp"
#include "landform/core/parallel.hpp"
#include "landform/derive/flow_routing.hpp"
#include "priority_flood.hpp"

namespace landform {

namespace {

// Numbers in messages: shortest round-trip text ("0.25", not "0.250000").
std::string number_text(double v) {
  std::array<char, 32> text{};
  const auto end = std::to_chars(text.data(), text.data() + text.size(), v).ptr;
  return std::string(text.data(), end);
}

constexpr double k_sqrt2 = std::numbers::sqrt2;
constexpr double k_quarter_pi = std::numbers::pi / 4.0;

// D-infinity facets (Tarboton 1997, table 1): cardinal neighbour e1 and
// diagonal neighbour e2, as neighbour codes.
constexpr std::array<std::array<int, 2>, 8> k_facets = {
    {{0, 1}, {2, 1}, {2, 3}, {4, 3}, {4, 5}, {6, 5}, {6, 7}, {0, 7}}};

void check_size(std::size_t n, int width, int height, const char* what) {
  if (width < 1 || height < 1 || n != static_cast<std::size_t>(width) * static_cast<std::size_t>(height)) {
    throw std::invalid_argument(std::string(what) + ": " + std::to_string(n) + " values for a " +
                                std::to_string(width) + " x " + std::to_string(height) + " grid");
  }
}

flow_receivers d8_cell(const std::vector<double>& z, int width, int height, int x, int y) {
  flow_receivers r;
  const double z0 = z[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)];
  double best = 0.0;
  for (int k = 0; k < 8; ++k) {
    const int nx = x + k_flow_dx[static_cast<std::size_t>(k)], ny = y + k_flow_dy[static_cast<std::size_t>(k)];
    if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
    const double zn = z[static_cast<std::size_t>(ny) * static_cast<std::size_t>(width) + static_cast<std::size_t>(nx)];
    const double slope = (k % 2 == 0) ? z0 - zn : (z0 - zn) / k_sqrt2;
    if (slope > best) {
      best = slope;
      r.to[0] = static_cast<std::int8_t>(k);
    }
  }
  if (r.to[0] >= 0) {
    r.fraction = 1.0f;
    r.gradient = static_cast<float>(best);
  }
  return r;
}

flow_receivers dinf_cell(const std::vector<double>& z, int width, int height, int x, int y) {
  flow_receivers r;
  const auto at = [&](int k, double& out) {
    const int nx = x + k_flow_dx[static_cast<std::size_t>(k)], ny = y + k_flow_dy[static_cast<std::size_t>(k)];
    if (nx < 0 || ny < 0 || nx >= width || ny >= height) return false;
    out = z[static_cast<std::size_t>(ny) * static_cast<std::size_t>(width) + static_cast<std::size_t>(nx)];
    return true;
  };
  const double e0 = z[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)];
  // Per facet, Tarboton's r = atan2(s2, s1) clamped to [0, pi/4] decides the
  // slope: r <= 0 (s2 <= 0) flows along e1 with slope s1; r >= pi/4
  // (s2 >= s1) along e2 with slope (e0 - e2) / sqrt 2; otherwise
  // sqrt(s1^2 + s2^2). The angle itself is computed for the winner only.
  enum class along { e1, e2, inside };
  double best = 0.0, best_s1 = 0.0, best_s2 = 0.0;
  along best_along = along::e1;
  int best_facet = -1;
  for (int f = 0; f < 8; ++f) {
    double e1 = 0.0, e2 = 0.0;
    if (!at(k_facets[static_cast<std::size_t>(f)][0], e1) || !at(k_facets[static_cast<std::size_t>(f)][1], e2))
      continue;
    const double s1 = e0 - e1, s2 = e1 - e2;  // cell distances are 1
    double s = 0.0;
    along a = along::inside;
    if (s2 <= 0.0) {
      s = s1;
      a = along::e1;
    } else if (s2 >= s1) {
      s = (e0 - e2) / k_sqrt2;
      a = along::e2;
    } else {
      s = std::sqrt(s1 * s1 + s2 * s2);
    }
    if (s > best) {
      best = s;
      best_facet = f;
      best_along = a;
      best_s1 = s1;
      best_s2 = s2;
    }
  }
  if (best_facet < 0) return r;
  const auto& facet = k_facets[static_cast<std::size_t>(best_facet)];
  r.gradient = static_cast<float>(best);
  r.fraction = 1.0f;
  if (best_along == along::e1) {
    r.to = {static_cast<std::int8_t>(facet[0]), -1};
  } else if (best_along == along::e2) {
    r.to = {static_cast<std::int8_t>(facet[1]), -1};
  } else {
    const double angle = std::atan2(best_s2, best_s1);  // in (0, pi/4)
    r.to = {static_cast<std::int8_t>(facet[0]), static_cast<std::int8_t>(facet[1])};
    r.fraction = static_cast<float>((k_quarter_pi - angle) / k_quarter_pi);
  }
  return r;
}

// h's heights as float64 (rows in parallel); throws std::invalid_argument
// naming the first non-finite cell in index order, as `what`.
std::vector<double> finite_heights(const heightfield& h, int nthreads, const char* what) {
  const std::size_t n = h.size();
  const auto w = static_cast<std::size_t>(h.width());
  const float* z = h.data();
  std::vector<double> out;
  detail::reserve_huge_pages(out, n);
  out.resize(n);
  std::vector<std::uint8_t> bad_row(static_cast<std::size_t>(h.height()), 0);
  parallel_rows(h.height(), nthreads, [&](int y0, int y1) {
    for (auto y = static_cast<std::size_t>(y0); y < static_cast<std::size_t>(y1); ++y) {
      bool bad = false;
      for (std::size_t c = y * w; c < (y + 1) * w; ++c) {
        out[c] = static_cast<double>(z[c]);
        bad = bad || !std::isfinite(z[c]);
      }
      bad_row[y] = bad ? 1 : 0;
    }
  });
  const auto row = std::find(bad_row.begin(), bad_row.end(), std::uint8_t{1});
  if (row != bad_row.end()) {
    const auto y = static_cast<std::size_t>(row - bad_row.begin());
    std::size_t x = 0;
    while (std::isfinite(z[y * w + x])) ++x;
    throw std::invalid_argument(std::string(what) + ": height " + number_text(static_cast<double>(z[y * w + x])) +
                                " at cell (" + std::to_string(x) + ", " + std::to_string(y) + ") is not finite");
  }
  return out;
}

// D8 routing of h with every closed depression resolved (flow_routing's
// basin graph; the lakes filled by Priority-Flood+epsilon): `z` receives the
// filled heights, `graph` the receivers (cell size 1, so distances are 1 or
// sqrt 2 cell lengths) and the stack. Border cells are outlets.
void route_d8(const heightfield& h, int nthreads, const char* what, std::vector<double>& z, flow_graph& graph) {
  z = finite_heights(h, nthreads, what);
  route_depression_free_d8(z, h.width(), h.height(), 1.0, graph, nthreads);
}

// D8 upslope areas in cells (exact integers in float64, cell size 1) as
// float32, summed in `area` (its storage reused when large enough).
std::vector<float> d8_cells(const flow_graph& graph, int nthreads, std::vector<double>& area) {
  if (area.capacity() < graph.receiver.size()) {
    area = {};
    detail::reserve_huge_pages(area, graph.receiver.size());
  }
  drainage_area_d8(graph, 1.0, area, nthreads);
  std::vector<float> out;
  detail::reserve_huge_pages(out, area.size());
  out.resize(area.size());
  const auto w = static_cast<std::size_t>(graph.width);
  parallel_rows(graph.height, nthreads, [&](int y0, int y1) {
    for (std::size_t c = static_cast<std::size_t>(y0) * w; c < static_cast<std::size_t>(y1) * w; ++c)
      out[c] = static_cast<float>(area[c]);
  });
  return out;
}

}  // namespace

std::vector<double> priority_flood_epsilon(const heightfield& h) {
  std::vector<double> filled = finite_heights(h, 1, "priority_flood_epsilon");
  detail::priority_flood_epsilon(filled, h.width(), h.height(), detail::flood_ties::cell_index);
  return filled;
}

std::vector<flow_receivers> flow_directions(const std::vector<double>& filled, int width, int height,
                                            flow_method method, int nthreads) {
  check_size(filled.size(), width, height, "flow_directions");
  std::vector<flow_receivers> out(filled.size());
  parallel_rows(height, nthreads, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y) {
      flow_receivers* row = out.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(width);
      for (int x = 0; x < width; ++x) {
        row[x] =
            method == flow_method::d8 ? d8_cell(filled, width, height, x, y) : dinf_cell(filled, width, height, x, y);
      }
    }
  });
  return out;
}

std::vector<float> accumulate_flow(const std::vector<flow_receivers>& receivers, int width, int height) {
  check_size(receivers.size(), width, height, "accumulate_flow");
  const std::size_t n = receivers.size();
  const auto neighbour = [width](std::size_t c, int k) {
    return static_cast<std::size_t>(static_cast<std::ptrdiff_t>(c) + k_flow_dx[static_cast<std::size_t>(k)] +
                                    static_cast<std::ptrdiff_t>(k_flow_dy[static_cast<std::size_t>(k)]) * width);
  };
  // Donors per cell, then Kahn's algorithm: a cell passes its total on once
  // every donor has delivered. Sources are taken in index order and each
  // newly ready cell is handled at once (a stack), which follows the flow
  // paths downstream and keeps memory access local.
  constexpr std::uint8_t k_done = 0xff;
  std::vector<std::uint8_t> donors(n, 0);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const std::size_t c = static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x);
      const flow_receivers& r = receivers[c];
      for (const std::int8_t k : r.to) {
        if (k < 0) continue;
        const int nx = k < 8 ? x + k_flow_dx[static_cast<std::size_t>(k)] : -1;
        const int ny = k < 8 ? y + k_flow_dy[static_cast<std::size_t>(k)] : -1;
        if (nx < 0 || ny < 0 || nx >= width || ny >= height || !(r.fraction >= 0.0f && r.fraction <= 1.0f)) {
          throw std::invalid_argument("accumulate_flow: cell (" + std::to_string(x) + ", " + std::to_string(y) +
                                      ") sends water to neighbour " + std::to_string(k) + " with fraction " +
                                      number_text(static_cast<double>(r.fraction)) +
                                      "; receivers must be neighbour codes 0..7 inside the grid, fractions in [0, 1]");
        }
        ++donors[neighbour(c, k)];
      }
    }
  }
  std::vector<double> total(n, 1.0);
  std::vector<std::uint32_t> ready;
  std::size_t processed = 0;
  for (std::size_t source = 0; source < n; ++source) {
    if (donors[source] != 0) continue;
    ready.push_back(static_cast<std::uint32_t>(source));
    while (!ready.empty()) {
      const std::size_t c = ready.back();
      ready.pop_back();
      donors[c] = k_done;
      ++processed;
      const flow_receivers& r = receivers[c];
      for (std::size_t j = 0; j < 2; ++j) {
        const int k = r.to[j];
        if (k < 0) continue;
        const double share = j == 0 ? static_cast<double>(r.fraction) : 1.0 - static_cast<double>(r.fraction);
        const std::size_t m = neighbour(c, k);
        total[m] += total[c] * share;
        if (--donors[m] == 0) ready.push_back(static_cast<std::uint32_t>(m));
      }
    }
  }
  if (processed != n) throw std::logic_error("accumulate_flow: the flow directions contain a cycle");
  return std::vector<float>(total.begin(), total.end());
}

std::vector<float> flow_accumulation(const heightfield& h, flow_method method, int nthreads) {
  if (h.size() == 0) return {};
  if (method == flow_method::d8) {
    std::vector<double> z;
    flow_graph graph;
    route_d8(h, nthreads, "flow_accumulation", z, graph);
    return d8_cells(graph, nthreads, z);  // the filled heights' storage takes the areas
  }
  return accumulate_flow(flow_directions(priority_flood_epsilon(h), h.width(), h.height(), method, nthreads), h.width(),
                         h.height());
}

std::vector<float> contributing_area(const std::vector<float>& accumulation_cells, double cell_size) {
  std::vector<float> out(accumulation_cells.size());
  const double cell_area = cell_size * cell_size;
  for (std::size_t k = 0; k < out.size(); ++k) {
    out[k] = static_cast<float>(static_cast<double>(accumulation_cells[k]) * cell_area);
  }
  return out;
}

std::vector<float> topographic_wetness(const heightfield& h, flow_method method, double height_scale, double min_slope,
                                       int nthreads) {
  if (!(height_scale > 0.0)) {
    throw std::invalid_argument("topographic_wetness: height_scale " + number_text(height_scale) + ", must be > 0");
  }
  if (!(min_slope > 0.0 && min_slope < 90.0)) {
    throw std::invalid_argument("topographic_wetness: min_slope " + number_text(min_slope) +
                                " degrees, must be > 0 and < 90");
  }
  if (h.size() == 0) return {};
  const double cell_size = h.placement().cell_size;
  const double min_tan = std::tan(min_slope * std::numbers::pi / 180.0);
  const auto twi = [&](double cells, double gradient) {
    const double a = cells * cell_size;  // m^2 per metre of contour
    const double tan_beta = std::max(gradient * height_scale / cell_size, min_tan);
    return static_cast<float>(std::log(a / tan_beta));
  };
  std::vector<float> out(h.size());
  if (method == flow_method::dinf) {
    const auto receivers = flow_directions(priority_flood_epsilon(h), h.width(), h.height(), method, nthreads);
    const std::vector<float> cells = accumulate_flow(receivers, h.width(), h.height());
    for (std::size_t k = 0; k < out.size(); ++k)
      out[k] = twi(static_cast<double>(cells[k]), static_cast<double>(receivers[k].gradient));
    return out;
  }
  std::vector<double> z;
  flow_graph graph;
  route_d8(h, nthreads, "topographic_wetness", z, graph);
  std::vector<double> area;
  const std::vector<float> cells = d8_cells(graph, nthreads, area);
  const int width = h.width(), height = h.height();
  parallel_rows(height, nthreads, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y) {
      for (int x = 0; x < width; ++x) {
        const std::size_t c =
            static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x);
        // Interior cells: the drop to the receiver per cell length. Border
        // cells are outlets (water leaves the map), and their slope is the
        // steepest descent to a neighbour inside the map (0 when none is lower).
        const std::uint32_t r = graph.receiver[c];
        const double gradient = r != c ? (z[c] - z[r]) / graph.receiver_distance(c)
                                       : static_cast<double>(d8_cell(z, width, height, x, y).gradient);
        out[c] = twi(static_cast<double>(cells[c]), gradient);
      }
    }
  });
  return out;
}

}  // namespace landform
