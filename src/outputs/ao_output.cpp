#include "landform/outputs/ao_output.hpp"

namespace landform {

namespace {

int ao_halo(const ao_params& p, double cell_size) {
  return ambient_occlusion_halo(p, cell_size);
}

encoded_file encode_ao(const ao_params& p, const std::string& format, const output_context& ctx) {
  const std::vector<float> full = ambient_occlusion(ctx.field, p, ctx.height_scale, ctx.nthreads);
  encoded_file out = encode_scalar(ctx.window(full), ctx.width, ctx.height, format, 0.0, 1.0,
                                   "ambient occlusion (1 = open sky)", ctx.png_text);
  out.extra["units"] = "fraction of the cosine-weighted sky hemisphere left open, 0 to 1";
  out.extra["method"] = "horizon-based sky-view factor: mean over azimuths of cos^2(horizon elevation)";
  return out;
}

}  // namespace

output_kind ao_output_kind() {
  return make_output_kind<ao_params>(
      "ao", "ambient occlusion: the open fraction of the sky, 1 = open (horizon-based sky-view factor)",
      "For each cell the horizon elevation H is found along `directions` azimuths up to `radius` metres "
      "(bilinear samples, heights in metres via height_scale) and ao = mean of cos^2(H) (Dozier and Marks 1987 "
      "sky-view factor of a horizontal surface). A flat map is 1.0 everywhere, borders included. png16/png8 "
      "store round(ao * 65535) / round(ao * 255); r32 the float32 values.",
      {"png8", "png16", "r32"}, &ao_halo, &encode_ao);
}

}  // namespace landform
