// "normal": tangent-space normal maps from Horn's gradient.

#include <cmath>

#include "landform/core/parallel.hpp"
#include "landform/derive/surface.hpp"
#include "landform/io/quantize.hpp"
#include "landform/outputs/surface_outputs.hpp"
#include "outputs/normal_row.hpp"

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

// Writes the encoded normal (n + 1) / 2 of every region cell, three channels,
// as quantise(value) into `out`: straight from the full-field gradient, rows
// in parallel (cells are independent, so the bytes do not depend on threads),
// with no full-size float copy for the integer formats.
template <class T, class Quantise>
void encode_channels(const surface_gradient& g, const output_context& ctx, double strength, float flip,
                     std::vector<T>& out, Quantise quantise) {
  out.resize(static_cast<std::size_t>(ctx.width) * static_cast<std::size_t>(ctx.height) * 3);
  const auto stride = static_cast<std::size_t>(ctx.field.width());
  parallel_rows(ctx.height, ctx.nthreads, [&](int j0, int j1) {
    for (int j = j0; j < j1; ++j) {
      const std::size_t from = static_cast<std::size_t>(ctx.y0 + j) * stride + static_cast<std::size_t>(ctx.x0);
      T* row = out.data() + static_cast<std::size_t>(j) * static_cast<std::size_t>(ctx.width) * 3;
      for (int i = 0; i < ctx.width; ++i) {
        // n = normalize(−s·dz/dx, −s·dz/dy, 1) with y north; encoded as (n + 1) / 2.
        const double nx = -strength * g.east[from + static_cast<std::size_t>(i)];
        const double ny = -strength * g.north[from + static_cast<std::size_t>(i)];
        const double inv = 1.0 / std::sqrt(nx * nx + ny * ny + 1.0);
        row[3 * i + 0] = quantise(static_cast<float>(nx * inv * 0.5 + 0.5));
        row[3 * i + 1] = quantise(static_cast<float>(flip * ny * inv * 0.5 + 0.5));
        row[3 * i + 2] = quantise(static_cast<float>(inv * 0.5 + 0.5));
      }
    }
  });
}

// The 8-bit encoding through the SIMD row kernel (bytes equal to
// encode_channels with the same rounding; tested on every target).
void encode_rgb8(const surface_gradient& g, const output_context& ctx, double strength, float flip,
                 std::vector<std::uint8_t>& out) {
  out.resize(static_cast<std::size_t>(ctx.width) * static_cast<std::size_t>(ctx.height) * 3);
  const auto stride = static_cast<std::size_t>(ctx.field.width());
  parallel_rows(ctx.height, ctx.nthreads, [&](int j0, int j1) {
    for (int j = j0; j < j1; ++j) {
      const std::size_t from = static_cast<std::size_t>(ctx.y0 + j) * stride + static_cast<std::size_t>(ctx.x0);
      detail::normal_row_u8(g.east.data() + from, g.north.data() + from, ctx.width, strength, flip,
                            out.data() + static_cast<std::size_t>(j) * static_cast<std::size_t>(ctx.width) * 3);
    }
  });
}

encoded_file encode_normal(const normal_options& o, const std::string& format, const output_context& ctx) {
  const surface_gradient g = horn_gradient(ctx.field, ctx.height_scale, o.edges, ctx.nthreads);
  const float flip = o.convention == normal_options::convention_kind::opengl ? 1.0f : -1.0f;
  encoded_file out;
  const output_format& f = find_output_format(format);
  raster r;
  r.width = ctx.width;
  r.height = ctx.height;
  r.channels = 3;
  r.deflate = ctx.deflate;
  if (f.is_float()) {
    encode_channels(g, ctx, o.strength, flip, r.f32, [](float v) { return v; });
    out.encoding = f.summary + " R G B, channel = (n + 1) / 2, unquantised";
  } else if (f.bit_depth() == 16) {
    encode_channels(g, ctx, o.strength, flip, r.u16,
                    [](float v) { return static_cast<std::uint16_t>(lround_nonnegative(v * 65535.0)); });
    out.encoding = f.summary + ", channel = round((n + 1) / 2 * 65535)";
  } else {
    encode_rgb8(g, ctx, o.strength, flip, r.u8);
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
