// "normal": tangent-space normal maps from Horn's gradient.

#include <vector>

#include "landform/core/parallel.hpp"
#include "landform/derive/surface.hpp"
#include "landform/io/quantize.hpp"
#include "landform/outputs/surface_outputs.hpp"
#include "outputs/gradient_check.hpp"
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

// Region row `j` of the normal map into `out` (3 width samples): Horn's
// interior cells straight from the three height rows through the fused SIMD
// kernel, border cells (the edge policy) through horn_gradient_row and the
// same normal formula. `east` and `north` hold a row of scratch gradient.
template <class T>
void normal_region_row(const output_context& ctx, edge_policy edges, const detail::normal_params& p, int j,
                       std::vector<float>& east, std::vector<float>& north, T* out) {
  const heightfield& h = ctx.field;
  const int y = ctx.y0 + j, x0 = ctx.x0, x1 = ctx.x0 + ctx.width;
  const auto [first, last] = horn_interior_span(h, y, x0, ctx.width);
  const auto border = [&](int begin, int end) {
    if (end <= begin) return;
    horn_gradient_row(h, ctx.height_scale, edges, y, begin, end - begin, east.data(), north.data());
    detail::normal_cells(east.data(), north.data(), end - begin, p, out + 3 * static_cast<std::size_t>(begin - x0));
  };
  border(x0, first);
  if (last > first) {
    detail::normal_row(h.row(y - 1) + first, h.row(y) + first, h.row(y + 1) + first, last - first, p,
                       out + 3 * static_cast<std::size_t>(first - x0));
  }
  border(last, x1);
}

// Region rows [first, last) of the normal map into `out`, 3 width samples a
// row: what the PNG encoder asks for a chunk at a time.
template <class T>
void normal_region_rows(const output_context& ctx, edge_policy edges, const detail::normal_params& p, int first,
                        int last, T* out) {
  std::vector<float> east(static_cast<std::size_t>(ctx.width)), north(east.size());
  const auto row_samples = static_cast<std::size_t>(ctx.width) * 3;
  for (int j = first; j < last; ++j) {
    normal_region_row(ctx, edges, p, j, east, north, out + static_cast<std::size_t>(j - first) * row_samples);
  }
}

// The float samples (n + 1) / 2 of every region cell, three channels, for
// the formats that take the whole image: rows in parallel (cells are
// independent, so the samples do not depend on the threads).
void encode_channels(const output_context& ctx, edge_policy edges, const detail::normal_params& p,
                     std::vector<float>& out) {
  out.resize(static_cast<std::size_t>(ctx.width) * 3 * static_cast<std::size_t>(ctx.height));
  parallel_rows(ctx.height, ctx.nthreads, [&](int j0, int j1) {
    normal_region_rows(ctx, edges, p, j0, j1, out.data() + static_cast<std::size_t>(j0) * ctx.width * 3);
  });
}

encoded_file encode_normal(const normal_options& o, const std::string& format, const output_context& ctx) {
  detail::require_representable_gradient(ctx, o.edges, ctx.height_scale);
  detail::normal_params p;
  p.height_scale = ctx.height_scale;
  p.denom = 8.0 * ctx.field.placement().cell_size;
  p.strength = o.strength;
  p.flip = o.convention == normal_options::convention_kind::opengl ? 1.0f : -1.0f;
  encoded_file out;
  const output_format& f = find_output_format(format);
  raster r;
  r.width = ctx.width;
  r.height = ctx.height;
  r.channels = 3;
  r.deflate = ctx.deflate;
  if (f.is_float()) {
    encode_channels(ctx, o.edges, p, r.f32);
    out.encoding = f.summary + " R G B, channel = (n + 1) / 2, unquantised";
  } else if (f.bit_depth() == 16) {
    // The PNG encoder asks for rows as its chunks need them: the samples are
    // never held whole, and computing them overlaps the deflating.
    r.u16_rows = [&](int first, int last, std::uint16_t* rows) {
      normal_region_rows(ctx, o.edges, p, first, last, rows);
    };
    out.encoding = f.summary + ", channel = round((n + 1) / 2 * 65535)";
  } else {
    r.u8_rows = [&](int first, int last, std::uint8_t* rows) {
      normal_region_rows(ctx, o.edges, p, first, last, rows);
    };
    out.encoding = f.summary + ", channel = round((n + 1) / 2 * 255)";
  }
  if (f.write_to(r, ctx.stream)) {
    out.streamed = true;
  } else {
    out.bytes = f.write(r);
  }
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
