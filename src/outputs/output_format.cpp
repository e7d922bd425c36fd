#include "landform/outputs/output_format.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "landform/io/encode.hpp"
#include "landform/io/quantize.hpp"

namespace landform {

namespace {

// All the rows of a row source, for the formats that take the whole image.
template <class T>
std::vector<T> all_rows(const raster& r, const png_row_source<T>& rows) {
  std::vector<T> out(static_cast<std::size_t>(r.width) * static_cast<std::size_t>(r.height) *
                     static_cast<std::size_t>(r.channels));
  if (!out.empty()) rows(0, r.height, out.data());
  return out;
}

// ---------------------------------------------------------------- encoders
// One per container and sample type; the table below names them.

// 8-bit PNGs carry no tEXt chunk.
std::vector<std::uint8_t> png8(const raster& r) {
  if (r.u8_rows) return encode_png_rows(r.width, r.height, r.channels, r.u8_rows, {}, r.deflate);
  return encode_png(r.width, r.height, r.channels, r.u8.data(), {}, r.deflate);
}

void png8_stream(const raster& r, const png_sink& sink) {
  if (r.u8_rows) return stream_png_rows(r.width, r.height, r.channels, r.u8_rows, sink, {}, r.deflate);
  stream_png(r.width, r.height, r.channels, r.u8.data(), sink, {}, r.deflate);
}

// 16-bit PNGs: greyscale carries the provenance tEXt chunks (as it always has);
// RGB and RGBA write none, so their bytes depend on the samples only.
std::vector<std::pair<std::string, std::string>> png16_text(const raster& r) {
  return r.channels == 1 ? r.text : std::vector<std::pair<std::string, std::string>>{};
}

std::vector<std::uint8_t> png16(const raster& r) {
  if (r.u16_rows) return encode_png_rows(r.width, r.height, r.channels, r.u16_rows, png16_text(r), r.deflate);
  return encode_png(r.width, r.height, r.channels, r.u16.data(), png16_text(r), r.deflate);
}

void png16_stream(const raster& r, const png_sink& sink) {
  if (r.u16_rows) return stream_png_rows(r.width, r.height, r.channels, r.u16_rows, sink, png16_text(r), r.deflate);
  stream_png(r.width, r.height, r.channels, r.u16.data(), sink, png16_text(r), r.deflate);
}

std::vector<std::uint8_t> raw16(const raster& r) {
  return encode_raw16_le(r.u16.size(), r.u16.data());
}

std::vector<std::uint8_t> raw32(const raster& r) {
  return encode_r32_le(r.floats().size(), r.floats().data());
}

std::size_t row_samples(const raster& r) {
  return static_cast<std::size_t>(r.width) * static_cast<std::size_t>(r.channels);
}

// From a row source a block of rows at a time, so neither the samples nor
// the file are held whole.
void raw16_stream(const raster& r, const png_sink& sink) {
  if (!r.u16.empty() || !r.u16_rows) return stream_raw16_le(r.u16.size(), r.u16.data(), row_samples(r), sink);
  const int block = png_chunk_rows(row_samples(r) * 2);
  std::vector<std::uint16_t> rows(row_samples(r) * static_cast<std::size_t>(block));
  for (int first = 0; first < r.height; first += block) {
    const int last = std::min(r.height, first + block);
    r.u16_rows(first, last, rows.data());
    stream_raw16_le(row_samples(r) * static_cast<std::size_t>(last - first), rows.data(), row_samples(r), sink);
  }
}

void raw32_stream(const raster& r, const png_sink& sink) {
  stream_r32_le(r.floats().size(), r.floats().data(), row_samples(r), sink);
}

std::vector<std::uint8_t> tiff16(const raster& r) {
  return encode_tiff_u16(r.width, r.height, r.channels, r.u16.data(), r.text, r.geo ? &*r.geo : nullptr);
}

std::vector<std::uint8_t> tiff32(const raster& r) {
  return encode_tiff_f32(r.width, r.height, r.channels, r.floats().data(), r.text, r.geo ? &*r.geo : nullptr);
}

void tiff16_stream(const raster& r, const png_sink& sink) {
  if (!r.u16.empty() || !r.u16_rows) {
    return stream_tiff_u16(r.width, r.height, r.channels, r.u16.data(), sink, r.text, r.geo ? &*r.geo : nullptr);
  }
  stream_tiff_u16_rows(r.width, r.height, r.channels, r.u16_rows, sink, r.text, r.geo ? &*r.geo : nullptr);
}

void tiff32_stream(const raster& r, const png_sink& sink) {
  stream_tiff_f32(r.width, r.height, r.channels, r.floats().data(), sink, r.text, r.geo ? &*r.geo : nullptr);
}

std::vector<std::uint8_t> exr32(const raster& r) {
  return encode_exr(r.width, r.height, r.channels, r.floats().data(), false, r.channel_names, r.text,
                    r.deflate.compression);
}

std::vector<std::uint8_t> exr16(const raster& r) {
  return encode_exr(r.width, r.height, r.channels, r.floats().data(), true, r.channel_names, r.text,
                    r.deflate.compression);
}

void exr32_stream(const raster& r, const png_sink& sink) {
  stream_exr(r.width, r.height, r.channels, r.floats().data(), false, sink, r.channel_names, r.text,
             r.deflate.compression);
}

void exr16_stream(const raster& r, const png_sink& sink) {
  stream_exr(r.width, r.height, r.channels, r.floats().data(), true, sink, r.channel_names, r.text,
             r.deflate.compression);
}

// Formats whose bytes the output kind prepares (GeoJSON text, a glTF
// binary): the "raster" is one row of those bytes, written as they are.
std::vector<std::uint8_t> text_bytes(const raster& r) {
  return r.u8;
}

using st = sample_type;

// The format table. Adding a format: one line here, then list its name in the
// output kinds that may write it.
const std::vector<output_format> k_formats = {
    // {name, extension, summary, channels, sample type, byte order, encoder[, stream encoder]}
    {"png16", "png", "PNG greyscale 16-bit, no gamma chunk", {1}, st::uint16, "big-endian", &png16, &png16_stream},
    {"png8", "png", "PNG greyscale 8-bit", {1}, st::uint8, "n/a", &png8, &png8_stream},
    {"raw16", "raw", "headerless uint16", {1}, st::uint16, "little-endian", &raw16, &raw16_stream},
    {"r32", "r32", "headerless IEEE-754 float32", {1}, st::float32, "little-endian", &raw32, &raw32_stream},
    {"rgb8", "png", "PNG RGB 8-bit", {3}, st::uint8, "n/a", &png8, &png8_stream},
    {"rgb16", "png", "PNG RGB 16-bit", {3}, st::uint16, "big-endian", &png16, &png16_stream},
    {"rgba8", "png", "PNG RGBA 8-bit", {4}, st::uint8, "n/a", &png8, &png8_stream},
    {"rgba16", "png", "PNG RGBA 16-bit", {4}, st::uint16, "big-endian", &png16, &png16_stream},
    {"tiff16", "tif", "TIFF uint16, uncompressed", {1, 3, 4}, st::uint16, "little-endian", &tiff16, &tiff16_stream},
    {"tiff32",
     "tif",
     "TIFF IEEE-754 float32, uncompressed",
     {1, 3, 4},
     st::float32,
     "little-endian",
     &tiff32,
     &tiff32_stream},
    {"exr", "exr", "OpenEXR float32, ZIP", {1, 2, 3, 4}, st::float32, "little-endian", &exr32, &exr32_stream},
    {"exr16", "exr", "OpenEXR half float, ZIP", {1, 2, 3, 4}, st::float16, "little-endian", &exr16, &exr16_stream},
    {"geojson", "geojson", "GeoJSON text (RFC 7946), UTF-8", {1}, st::uint8, "n/a", &text_bytes},
    {"glb",
     "glb",
     "glTF 2.0 binary (GLB): float32 attributes, uint32 indices",
     {1},
     st::uint8,
     "little-endian",
     &text_bytes},
};

// `r` with the rows of its row source in the vector of sample type `t`, for
// the formats that take the whole image.
raster whole_raster(const raster& r, sample_type t) {
  raster whole = r;
  if (t == sample_type::uint8) whole.u8 = all_rows(r, r.u8_rows);
  if (t == sample_type::uint16) whole.u16 = all_rows(r, r.u16_rows);
  return whole;
}

std::size_t samples_of(const raster& r, sample_type t) {
  switch (t) {
    case sample_type::uint8:
      return r.u8.size();
    case sample_type::uint16:
      return r.u16.size();
    default:
      return r.floats().size();
  }
}

// Throws std::invalid_argument unless `r` fits `f` (output_format::write);
// returns true when its samples come from a row source.
bool checked_rows(const output_format& f, const raster& r) {
  if (!f.takes_channels(r.channels)) {
    throw std::invalid_argument("format " + f.name + ": cannot store " + std::to_string(r.channels) + " channels");
  }
  const std::size_t expected = static_cast<std::size_t>(r.width < 0 ? 0 : r.width) *
                               static_cast<std::size_t>(r.height < 0 ? 0 : r.height) *
                               static_cast<std::size_t>(r.channels);
  const bool from_rows = (f.samples == sample_type::uint8 && r.u8_rows && r.u8.empty()) ||
                         (f.samples == sample_type::uint16 && r.u16_rows && r.u16.empty());
  if (!from_rows && samples_of(r, f.samples) != expected) {
    throw std::invalid_argument("format " + f.name + ": " + std::to_string(samples_of(r, f.samples)) +
                                " samples for an image of " + std::to_string(r.width) + " x " +
                                std::to_string(r.height) + " x " + std::to_string(r.channels));
  }
  return from_rows;
}

// quantize16's clipped count of `unit`, without its samples.
std::size_t clipped16(std::span<const float> unit) {
  std::vector<std::uint16_t> scratch(std::min<std::size_t>(unit.size(), std::size_t{1} << 14));
  std::size_t clipped = 0;
  for (std::size_t first = 0; first < unit.size(); first += scratch.size()) {
    clipped += quantize16_into(unit.data() + first, std::min(scratch.size(), unit.size() - first), scratch.data());
  }
  return clipped;
}

}  // namespace

int output_format::bit_depth() const {
  switch (samples) {
    case sample_type::uint8:
      return 8;
    case sample_type::uint16:
    case sample_type::float16:
      return 16;
    default:
      return 32;
  }
}

bool output_format::takes_channels(int n) const {
  for (int c : channels)
    if (c == n) return true;
  return false;
}

std::vector<std::uint8_t> output_format::write(const raster& r) const {
  if (checked_rows(*this, r) && extension != "png") return encode(whole_raster(r, samples));
  return encode(r);
}

bool output_format::write_to(const raster& r, const png_sink& sink) const {
  if (stream == nullptr || !sink) return false;
  (void)checked_rows(*this, r);
  stream(r, sink);  // each stream encoder takes a row source its own way
  return true;
}

const std::vector<output_format>& output_formats() {
  return k_formats;
}

const output_format& find_output_format(const std::string& name) {
  for (const auto& f : k_formats)
    if (f.name == name) return f;
  throw std::out_of_range("unknown output format '" + name + "'");
}

namespace {

// The raster's geometry and file settings, without samples.
raster raster_for(int width, int height, int channels, const file_settings& settings,
                  std::vector<std::string> channel_names) {
  raster r;
  r.width = width;
  r.height = height;
  r.channels = channels;
  r.text = settings.text;
  r.channel_names = std::move(channel_names);
  r.geo = settings.geo;
  r.deflate = settings.deflate;
  return r;
}

// Every output passes here: a NaN or infinity (a derived map overflowing
// float32) must not be written as a silent black or garbage pixel.
void require_finite(std::span<const float> samples) {
  if (const auto bad = static_cast<std::size_t>(
          std::count_if(samples.begin(), samples.end(), [](float v) { return !std::isfinite(v); }));
      bad > 0) {
    throw non_finite_output_error(std::to_string(bad) + " of " + std::to_string(samples.size()) +
                                  " samples are not finite (NaN or infinity)");
  }
}

encoded_raster written(const raster& r, const output_format& format, const file_settings& settings,
                       encoded_raster out) {
  if (format.write_to(r, settings.stream)) {
    out.streamed = true;
  } else {
    out.bytes = format.write(r);
  }
  return out;
}

}  // namespace

encoded_raster encode_samples_in_place(std::span<const float> unit, int width, int height, int channels,
                                       const output_format& format, const file_settings& settings,
                                       std::vector<std::string> channel_names) {
  raster r = raster_for(width, height, channels, settings, std::move(channel_names));
  require_finite(unit);
  encoded_raster out;
  if (format.is_float()) {
    r.f32_view = unit;  // float formats take the samples as they are
    if (format.samples == sample_type::float16) {
      out.clipped = static_cast<std::size_t>(
          std::count_if(unit.begin(), unit.end(), [](float v) { return std::abs(v) > k_half_max; }));
    }
  } else if (format.samples == sample_type::uint8) {
    quantized8 q = quantize8(unit.data(), unit.size());
    out.clipped = q.clipped;
    r.u8 = std::move(q.values);
  } else if (format.stream != nullptr && settings.stream) {
    // Streamed: quantised a block of rows at a time as the encoder asks, so
    // the 16-bit samples are not held whole beside `unit`.
    out.clipped = clipped16(unit);
    const std::size_t row = static_cast<std::size_t>(width) * static_cast<std::size_t>(channels);
    r.u16_rows = [unit, row](int first, int last, std::uint16_t* rows) {
      (void)quantize16_into(unit.data() + static_cast<std::size_t>(first) * row,
                            static_cast<std::size_t>(last - first) * row, rows);
    };
  } else {
    quantized16 q = quantize16(unit.data(), unit.size());
    out.clipped = q.clipped;
    r.u16 = std::move(q.values);
  }
  return written(r, format, settings, out);
}

encoded_raster encode_unit_samples(std::vector<float> unit, int width, int height, int channels,
                                   const output_format& format, const file_settings& settings,
                                   std::vector<std::string> channel_names) {
  return encode_samples_in_place(unit, width, height, channels, format, settings, std::move(channel_names));
}

}  // namespace landform
