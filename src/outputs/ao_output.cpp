#include "landform/outputs/ao_output.hpp"

namespace landform {

const param_schema<ao_output_options>& ao_output_options::schema() {
  using P = ao_output_options;
  static const auto s =
      param_schema<P>()
          .integer("directions", &P::directions)
          .unit("azimuths")
          .range(between(1, 256))
          .doc("horizon directions, evenly spaced from east; 16 is smooth, 32 for close-ups")
          .effect("more = smoother shading without streaks (slower)")
          .number("radius", &P::radius)
          .unit("metres")
          .range(above_to(0, 1e7))
          .doc("how far horizons are searched; features narrower than this darken")
          .effect("higher = broad valleys darken as well as narrow crevices")
          .choice("border", &P::border, {{"open", P::border_policy::open}, {"clamp", P::border_policy::clamp}})
          .doc("beyond the map: open (rays leaving it see the sky) or clamp (edge heights extended)")
          .number("exponent", &P::exponent)
          .range(between(0.1, 10))
          .doc("contrast: ao^exponent; > 1 deepens the shading")
          .effect("higher = darker, higher-contrast crevices")
          .number("strength", &P::strength)
          .range(between(0, 1))
          .doc("1 - strength * (1 - ao^exponent); 0 = no shading")
          .effect("higher = darker occlusion; 0 = flat white");
  return s;
}

namespace {

int ao_halo(const ao_output_options& o, double cell_size) {
  return ambient_occlusion_halo(o.params(), cell_size);
}

encoded_file encode_ao(const ao_output_options& o, const std::string& format, const output_context& ctx) {
  std::vector<float> full =
      ambient_occlusion(ctx.field, o.params(), ctx.height_scale, ctx.nthreads, ctx.stop_requested);
  encoded_file out = encode_scalar(ctx.take_window(std::move(full)), ctx.width, ctx.height, format, 0.0, 1.0,
                                   "ambient occlusion (1 = open sky)", ctx.write_settings());
  out.extra["units"] = "fraction of the cosine-weighted sky hemisphere left open, 0 to 1";
  out.extra["method"] = "horizon-based sky-view factor: mean over azimuths of cos^2(horizon elevation)";
  return out;
}

}  // namespace

output_kind ao_output_kind() {
  return make_output_kind<ao_output_options>(
      "ao", "ambient occlusion: the open fraction of the sky, 1 = open (horizon-based sky-view factor)",
      "For each cell the horizon elevation H is found along `directions` azimuths up to `radius` metres "
      "(bilinear samples, heights in metres via height_scale) and ao = mean of cos^2(H) (Dozier and Marks 1987 "
      "sky-view factor of a horizontal surface). A flat map is 1.0 everywhere, borders included. png16/png8 "
      "store round(ao * 65535) / round(ao * 255); r32 the float32 values.",
      {"png8", "png16", "r32"}, &ao_halo, &encode_ao);
}

}  // namespace landform
