// "preview": the picture artists look at first. Hillshade (Horn's gradient,
// Lambertian light from a sun direction) multiplied onto a hypsometric colour
// ramp. The options live here; the shading and the ramps in derive/.

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "landform/core/parallel.hpp"
#include "landform/derive/color_ramp.hpp"
#include "landform/derive/hillshade.hpp"
#include "landform/derive/surface.hpp"
#include "landform/io/png_encode.hpp"
#include "landform/io/quantize.hpp"
#include "landform/outputs/ocean_rule.hpp"
#include "landform/outputs/surface_outputs.hpp"
#include "landform/outputs/water_output.hpp"
#include "outputs/gradient_check.hpp"

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
  bool water = false;
  double river_area = 1.0;  // km^2
  double min_depth = 0.5;   // m
  double min_area = 0.0;    // m^2
  ocean_rule ocean = ocean_rule::connected;

  static const param_schema<preview_options>& schema() {
    using P = preview_options;
    static const auto s = param_schema<P>()
                              .choice("ramp", &P::ramp,
                                      {{"terrain", ramp_name::terrain},
                                       {"earth", ramp_name::earth},
                                       {"desert", ramp_name::desert},
                                       {"arctic", ramp_name::arctic},
                                       {"grey", ramp_name::grey}})
                              .doc(
                                  "built-in colour ramp over heights 0..1 (earth has sea below 0.3; with the preset's "
                                  "sea_level, heights are mapped so that the coast is there)")
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
                              .doc(k_edge_policy_doc)
                              .boolean("water", &P::water)
                              .optional()
                              .doc(
                                  "draw lakes and rivers (the water outputs' defaults: sea_level, 800 mm/yr) in water "
                                  "colours; needs the whole world")
                              .number("river_area", &P::river_area)
                              .unit("km^2")
                              .range(above_to(0, 1e6))
                              .optional()
                              .doc("water: drainage area at which drawn rivers begin")
                              .effect("lower = more, smaller rivers drawn")
                              .number("min_depth", &P::min_depth)
                              .unit("m")
                              .range(between(0, 1e4))
                              .optional()
                              .doc("water: lakes drawn where at least this deep (as the lake output's min_depth)")
                              .number("min_area", &P::min_area)
                              .unit("m^2")
                              .range(between(0, 1e12))
                              .optional()
                              .doc("water: lakes drawn where at least this large (as the lake output's min_area)")
                              .choice("ocean", &P::ocean, ocean_rule_choices())
                              .optional()
                              .doc(std::string(k_ocean_rule_doc) +
                                   "; with the preset's sea_level, a cell below it that is not ocean takes the ramp's "
                                   "colour just above sea level (the lowest land)")
                              .effect(k_ocean_rule_effect);
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

constexpr double k_ramp_coast = 0.3;  // where the built-in ramps' sea meets land

// The smallest float above `sea`: a ramp with a step at sea level gives the
// land side there.
double just_above(double sea) {
  auto f = static_cast<float>(sea);
  while (static_cast<double>(f) <= sea) f = std::nextafter(f, std::numeric_limits<float>::infinity());
  return f;
}

// Height `h` on the built-in ramps' scale, whose coast is at 0.3, for the
// preset's sea level `sea`: piecewise linear, 0 and 1 staying put (a sea level
// outside (0, 1) shifts instead).
double ramp_height(double h, double sea) {
  if (sea > 0.0 && sea < 1.0) {
    return h < sea ? k_ramp_coast * h / sea : k_ramp_coast + (1.0 - k_ramp_coast) * (h - sea) / (1.0 - sea);
  }
  return h - sea + k_ramp_coast;
}

// Horn's gradient needs one cell; the water and the connected ocean (with the
// preset's sea_level: otherwise no ocean is known) the whole world.
int preview_halo(const preview_options& o, const halo_inputs& in) {
  return o.water || (in.sea_level && o.ocean == ocean_rule::connected) ? -1 : 1;
}

// What every row of a preview needs, worked out once per image: the ramp,
// the light vectors and the maps that need the whole world (the ocean, the
// water), as region windows; the rows are then independent of each other.
struct preview_plan {
  const preview_options& options;
  const output_context& ctx;
  const std::vector<stop>& ramp;
  hillshade_vectors light;
  std::vector<std::uint8_t> ocean;   ///< 1 = ocean; empty without sea_level or with below_sea_level
  std::vector<float> lakes, rivers;  ///< 0 or 1 per cell; empty without `water`
};

// Lakes and rivers (the sea is the ramp's) as region windows of 0 and 1.
void plan_water(preview_plan& plan) {
  const preview_options& o = plan.options;
  const output_context& ctx = plan.ctx;
  water_output_options wo;
  wo.river_area = o.river_area;
  wo.min_depth = o.min_depth;
  wo.min_area = o.min_area;
  const water_maps w = compute_water(ctx.field, ctx.height_scale, wo.params(ctx), ctx.nthreads);
  std::vector<float> lake(w.lake.size(), 0.0f);
  for (std::size_t c = 0; c < lake.size(); ++c) {
    if (w.lake[c] >= 0 && !w.lakes[static_cast<std::size_t>(w.lake[c])].dry && w.depth[c] > 0.0f) lake[c] = 1.0f;
  }
  plan.lakes = ctx.window(lake);
  plan.rivers = ctx.window(w.river_mask);
}

preview_plan plan_preview(const preview_options& o, const output_context& ctx) {
  // Colours alone (hillshade 0) do not use the gradient.
  if (o.hillshade > 0.0)
    detail::require_representable_gradient(ctx, o.edges, ctx.height_scale * o.z_factor,
                                           "height x height_scale x z_factor");
  preview_plan plan{o,
                    ctx,
                    o.stops.empty() ? builtin_ramp(o.ramp) : o.stops,
                    light_vectors(hillshade_light{o.sun_azimuth, o.sun_altitude, o.multidirectional, o.hillshade}),
                    {},
                    {},
                    {}};
  if (ctx.sea_level && o.ocean == ocean_rule::connected) plan.ocean = ocean_window(ctx, *ctx.sea_level, o.ocean);
  if (o.water) plan_water(plan);
  return plan;
}

// Region row `j`'s heights on the ramp's scale into `out`. With the preset's
// sea_level, an inland basin below it is land, coloured as the coast, the
// ramp's colour just above sea level (below_sea_level keeps every cell below
// it sea); the built-in ramps have their coast at 0.3, so heights are mapped
// to put sea_level there (custom stops are the preset's own scale).
const float* ramp_heights(const preview_plan& plan, int j, std::vector<float>& out) {
  const output_context& ctx = plan.ctx;
  const float* heights = ctx.field.row(ctx.y0 + j) + ctx.x0;
  if (!ctx.sea_level) return heights;
  const double sea = *ctx.sea_level, coast = just_above(sea);
  const std::uint8_t* ocean =
      plan.ocean.empty() ? nullptr : plan.ocean.data() + static_cast<std::size_t>(j) * ctx.width;
  for (int i = 0; i < ctx.width; ++i) {
    double h = heights[i];
    if (ocean != nullptr && !ocean[i] && h < sea) h = coast;
    out[static_cast<std::size_t>(i)] = static_cast<float>(plan.options.stops.empty() ? ramp_height(h, sea) : h);
  }
  return out.data();
}

// Lakes and rivers over region row `j`'s shaded colours.
void draw_water_row(const preview_plan& plan, int j, std::uint8_t* rgb) {
  constexpr std::array<double, 3> k_lake = {52, 96, 160}, k_river = {40, 84, 176};
  const std::size_t first = static_cast<std::size_t>(j) * static_cast<std::size_t>(plan.ctx.width);
  for (std::size_t i = 0; i < static_cast<std::size_t>(plan.ctx.width); ++i) {
    const auto lake = static_cast<double>(plan.lakes[first + i]), river = static_cast<double>(plan.rivers[first + i]);
    for (std::size_t k = 0; k < 3; ++k) {
      double v = rgb[3 * i + k];
      v += (k_lake[k] - v) * lake;
      v += (k_river[k] - v) * river;
      rgb[3 * i + k] = static_cast<std::uint8_t>(lround_nonnegative(std::clamp(v, 0.0, 255.0)));
    }
  }
}

// Region rows [first, last) of the preview into `out` (3 width bytes a row):
// what the PNG encoder asks for a chunk at a time, so the picture, its
// gradient and its heights are never held whole.
void preview_rows(const preview_plan& plan, int first, int last, std::uint8_t* out) {
  const preview_options& o = plan.options;
  const output_context& ctx = plan.ctx;
  const auto width = static_cast<std::size_t>(ctx.width);
  std::vector<float> east(width), north(width), heights(ctx.sea_level ? width : 0);
  for (int j = first; j < last; ++j) {
    std::uint8_t* rgb = out + static_cast<std::size_t>(j - first) * width * 3;
    horn_gradient_row(ctx.field, ctx.height_scale * o.z_factor, o.edges, ctx.y0 + j, ctx.x0, ctx.width, east.data(),
                      north.data());
    shaded_relief_row(ramp_heights(plan, j, heights), east.data(), north.data(), width, plan.ramp, plan.light, rgb);
    if (!plan.lakes.empty()) draw_water_row(plan, j, rgb);
  }
}

encoded_file encode_preview(const preview_options& o, const std::string&, const output_context& ctx) {
  const preview_plan plan = plan_preview(o, ctx);
  encoded_file out;
  const png_row_source<std::uint8_t> rows = [&plan](int first, int last, std::uint8_t* block) {
    preview_rows(plan, first, last, block);
  };
  if (ctx.stream) {
    stream_png_rows(ctx.width, ctx.height, 3, rows, ctx.stream, {}, ctx.deflate);
    out.streamed = true;
  } else {
    out.bytes = encode_png_rows(ctx.width, ctx.height, 3, rows, {}, ctx.deflate);
  }
  out.encoding = "PNG RGB 8-bit, hypsometric colour x hillshade (preview, not data)";
  return out;
}

}  // namespace

std::vector<std::uint8_t> preview_pixels(const json& options, const output_context& ctx) {
  const preview_options o = preview_options::schema().parse(options);
  const preview_plan plan = plan_preview(o, ctx);
  std::vector<std::uint8_t> rgb(static_cast<std::size_t>(ctx.width) * static_cast<std::size_t>(ctx.height) * 3);
  parallel_rows(ctx.height, ctx.nthreads, [&](int first, int last) {
    preview_rows(plan, first, last,
                 rgb.data() + static_cast<std::size_t>(first) * static_cast<std::size_t>(ctx.width) * 3);
  });
  return rgb;
}

output_kind preview_output_kind() {
  return make_output_kind<preview_options>(
      "preview", "shaded relief: hillshade over a hypsometric colour ramp",
      "Horn's gradient lit by a sun (Lambert, N.L) at `sun_azimuth`/`sun_altitude`, or the mean of four lights "
      "(multidirectional), multiplied onto a colour ramp over heights 0..1; flat ground keeps the ramp colour. "
      "Shading uses real proportions (cell_size, height_scale) times z_factor. With the preset's sea_level the "
      "built-in ramps put their coast (0.3) at it, and a cell below it that is not ocean (an inland basin; "
      "`ocean`: connected, the default, as the water outputs' sea, needs the whole world) takes the ramp's colour "
      "just above sea level, the lowest land; `ocean`: below_sea_level colours every cell below it as sea (local). "
      "With "
      "`water`, lakes (also those filling inland basins) and rivers are drawn over in water colours.",
      {"rgb8"}, &preview_halo, &encode_preview);
}

}  // namespace landform
