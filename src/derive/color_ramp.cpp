#include "landform/derive/color_ramp.hpp"

namespace landform {

const std::vector<color_stop>& builtin_ramp(ramp_name name) {
  static const std::vector<color_stop> terrain = {{0.00, 52, 86, 48},   {0.22, 96, 136, 70},   {0.42, 176, 172, 104},
                                                  {0.60, 150, 112, 74}, {0.78, 128, 120, 114}, {0.92, 220, 218, 214},
                                                  {1.00, 252, 252, 252}};
  static const std::vector<color_stop> earth = {{0.00, 16, 40, 96},    {0.28, 56, 104, 164}, {0.30, 214, 202, 150},
                                                {0.33, 96, 142, 72},   {0.55, 132, 150, 86}, {0.72, 128, 104, 78},
                                                {0.88, 136, 130, 126}, {1.00, 250, 250, 250}};
  static const std::vector<color_stop> desert = {
      {0.00, 120, 84, 52}, {0.35, 196, 150, 96}, {0.65, 226, 196, 140}, {0.85, 176, 128, 90}, {1.00, 240, 226, 200}};
  static const std::vector<color_stop> arctic = {
      {0.00, 30, 60, 90}, {0.30, 120, 150, 170}, {0.50, 200, 214, 222}, {1.00, 255, 255, 255}};
  static const std::vector<color_stop> grey = {{0.0, 0, 0, 0}, {1.0, 255, 255, 255}};
  switch (name) {
    case ramp_name::terrain:
      return terrain;
    case ramp_name::earth:
      return earth;
    case ramp_name::desert:
      return desert;
    case ramp_name::arctic:
      return arctic;
    case ramp_name::grey:
      return grey;
  }
  return terrain;
}

std::array<double, 3> ramp_colour(const std::vector<color_stop>& ramp, double h) {
  if (h <= ramp.front()[0]) return {ramp.front()[1], ramp.front()[2], ramp.front()[3]};
  for (std::size_t k = 1; k < ramp.size(); ++k) {
    if (h <= ramp[k][0]) {
      const double span = ramp[k][0] - ramp[k - 1][0];
      const double t = span > 0 ? (h - ramp[k - 1][0]) / span : 1.0;
      return {ramp[k - 1][1] + t * (ramp[k][1] - ramp[k - 1][1]), ramp[k - 1][2] + t * (ramp[k][2] - ramp[k - 1][2]),
              ramp[k - 1][3] + t * (ramp[k][3] - ramp[k - 1][3])};
    }
  }
  return {ramp.back()[1], ramp.back()[2], ramp.back()[3]};
}

}  // namespace landform
