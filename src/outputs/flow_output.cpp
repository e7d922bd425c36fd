#include "landform/outputs/flow_output.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace landform {

namespace {

const std::vector<std::pair<std::string, flow_method>> k_methods = {{"d8", flow_method::d8},
                                                                    {"dinf", flow_method::dinf}};

// The manifest's "method": the routing and how depressions are crossed.
std::string method_text(flow_method m) {
  if (m == flow_method::d8) {
    return "D8 (O'Callaghan and Mark 1984); depressions resolved on a basin graph (Cordonnier, Bovy and Braun "
           "2019), lakes filled by Priority-Flood+epsilon (Barnes et al. 2014); border cells are outlets";
  }
  return "D-infinity (Tarboton 1997) after Priority-Flood+epsilon (Barnes et al. 2014)";
}

int whole_world(const flow_output_options&, double) {
  return -1;
}
int whole_world_wetness(const wetness_output_options&, double) {
  return -1;
}

encoded_file encode_flow(const flow_output_options& o, const std::string& format, const output_context& ctx) {
  // The field is the whole world (halo -1), so the maximum, and with it the
  // image scaling, is the same for every tile.
  std::vector<float> full = flow_accumulation(ctx.field, o.method, ctx.nthreads);
  const double max = full.empty() ? 1.0 : static_cast<double>(*std::max_element(full.begin(), full.end()));
  std::vector<float> values = ctx.take_window(std::move(full));
  encoded_file out;
  if (format == "r32" || o.scale == flow_output_options::scaling::linear) {
    out = encode_scalar(values, ctx.width, ctx.height, format, 0.0, max, "upslope area in cells", ctx.write_settings());
  } else {
    for (float& v : values) v = static_cast<float>(std::log1p(static_cast<double>(v)));
    out = encode_scalar(values, ctx.width, ctx.height, format, 0.0, std::log1p(max), "ln(1 + upslope area in cells)",
                        ctx.write_settings());
  }
  out.extra["units"] = "cells (multiply by cell_size^2 for square metres)";
  out.extra["method"] = method_text(o.method);
  out.extra["max_accumulation"] = max;
  return out;
}

encoded_file encode_wetness(const wetness_output_options& o, const std::string& format, const output_context& ctx) {
  std::vector<float> full = topographic_wetness(ctx.field, o.method, ctx.height_scale, o.min_slope, ctx.nthreads);
  double lo = 0.0, hi = 1.0;
  if (!full.empty()) {
    const auto [mn, mx] = std::minmax_element(full.begin(), full.end());
    lo = *mn;
    hi = *mx;
  }
  encoded_file out = encode_scalar(ctx.take_window(std::move(full)), ctx.width, ctx.height, format, lo, hi,
                                   "topographic wetness index ln(a / tan beta)", ctx.write_settings());
  out.extra["units"] = "dimensionless; a in metres (upslope area per unit contour width), tan beta in m/m";
  out.extra["method"] = method_text(o.method);
  return out;
}

}  // namespace

const param_schema<flow_output_options>& flow_output_options::schema() {
  using P = flow_output_options;
  static const auto s =
      param_schema<P>()
          .choice("method", &P::method, k_methods)
          .doc("d8: all water to the steepest neighbour (crisp channels); dinf: split over two (smoother)")
          .choice("scale", &P::scale, {{"log", P::scaling::log}, {"linear", P::scaling::linear}})
          .doc(
              "images: log(1 + a) / log(1 + max) shows the whole network, linear only the main rivers; r32 is "
              "always the accumulation in cells");
  return s;
}

const param_schema<wetness_output_options>& wetness_output_options::schema() {
  using P = wetness_output_options;
  static const auto s = param_schema<P>()
                            .choice("method", &P::method, k_methods)
                            .doc("flow routing for the upslope area and slope: dinf (default) or d8")
                            .number("min_slope", &P::min_slope)
                            .unit("degrees")
                            .range(above_to(0, 45))
                            .doc("smallest slope used in tan(beta), so flats and filled lakes stay finite");
  return s;
}

output_kind flow_output_kind() {
  return make_output_kind<flow_output_options>(
      "flow", "flow accumulation (upslope area in cells), D8 or D-infinity, after depression filling",
      "Water is routed by D8 (O'Callaghan and Mark 1984) or D-infinity (Tarboton 1997) so that every cell "
      "drains to the map border, and each cell's upslope area is counted in cells, itself included. D8 routes "
      "on the heights, joins the pits' basins in a basin graph (Cordonnier, Bovy and Braun 2019) and fills only "
      "the lakes by Priority-Flood+epsilon (Barnes, Lehman and Mulla 2014); border cells are outlets. "
      "D-infinity fills every depression by Priority-Flood+epsilon first. r32 stores the count; png8/png16 "
      "store log(1 + a) / log(1 + max) (scale: log) or a / max (scale: linear). Needs the whole world.",
      {"png16", "png8", "r32"}, &whole_world, &encode_flow);
}

output_kind wetness_output_kind() {
  return make_output_kind<wetness_output_options>(
      "wetness", "topographic wetness index ln(a / tan beta): where water collects",
      "TWI = ln(a / tan beta) (Beven and Kirkby 1979) with a the upslope area per unit contour width in metres "
      "(accumulation * cell_size) and tan beta the downslope gradient in m/m (at least tan(min_slope)), from "
      "the same routing as \"flow\". r32 stores the index; png8/png16 stretch the world's min..max. Needs the "
      "whole world.",
      {"r32", "png16", "png8"}, &whole_world_wetness, &encode_wetness);
}

}  // namespace landform
