// "slope", "aspect" and "curvature": terrain analysis maps as GIS defines them.

#include <cmath>

#include "landform/derive/surface.hpp"
#include "landform/outputs/surface_outputs.hpp"
#include "outputs/gradient_check.hpp"

namespace landform {

namespace {

struct slope_options {
  enum class unit_kind { degrees, percent };
  unit_kind units = unit_kind::degrees;
  double max = 0.0;
  edge_policy edges = edge_policy::extrapolate;

  static const param_schema<slope_options>& schema() {
    using P = slope_options;
    static const auto s =
        param_schema<P>()
            .choice("units", &P::units, {{"degrees", P::unit_kind::degrees}, {"percent", P::unit_kind::percent}})
            .doc("degrees (0 flat .. 90 vertical) or percent rise (100 = 45 degrees)")
            .number("max", &P::max)
            .unit("degrees or percent")
            .range(at_least(0))
            .doc("quantised formats: value written as full scale; 0 = 90 degrees or 100 percent")
            .choice("edges", &P::edges, edge_policy_choices())
            .doc(k_edge_policy_doc);
    return s;
  }
};

struct aspect_options {
  edge_policy edges = edge_policy::extrapolate;
  static const param_schema<aspect_options>& schema() {
    using P = aspect_options;
    static const auto s = param_schema<P>().choice("edges", &P::edges, edge_policy_choices()).doc(k_edge_policy_doc);
    return s;
  }
};

struct curvature_options {
  curvature_kind kind = curvature_kind::profile;
  double range = 0.01;
  edge_policy edges = edge_policy::extrapolate;
  static const param_schema<curvature_options>& schema() {
    using P = curvature_options;
    static const auto s =
        param_schema<P>()
            .choice(
                "kind", &P::kind,
                {{"profile", curvature_kind::profile}, {"plan", curvature_kind::plan}, {"mean", curvature_kind::mean}})
            .doc("profile: along the slope (flow acceleration); plan: across it (flow convergence); mean: -(D + E)")
            .number("range", &P::range)
            .unit("1/m")
            .range(above(0))
            .doc("quantised formats map [-range, range] to full scale")
            .choice("edges", &P::edges, edge_policy_choices())
            .doc(k_edge_policy_doc);
    return s;
  }
};

template <class P>
int one_cell(const P&, double) {
  return 1;
}

encoded_file encode_slope(const slope_options& o, const std::string& format, const output_context& ctx) {
  surface_gradient g = horn_gradient(ctx.field, ctx.height_scale, o.edges, ctx.nthreads);
  const std::vector<float> east = ctx.take_window(std::move(g.east)), north = ctx.take_window(std::move(g.north));
  const bool percent = o.units == slope_options::unit_kind::percent;
  std::vector<float> values(east.size());
  for (std::size_t k = 0; k < values.size(); ++k) {
    values[k] =
        percent ? static_cast<float>(100.0 * std::hypot(static_cast<double>(east[k]), static_cast<double>(north[k])))
                : slope_degrees(east[k], north[k]);
  }
  const double full = o.max > 0 ? o.max : (percent ? 100.0 : 90.0);
  encoded_file out = encode_scalar(values, ctx.width, ctx.height, format, 0.0, full,
                                   percent ? "slope in percent" : "slope in degrees", ctx.write_settings());
  out.extra["method"] = "Horn 1981 (as gdaldem slope)";
  return out;
}

encoded_file encode_aspect(const aspect_options& o, const std::string& format, const output_context& ctx) {
  detail::require_representable_gradient(ctx, o.edges, ctx.height_scale);
  surface_gradient g = horn_gradient(ctx.field, ctx.height_scale, o.edges, ctx.nthreads);
  const std::vector<float> east = ctx.take_window(std::move(g.east)), north = ctx.take_window(std::move(g.north));
  std::vector<float> values(east.size());
  for (std::size_t k = 0; k < values.size(); ++k) values[k] = aspect_degrees(east[k], north[k]);
  if (format != "r32") {
    for (auto& v : values) v = std::max(v, 0.0f);  // flat cells (-1) become 0 in images
  }
  encoded_file out = encode_scalar(values, ctx.width, ctx.height, format, 0.0, 360.0,
                                   "aspect in degrees clockwise from north (downhill direction; -1 = flat in r32)",
                                   ctx.write_settings());
  out.extra["method"] = "Horn 1981 (as gdaldem aspect)";
  return out;
}

encoded_file encode_curvature(const curvature_options& o, const std::string& format, const output_context& ctx) {
  std::vector<float> full = surface_curvature(ctx.field, ctx.height_scale, o.kind, o.edges, ctx.nthreads);
  encoded_file out = encode_scalar(ctx.take_window(std::move(full)), ctx.width, ctx.height, format, -o.range, o.range,
                                   "curvature in 1/m", ctx.write_settings());
  out.extra["method"] = "Zevenbergen and Thorne 1987";
  return out;
}

}  // namespace

output_kind slope_output_kind() {
  return make_output_kind<slope_options>(
      "slope", "slope from Horn's gradient, degrees or percent",
      "atan(|grad z|) in degrees, or 100 |grad z| in percent, with heights in metres (height_scale) over cells of "
      "cell_size metres: the definition of gdaldem slope. r32 stores the values; images map [0, max].",
      {"r32", "png8", "png16"}, &one_cell<slope_options>, &encode_slope);
}

output_kind aspect_output_kind() {
  return make_output_kind<aspect_options>(
      "aspect", "downhill compass direction, degrees clockwise from north",
      "The direction a slope faces, 0 = north, 90 = east, as gdaldem aspect; flat cells are -1 in r32 and 0 in "
      "images, which map [0, 360].",
      {"r32", "png8", "png16"}, &one_cell<aspect_options>, &encode_aspect);
}

output_kind curvature_output_kind() {
  return make_output_kind<curvature_options>(
      "curvature", "profile, plan or mean curvature in 1/m (Zevenbergen and Thorne 1987)",
      "Second derivatives of the surface from the 3x3 window. Positive profile curvature is convex. r32 stores "
      "1/m; images map [-range, range] to full scale, so mid-grey is flat.",
      {"r32", "png8", "png16"}, &one_cell<curvature_options>, &encode_curvature);
}

}  // namespace landform
