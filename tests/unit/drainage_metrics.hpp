#pragma once
// Geomorphic statistics of a routed landscape, for the stream-power tests and
// tools: channel slopes, log-log fits (concavity, Hack's law), Strahler orders
// and Horton's bifurcation ratio, hypsometry and drainage density.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "landform/derive/flow_routing.hpp"

namespace landform_test {

/// Least-squares slope of y against x.
inline double fit_slope(const std::vector<double>& x, const std::vector<double>& y) {
  double mx = 0.0, my = 0.0;
  for (std::size_t k = 0; k < x.size(); ++k) {
    mx += x[k];
    my += y[k];
  }
  mx /= static_cast<double>(x.size());
  my /= static_cast<double>(x.size());
  double sxy = 0.0, sxx = 0.0;
  for (std::size_t k = 0; k < x.size(); ++k) {
    sxy += (x[k] - mx) * (y[k] - my);
    sxx += (x[k] - mx) * (x[k] - mx);
  }
  return sxy / sxx;
}

/// True for an interior node with a receiver and drainage area >= threshold (m^2).
inline bool is_channel(const landform::flow_graph& g, const std::vector<double>& area, std::size_t c,
                       double threshold) {
  return g.receiver[c] != c && area[c] >= threshold;
}

/// Slope to the receiver, m/m.
inline double receiver_slope(const landform::flow_graph& g, const std::vector<double>& z, std::size_t c) {
  return (z[c] - z[g.receiver[c]]) / g.receiver_distance(c);
}

/// Concavity theta: minus the slope of log S against log A over channel nodes.
inline double concavity(const landform::flow_graph& g, const std::vector<double>& z, const std::vector<double>& area,
                        double threshold) {
  std::vector<double> la, ls;
  for (std::size_t c = 0; c < z.size(); ++c) {
    if (!is_channel(g, area, c, threshold)) continue;
    const double s = receiver_slope(g, z, c);
    if (!(s > 0.0)) continue;
    la.push_back(std::log(area[c]));
    ls.push_back(std::log(s));
  }
  return -fit_slope(la, ls);
}

/// Hack's exponent h in L = c A^h: L the main-stream (longest upstream flow
/// path) length to each channel node, fitted over channel nodes.
inline double hack_exponent(const landform::flow_graph& g, const std::vector<double>& area, double threshold) {
  std::vector<double> length(area.size(), 0.0);
  for (std::size_t i = g.stack.size(); i-- > 0;) {
    const std::uint32_t c = g.stack[i];
    const std::uint32_t r = g.receiver[c];
    if (r != c) length[r] = std::max(length[r], length[c] + g.receiver_distance(c));
  }
  std::vector<double> la, ll;
  for (std::size_t c = 0; c < area.size(); ++c) {
    if (!is_channel(g, area, c, threshold) || length[c] <= 0.0) continue;
    la.push_back(std::log(area[c]));
    ll.push_back(std::log(length[c]));
  }
  return fit_slope(la, ll);
}

/// Strahler orders of the channel nodes (0 elsewhere) and the number of
/// streams of each order (index = order).
struct strahler_network {
  std::vector<int> order;
  std::vector<double> streams;
};

inline strahler_network strahler(const landform::flow_graph& g, const std::vector<double>& area, double threshold) {
  const std::size_t n = area.size();
  strahler_network out;
  out.order.assign(n, 0);
  std::vector<int> top(n, 0), count(n, 0);
  for (std::size_t i = g.stack.size(); i-- > 0;) {
    const std::uint32_t c = g.stack[i];
    if (area[c] < threshold) continue;
    const int o = top[c] == 0 ? 1 : (count[c] >= 2 ? top[c] + 1 : top[c]);
    out.order[c] = o;
    const std::uint32_t r = g.receiver[c];
    if (r == c) continue;
    if (o > top[r]) {
      top[r] = o;
      count[r] = 1;
    } else if (o == top[r]) {
      ++count[r];
    }
  }
  for (std::size_t c = 0; c < n; ++c) {
    const int o = out.order[c];
    if (o == 0) continue;
    const std::uint32_t r = g.receiver[c];
    if (r == c || out.order[r] > o) {
      if (out.streams.size() <= static_cast<std::size_t>(o)) out.streams.resize(static_cast<std::size_t>(o) + 1, 0.0);
      out.streams[static_cast<std::size_t>(o)] += 1.0;
    }
  }
  return out;
}

/// Horton's bifurcation ratio: exp(-slope) of log N_k against k over the
/// orders 1 .. max - 1 (the highest order is cut by the map edge).
inline double bifurcation_ratio(const strahler_network& net) {
  std::vector<double> k, ln;
  for (std::size_t o = 1; o + 1 < net.streams.size(); ++o) {
    if (net.streams[o] <= 0.0) continue;
    k.push_back(static_cast<double>(o));
    ln.push_back(std::log(net.streams[o]));
  }
  if (k.size() < 2) return 0.0;
  return std::exp(-fit_slope(k, ln));
}

/// (mean - min) / (max - min) of the heights.
inline double hypsometric_integral(const std::vector<double>& z) {
  const auto [lo, hi] = std::minmax_element(z.begin(), z.end());
  double mean = 0.0;
  for (double v : z) mean += v;
  mean /= static_cast<double>(z.size());
  return (mean - *lo) / (*hi - *lo);
}

inline double mean_of(const std::vector<double>& z) {
  double mean = 0.0;
  for (double v : z) mean += v;
  return mean / static_cast<double>(z.size());
}

/// Channel length (receiver links of nodes with area >= threshold m^2) per
/// map area, in km per km^2.
inline double drainage_density(const landform::flow_graph& g, const std::vector<double>& area, double threshold,
                               double cell_size) {
  double length = 0.0;
  for (std::size_t c = 0; c < area.size(); ++c) {
    if (is_channel(g, area, c, threshold)) length += g.receiver_distance(c);
  }
  const double map_area = static_cast<double>(area.size()) * cell_size * cell_size;
  return (length / 1e3) / (map_area / 1e6);
}

}  // namespace landform_test
