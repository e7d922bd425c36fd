#include "landform/core/control_curve.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "landform/core/error.hpp"

namespace landform {

std::string check_control_points(const std::vector<std::array<double, 2>>& points, std::size_t min_points) {
  if (points.size() < min_points) {
    return "needs at least " + std::to_string(min_points) + " points, has " + std::to_string(points.size());
  }
  for (std::size_t k = 1; k < points.size(); ++k) {
    if (!(points[k][0] > points[k - 1][0])) {
      return "x must increase strictly from point to point: point " + std::to_string(k) + " has x " +
             format_number(points[k][0]) + " after " + format_number(points[k - 1][0]);
    }
  }
  return {};
}

control_curve::control_curve(const std::vector<std::array<double, 2>>& points, kind k) : m_kind(k) {
  if (const std::string problem = check_control_points(points, 1); !problem.empty()) {
    throw std::invalid_argument("control_curve: " + problem);
  }
  for (const auto& p : points) {
    m_x.push_back(p[0]);
    m_y.push_back(p[1]);
  }
  const std::size_t n = m_x.size();
  if (m_kind != kind::smooth || n < 2) return;
  // Fritsch–Carlson: secant slopes, averaged tangents, then limited so each
  // segment stays monotone.
  std::vector<double> secant(n - 1);
  for (std::size_t i = 0; i + 1 < n; ++i) secant[i] = (m_y[i + 1] - m_y[i]) / (m_x[i + 1] - m_x[i]);
  m_slope.assign(n, 0.0);
  m_slope[0] = secant[0];
  m_slope[n - 1] = secant[n - 2];
  for (std::size_t i = 1; i + 1 < n; ++i) {
    m_slope[i] = (secant[i - 1] * secant[i] <= 0.0) ? 0.0 : 0.5 * (secant[i - 1] + secant[i]);
  }
  for (std::size_t i = 0; i + 1 < n; ++i) {
    if (secant[i] == 0.0) {
      m_slope[i] = m_slope[i + 1] = 0.0;
      continue;
    }
    const double a = m_slope[i] / secant[i], b = m_slope[i + 1] / secant[i];
    const double r = a * a + b * b;
    if (r > 9.0) {
      const double t = 3.0 / std::sqrt(r);
      m_slope[i] = t * a * secant[i];
      m_slope[i + 1] = t * b * secant[i];
    }
  }
}

double control_curve::operator()(double x) const {
  if (std::isnan(x)) return x;
  if (x <= m_x.front()) return m_y.front();
  if (x >= m_x.back()) return m_y.back();
  // The segment [x_i, x_{i+1}) holding x.
  const auto it = std::upper_bound(m_x.begin(), m_x.end(), x);
  const auto i = static_cast<std::size_t>(it - m_x.begin()) - 1;
  const double dx = m_x[i + 1] - m_x[i];
  const double t = (x - m_x[i]) / dx;
  if (m_kind == kind::linear) return m_y[i] + t * (m_y[i + 1] - m_y[i]);
  const double t2 = t * t, t3 = t2 * t;
  const double h00 = 2.0 * t3 - 3.0 * t2 + 1.0, h10 = t3 - 2.0 * t2 + t;
  const double h01 = -2.0 * t3 + 3.0 * t2, h11 = t3 - t2;
  const double v = h00 * m_y[i] + h10 * dx * m_slope[i] + h01 * m_y[i + 1] + h11 * dx * m_slope[i + 1];
  // Monotone by construction; the clamp only removes rounding just past a point.
  return std::clamp(v, std::min(m_y[i], m_y[i + 1]), std::max(m_y[i], m_y[i + 1]));
}

bool control_curve::is_identity() const {
  return m_x.size() == 2 && m_x[0] == 0.0 && m_y[0] == 0.0 && m_x[1] == 1.0 && m_y[1] == 1.0 && m_kind == kind::linear;
}

}  // namespace landform
