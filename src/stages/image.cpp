#include "landform/stages/image.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "landform/core/parallel.hpp"
#include "landform/core/world_frame.hpp"

namespace landform {

const param_schema<image_params>& image_params::schema() {
  using P = image_params;
  static const auto s =
      param_schema<P>()
          .path("path", &P::path)
          .required()
          .doc("the heightmap file; a relative path is relative to the preset file's folder")
          .choice("format", &P::format,
                  {{"auto", P::format_kind::automatic},
                   {"png", P::format_kind::png},
                   {"raw16", P::format_kind::raw16},
                   {"r32", P::format_kind::r32}})
          .doc("auto: by extension (.png, .raw or .r16, .r32); png 8/16-bit grey or colour; raw16; r32")
          .integer("raw_width", &P::raw_width)
          .unit("pixels")
          .range(between(0, 65536))
          .doc("raw16/r32: samples per row; 0 = from raw_height, or square when both are 0")
          .integer("raw_height", &P::raw_height)
          .unit("pixels")
          .range(between(0, 65536))
          .doc("raw16/r32: rows; 0 = from the file size")
          .choice("sampling", &P::sampling,
                  {{"bilinear", P::sampling_kind::bilinear}, {"nearest", P::sampling_kind::nearest}})
          .doc("resampling to the world: bilinear blend or nearest pixel");
  return s;
}

heightmap_request image_request(const image_params& p) {
  using F = image_params::format_kind;
  heightmap_request r;
  switch (p.format) {
    case F::automatic:
      r.encoding = heightmap_encoding::automatic;
      break;
    case F::png:
      r.encoding = heightmap_encoding::png;
      break;
    case F::raw16:
      r.encoding = heightmap_encoding::raw16;
      break;
    case F::r32:
      r.encoding = heightmap_encoding::r32;
      break;
  }
  r.raw_width = p.raw_width;
  r.raw_height = p.raw_height;
  return r;
}

void apply_image(heightfield& h, const image_params& p, const heightmap_samples& img, const stage_context& ctx) {
  const world_frame frame(ctx.world, h.placement());
  const double sx = static_cast<double>(img.width) / ctx.world.width;
  const double sy = static_cast<double>(img.height) / ctx.world.height;
  auto pixel = [&](long long x, long long y) {
    x = std::clamp<long long>(x, 0, img.width - 1);
    y = std::clamp<long long>(y, 0, img.height - 1);
    return static_cast<double>(
        img.values[static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width) + static_cast<std::size_t>(x)]);
  };
  const bool nearest = p.sampling == image_params::sampling_kind::nearest;
  ctx.parallel_rows(h.height(), [&](int y0, int y1) {
    for (int j = y0; j < y1; ++j) {
      float* out = h.row(j);
      const double py = frame.cells_y(j) * sy - 0.5;
      const double fy = std::floor(py), ty = py - fy;
      const auto iy = static_cast<long long>(fy);
      for (int i = 0; i < h.width(); ++i) {
        const double px = frame.cells_x(i) * sx - 0.5;
        const double fx = std::floor(px), tx = px - fx;
        const auto ix = static_cast<long long>(fx);
        double v;
        if (nearest) {
          v = pixel(ix + (tx >= 0.5 ? 1 : 0), iy + (ty >= 0.5 ? 1 : 0));
        } else {
          v = (pixel(ix, iy) * (1.0 - tx) + pixel(ix + 1, iy) * tx) * (1.0 - ty) +
              (pixel(ix, iy + 1) * (1.0 - tx) + pixel(ix + 1, iy + 1) * tx) * ty;
        }
        out[i] = static_cast<float>(v);
      }
    }
  });
}

stage_info image_stage_info() {
  stage_info info = make_stage_info<image_params>(
      "image", stage_category::generator, stage_scope::pointwise,
      "imports a heightmap file (PNG 8/16-bit, raw16, r32), resampled bilinearly to the world",
      "Decodes `path` (PNG through stb_image once its chunks and their CRCs are checked, colour converted to "
      "grey; raw16 and r32 headerless little-endian "
      "as landform writes them) and stretches it over the whole world: world cell centres map to image pixel "
      "centres and the four nearest pixels are blended (edges clamped), or the nearest one is taken. PNG and "
      "raw16 give [0, 1], r32 the stored values. An image of the world's size is copied exactly; erode or derive "
      "maps from your own terrain.",
      +[](heightfield&, const image_params&, const stage_context&) {
        throw std::logic_error("image: created without its decoded file");
      });
  // The pipeline reads and decodes `path` when the preset is built; the stage
  // is a function of the samples.
  info.files = {{"path", [](const json& params) { return image_request(image_params::schema().parse(params)); }}};
  info.create = [](const json& params, const stage_inputs& inputs) -> stage_fn {
    const image_params p = image_params::schema().parse(params);
    std::shared_ptr<const heightmap_samples> img = inputs.file("path");
    return [p, img](heightfield& h, const stage_context& ctx) -> layer_set {
      apply_image(h, p, *img, ctx);
      return {};
    };
  };
  return info;
}

}  // namespace landform
