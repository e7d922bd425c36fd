// "normal": tangent-space normal maps from Horn's gradient.

#include <cmath>

#include "landform/derive/surface.hpp"
#include "landform/outputs/surface_outputs.hpp"

namespace landform {

namespace {

struct normal_options {
  enum class convention_kind { opengl, directx };
  convention_kind convention = convention_kind::opengl;
  double strength = 1.0;
  edge_policy edges = edge_policy::extrapolate;

  static const param_schema<normal_options>& schema() {
    using P = normal_options;
    static const auto s =
        param_schema<P>()
            .choice("convention", &P::convention,
                    {{"opengl", P::convention_kind::opengl}, {"directx", P::convention_kind::directx}})
            .doc("opengl: green points up the image (Unity, Godot, Blender); directx: green down (Unreal)")
            .number("strength", &P::strength)
            .range(above_to(0, 100))
            .doc("multiplies the slopes: > 1 exaggerates relief")
            .effect("higher = bumpier-looking lighting in the engine")
            .choice("edges", &P::edges, edge_policy_choices())
            .doc(k_edge_policy_doc);
    return s;
  }
};

int one_cell(const normal_options&, double) {
  return 1;
}

encoded_file encode_normal(const normal_options& o, const std::string& format, const output_context& ctx) {
  const surface_gradient g = horn_gradient(ctx.field, ctx.height_scale, o.edges, ctx.nthreads);
  const std::vector<float> east = ctx.window(g.east), north = ctx.window(g.north);
  const float flip = o.convention == normal_options::convention_kind::opengl ? 1.0f : -1.0f;
  std::vector<float> rgb(east.size() * 3);
  for (std::size_t k = 0; k < east.size(); ++k) {
    // n = normalize(−s·dz/dx, −s·dz/dy, 1) with y north; encoded as (n + 1) / 2.
    const double nx = -o.strength * east[k], ny = -o.strength * north[k];
    const double inv = 1.0 / std::sqrt(nx * nx + ny * ny + 1.0);
    rgb[3 * k + 0] = static_cast<float>(nx * inv * 0.5 + 0.5);
    rgb[3 * k + 1] = static_cast<float>(flip * ny * inv * 0.5 + 0.5);
    rgb[3 * k + 2] = static_cast<float>(inv * 0.5 + 0.5);
  }
  encoded_file out;
  const output_format& f = find_output_format(format);
  raster r;
  r.width = ctx.width;
  r.height = ctx.height;
  r.channels = 3;
  r.deflate = ctx.deflate;
  if (f.is_float()) {
    r.f32 = std::move(rgb);
    out.encoding = f.summary + " R G B, channel = (n + 1) / 2, unquantised";
  } else if (f.bit_depth() == 16) {
    r.u16.resize(rgb.size());
    for (std::size_t k = 0; k < rgb.size(); ++k) r.u16[k] = static_cast<std::uint16_t>(std::lround(rgb[k] * 65535.0));
    out.encoding = f.summary + ", channel = round((n + 1) / 2 * 65535)";
  } else {
    r.u8.resize(rgb.size());
    for (std::size_t k = 0; k < rgb.size(); ++k) r.u8[k] = static_cast<std::uint8_t>(std::lround(rgb[k] * 255.0));
    out.encoding = f.summary + ", channel = round((n + 1) / 2 * 255)";
  }
  out.bytes = f.write(r);
  out.extra["convention"] =
      o.convention == normal_options::convention_kind::opengl ? "opengl (+Y up)" : "directx (+Y down)";
  out.extra["space"] = "tangent space: R = +x east, G = +y, B = +z up";
  return out;
}

}  // namespace

output_kind normal_output_kind() {
  return make_output_kind<normal_options>(
      "normal", "tangent-space normal map from Horn's gradient",
      "n = normalize(-strength * dz/dx, -strength * dz/dy, 1) in metres (cell_size, height_scale), x east, y "
      "north; OpenGL keeps +y as green, DirectX flips it. A 45-degree slope rising east gives (-0.707, 0, "
      "0.707). exr stores (n + 1) / 2 as float32 R G B. Independent of resolution: the same world at twice the cells "
      "gives the same normals.",
      {"rgb8", "rgb16", "exr"}, &one_cell, &encode_normal);
}

}  // namespace landform
