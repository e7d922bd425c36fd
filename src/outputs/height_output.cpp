#include "landform/outputs/height_output.hpp"

#include <span>

namespace landform {

const param_schema<height_output_options>& height_output_options::schema() {
  static const auto s = param_schema<height_output_options>();
  return s;
}

namespace {

int no_halo(const height_output_options&, double) {
  return 0;
}

encoded_file encode_height(const height_output_options&, const std::string& format, const output_context& ctx) {
  // The whole field is written from the heights in place (lo 0, hi 1 need no
  // mapping): a copy would add the map's size to the build's peak memory.
  if (ctx.whole_field()) {
    return encode_scalar(std::span<const float>(ctx.field.values()), ctx.width, ctx.height, format, 0.0, 1.0, "height",
                         ctx.write_settings());
  }
  return encode_scalar(ctx.window(ctx.field.values()), ctx.width, ctx.height, format, 0.0, 1.0, "height",
                       ctx.write_settings());
}

}  // namespace

output_kind height_output_kind() {
  return make_output_kind<height_output_options>(
      "height", "the heightmap",
      "png16 and raw16 store round(h * 65535), png8 round(h * 255), clamping and counting heights outside "
      "[0, 1] (end the pipeline with normalize); tiff16 likewise as a 16-bit TIFF; r32, tiff32 and exr store the "
      "float32 heights unquantised, exr16 rounds them to half floats. Rows top first.",
      {"png16", "png8", "raw16", "r32", "tiff16", "tiff32", "exr", "exr16"}, &no_halo, &encode_height);
}

}  // namespace landform
