// "preview": the picture artists look at first. Hillshade (Horn's gradient,
// Lambertian light from a sun direction) multiplied onto a hypsometric colour
// ramp. The options live here; the shading and the ramps in derive/.

#include <array>

#include "landform/derive/color_ramp.hpp"
#include "landform/derive/hillshade.hpp"
#include "landform/derive/surface.hpp"
#include "landform/io/encode.hpp"
#include "landform/outputs/surface_outputs.hpp"

namespace landform {

namespace {

using stop = std::array<double, 4>;  // height, r, g, b (0..255)

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

int one_cell(const preview_options&, double) {
  return 1;
}

encoded_file encode_preview(const preview_options& o, const std::string&, const output_context& ctx) {
  const surface_gradient g = horn_gradient(ctx.field, ctx.height_scale * o.z_factor, o.edges, ctx.nthreads);
  const std::vector<float> east = ctx.window(g.east), north = ctx.window(g.north);
  const std::vector<float> heights = ctx.window(ctx.field.values());
  const std::vector<stop>& ramp = o.stops.empty() ? builtin_ramp(o.ramp) : o.stops;
  const std::vector<std::uint8_t> rgb = shaded_relief_rgb(
      heights, east, north, ramp, hillshade_light{o.sun_azimuth, o.sun_altitude, o.multidirectional, o.hillshade});
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
