#include "landform/stages/image.hpp"

#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "landform/core/parallel.hpp"
#include "landform/core/world_frame.hpp"

namespace landform {

const param_schema<image_params>& image_params::schema() {
  using P = image_params;
  static const auto s =
      param_schema<P>()
          .path("path", &P::path)
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
          .doc("raw16/r32: samples per row; 0 = square")
          .integer("raw_height", &P::raw_height)
          .unit("pixels")
          .range(between(0, 65536))
          .doc("raw16/r32: rows; 0 = from the file size")
          .choice("sampling", &P::sampling,
                  {{"bilinear", P::sampling_kind::bilinear}, {"nearest", P::sampling_kind::nearest}})
          .doc("resampling to the world: bilinear blend or nearest pixel");
  return s;
}

image_params::format_kind image_format_of(const image_params& p) {
  using format_kind = image_params::format_kind;
  if (p.format != format_kind::automatic) return p.format;
  std::string ext = std::filesystem::path(p.path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == ".raw" || ext == ".r16") return format_kind::raw16;
  if (ext == ".r32") return format_kind::r32;
  return format_kind::png;
}

void image_params::check(std::vector<std::pair<std::string, std::string>>& problems) const {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    problems.emplace_back("path",
                          "\"" + path + "\" is not a readable file (relative paths start at the working directory)");
    return;
  }
  const auto kind = image_format_of(*this);
  if (kind == format_kind::png) return;
  const auto bytes = std::filesystem::file_size(path, ec);
  const std::uintmax_t per = kind == format_kind::raw16 ? 2 : 4;
  if (ec || bytes % per != 0 || bytes == 0) {
    problems.emplace_back("path", "\"" + path + "\" has " + std::to_string(bytes) + " bytes, not a whole number of " +
                                      std::to_string(per) + "-byte samples");
    return;
  }
  const std::uintmax_t samples = bytes / per;
  if (raw_width > 0 && raw_height > 0 &&
      samples != static_cast<std::uintmax_t>(raw_width) * static_cast<std::uintmax_t>(raw_height)) {
    problems.emplace_back("raw_height", "raw_width x raw_height = " + std::to_string(raw_width) + " x " +
                                            std::to_string(raw_height) + " but the file holds " +
                                            std::to_string(samples) + " samples");
  } else if (raw_width > 0 && samples % static_cast<std::uintmax_t>(raw_width) != 0) {
    problems.emplace_back("raw_width", std::to_string(samples) + " samples are not a whole number of rows of " +
                                           std::to_string(raw_width));
  } else if (raw_width == 0) {
    const auto side = static_cast<std::uintmax_t>(std::llround(std::sqrt(static_cast<double>(samples))));
    if (side * side != samples) {
      problems.emplace_back("raw_width", "0 means a square image, but " + std::to_string(samples) +
                                             " samples are not a square; give raw_width");
    }
  }
}

image_data decode_heightmap(const std::vector<std::uint8_t>& bytes, image_params::format_kind format, int raw_width,
                            int raw_height, const std::string& name) {
  using F = image_params::format_kind;
  image_data out;
  if (format == F::png) {
    if (bytes.size() > static_cast<std::size_t>(INT32_MAX)) throw io_error("image: " + name + " is too large");
    const auto* data = bytes.data();
    const int length = static_cast<int>(bytes.size());
    int w = 0, h = 0, channels = 0;
    if (stbi_is_16_bit_from_memory(data, length)) {
      stbi_us* pixels = stbi_load_16_from_memory(data, length, &w, &h, &channels, 1);
      if (!pixels) throw io_error("image: cannot decode " + name + ": " + stbi_failure_reason());
      out.values.resize(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
      for (std::size_t k = 0; k < out.values.size(); ++k) out.values[k] = static_cast<float>(pixels[k] / 65535.0);
      stbi_image_free(pixels);
    } else {
      stbi_uc* pixels = stbi_load_from_memory(data, length, &w, &h, &channels, 1);
      if (!pixels) throw io_error("image: cannot decode " + name + ": " + stbi_failure_reason());
      out.values.resize(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
      for (std::size_t k = 0; k < out.values.size(); ++k) out.values[k] = static_cast<float>(pixels[k] / 255.0);
      stbi_image_free(pixels);
    }
    out.width = w;
    out.height = h;
    return out;
  }
  const std::size_t per = format == F::raw16 ? 2 : 4;
  if (bytes.empty() || bytes.size() % per != 0) {
    throw io_error("image: " + name + " has " + std::to_string(bytes.size()) + " bytes, not a whole number of " +
                   std::to_string(per) + "-byte samples");
  }
  const std::size_t samples = bytes.size() / per;
  std::size_t w = static_cast<std::size_t>(raw_width), h = static_cast<std::size_t>(raw_height);
  if (w == 0) {
    w = static_cast<std::size_t>(std::llround(std::sqrt(static_cast<double>(samples))));
    if (w * w != samples) throw io_error("image: " + name + " is not square; give raw_width");
  }
  if (h == 0) h = samples / w;
  if (w * h != samples || w > 65536 || h > 65536) {
    throw io_error("image: " + name + " holds " + std::to_string(samples) + " samples, not " + std::to_string(w) +
                   " x " + std::to_string(h));
  }
  out.width = static_cast<int>(w);
  out.height = static_cast<int>(h);
  out.values.resize(samples);
  for (std::size_t k = 0; k < samples; ++k) {
    const std::uint8_t* b = bytes.data() + k * per;
    if (format == F::raw16) {
      out.values[k] = static_cast<float>((b[0] | (b[1] << 8)) / 65535.0);
    } else {
      const std::uint32_t bits =
          std::uint32_t{b[0]} | (std::uint32_t{b[1]} << 8) | (std::uint32_t{b[2]} << 16) | (std::uint32_t{b[3]} << 24);
      std::memcpy(&out.values[k], &bits, sizeof bits);
    }
  }
  return out;
}

void apply_image(heightfield& h, const image_params& p, const stage_context& ctx) {
  std::ifstream in(p.path, std::ios::binary);
  if (!in) throw io_error("image: cannot open \"" + p.path + "\"");
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw io_error("image: cannot read \"" + p.path + "\"");
  const image_data img = decode_heightmap(bytes, image_format_of(p), p.raw_width, p.raw_height, "\"" + p.path + "\"");
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
  parallel_rows(h.height(), ctx.nthreads, [&](int y0, int y1) {
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
  return make_stage_info<image_params>(
      "image", stage_category::generator, stage_scope::pointwise,
      "imports a heightmap file (PNG 8/16-bit, raw16, r32), resampled bilinearly to the world",
      "Decodes `path` (PNG through stb_image, colour converted to grey; raw16 and r32 headerless little-endian "
      "as landform writes them) and stretches it over the whole world: world cell centres map to image pixel "
      "centres and the four nearest pixels are blended (edges clamped), or the nearest one is taken. PNG and "
      "raw16 give [0, 1], r32 the stored values. An image of the world's size is copied exactly; erode or derive "
      "maps from your own terrain.",
      &apply_image);
}

}  // namespace landform
