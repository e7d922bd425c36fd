// "preview": the picture artists look at first. Hillshade (Horn's gradient,
// Lambertian light from a sun direction) multiplied onto a hypsometric colour
// ramp.

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "landform/derive/surface.hpp"
#include "landform/io/encode.hpp"
#include "landform/outputs/surface_outputs.hpp"

namespace landform {

namespace {

using stop = std::array<double, 4>;  // height, r, g, b (0..255)

enum class ramp_name { terrain, earth, desert, arctic, grey };

const std::vector<stop>& builtin_ramp(ramp_name name) {
  static const std::vector<stop> terrain = {{0.00, 52, 86, 48},   {0.22, 96, 136, 70},   {0.42, 176, 172, 104},
                                            {0.60, 150, 112, 74}, {0.78, 128, 120, 114}, {0.92, 220, 218, 214},
                                            {1.00, 252, 252, 252}};
  static const std::vector<stop> earth = {{0.00, 16, 40, 96},    {0.28, 56, 104, 164}, {0.30, 214, 202, 150},
                                          {0.33, 96, 142, 72},   {0.55, 132, 150, 86}, {0.72, 128, 104, 78},
                                          {0.88, 136, 130, 126}, {1.00, 250, 250, 250}};
  static const std::vector<stop> desert = {
      {0.00, 120, 84, 52}, {0.35, 196, 150, 96}, {0.65, 226, 196, 140}, {0.85, 176, 128, 90}, {1.00, 240, 226, 200}};
  static const std::vector<stop> arctic = {
      {0.00, 30, 60, 90}, {0.30, 120, 150, 170}, {0.50, 200, 214, 222}, {1.00, 255, 255, 255}};
  static const std::vector<stop> grey = {{0.0, 0, 0, 0}, {1.0, 255, 255, 255}};
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

struct preview_options {
  ramp_name ramp = ramp_name::terrain;
  std::vector<stop> stops;  // overrides ramp when given
  double sun_azimuth = 315.0;
  double sun_altitude = 45.0;
  bool multidirectional = false;
  double z_factor = 1.0;
  double hillshade = 0.65;
  edge_policy edges = edge_policy::extrapolate;

  static const param_schema<preview_options>& schema() {
    using P = preview_options;
    static const auto s = param_schema<P>()
                              .choice("ramp", &P::ramp,
                                      {{"terrain", ramp_name::terrain},
                                       {"earth", ramp_name::earth},
                                       {"desert", ramp_name::desert},
                                       {"arctic", ramp_name::arctic},
                                       {"grey", ramp_name::grey}})
                              .doc("built-in colour ramp over heights 0..1 (earth has sea below 0.3)")
                              .tuple_list<4>("stops", &P::stops)
                              .count(0, 64)
                              .range(between(0, 255))
                              .doc("custom ramp: [height, r, g, b] stops (heights 0..1, colours 0..255), replaces ramp")
                              .number("sun_azimuth", &P::sun_azimuth)
                              .unit("degrees")
                              .range(between(0, 360))
                              .doc("sun direction, clockwise from north")
                              .effect("turns the shading: slopes facing this way are lit, the others shaded")
                              .number("sun_altitude", &P::sun_altitude)
                              .unit("degrees")
                              .range(above_to(0, 90))
                              .doc("sun height above the horizon")
                              .effect("lower = long, dramatic shadows that exaggerate relief; higher = flatter light")
                              .boolean("multidirectional", &P::multidirectional)
                              .doc("mean of lights from 225, 270, 315 and 360 degrees: shows relief facing any way")
                              .number("z_factor", &P::z_factor)
                              .range(above(0))
                              .doc("vertical exaggeration of the shading")
                              .effect("higher = stronger shading contrast on gentle slopes")
                              .number("hillshade", &P::hillshade)
                              .range(between(0, 1))
                              .doc("0 = colours only, 1 = full shading")
                              .effect("higher = stronger relief shading over the colours")
                              .choice("edges", &P::edges, edge_policy_choices())
                              .doc(k_edge_policy_doc);
    return s;
  }
  void check(std::vector<std::pair<std::string, std::string>>& problems) const {
    for (std::size_t k = 0; k < stops.size(); ++k) {
      if (stops[k][0] > 1.0) problems.emplace_back("stops", "stop " + std::to_string(k) + ": height must be 0..1");
      if (k > 0 && stops[k][0] < stops[k - 1][0]) {
        problems.emplace_back("stops", "stop " + std::to_string(k) + ": heights must not decrease");
      }
    }
  }
};

std::array<double, 3> ramp_colour(const std::vector<stop>& ramp, double h) {
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

// Lambertian shade N·L for surface slopes (east, north) and a sun.
double shade(double east, double north, double azimuth_deg, double altitude_deg) {
  const double az = azimuth_deg * std::numbers::pi / 180.0, alt = altitude_deg * std::numbers::pi / 180.0;
  const double lx = std::cos(alt) * std::sin(az), ly = std::cos(alt) * std::cos(az), lz = std::sin(alt);
  const double inv = 1.0 / std::sqrt(east * east + north * north + 1.0);
  return std::max(0.0, (-east * lx - north * ly + lz) * inv);
}

int one_cell(const preview_options&, double) {
  return 1;
}

encoded_file encode_preview(const preview_options& o, const std::string&, const output_context& ctx) {
  const surface_gradient g = horn_gradient(ctx.field, ctx.height_scale * o.z_factor, o.edges, ctx.nthreads);
  const std::vector<float> east = ctx.window(g.east), north = ctx.window(g.north);
  const std::vector<float> heights = ctx.window(ctx.field.values());
  const std::vector<stop>& ramp = o.stops.empty() ? builtin_ramp(o.ramp) : o.stops;
  const double flat = std::sin(o.sun_altitude * std::numbers::pi / 180.0);
  std::vector<std::uint8_t> rgb(heights.size() * 3);
  for (std::size_t k = 0; k < heights.size(); ++k) {
    double s = 0.0;
    if (o.multidirectional) {
      for (double az : {225.0, 270.0, 315.0, 360.0}) s += 0.25 * shade(east[k], north[k], az, o.sun_altitude);
    } else {
      s = shade(east[k], north[k], o.sun_azimuth, o.sun_altitude);
    }
    // Flat ground keeps its ramp colour exactly; slopes toward the sun brighten.
    const double light = (1.0 - o.hillshade) + o.hillshade * s / flat;
    const auto c = ramp_colour(ramp, heights[k]);
    for (int ch = 0; ch < 3; ++ch) {
      rgb[3 * k + static_cast<std::size_t>(ch)] =
          static_cast<std::uint8_t>(std::clamp(std::lround(c[static_cast<std::size_t>(ch)] * light), 0L, 255L));
    }
  }
  encoded_file out;
  out.bytes = encode_png_rgb8(ctx.width, ctx.height, rgb.data());
  out.encoding = "PNG RGB 8-bit, hypsometric colour x hillshade (preview, not data)";
  return out;
}

}  // namespace

output_kind preview_output_kind() {
  return make_output_kind<preview_options>(
      "preview", "shaded relief: hillshade over a hypsometric colour ramp",
      "Horn's gradient lit by a sun (Lambert, N.L) at `sun_azimuth`/`sun_altitude`, or the mean of four lights "
      "(multidirectional), multiplied onto a colour ramp over heights 0..1; flat ground keeps the ramp colour. "
      "Shading uses real proportions (cell_size, height_scale) times z_factor.",
      {"rgb8"}, &one_cell, &encode_preview);
}

}  // namespace landform
