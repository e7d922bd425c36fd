#pragma once
/// @file
/// The file formats outputs can be written in, as one typed table: each entry
/// says the extension, container, channel counts, sample type (bit depth),
/// byte order and the encoder. Adding a format is one entry in
/// src/outputs/output_format.cpp (and naming it in the kinds that allow it).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "landform/io/encode.hpp"

namespace landform {

/// The type of one sample in a file.
enum class sample_type {
  uint8,    ///< 0..255
  uint16,   ///< 0..65535
  float16,  ///< IEEE-754 binary16 (OpenEXR half)
  float32,  ///< IEEE-754 binary32
};

/// Samples handed to a format's encoder: `width` x `height` pixels of
/// `channels` interleaved samples, top row first. Integer formats read `u8` or
/// `u16` (already quantised), float formats read `f32` (float16 formats round
/// each value to the nearest half).
struct raster {
  int width = 0;
  int height = 0;
  int channels = 1;
  std::vector<std::uint8_t> u8;
  std::vector<std::uint16_t> u16;
  std::vector<float> f32;
  /// Instead of `f32` (left empty): float samples borrowed from the caller,
  /// which outlive the encoding (a whole-region height map written as it is,
  /// without a copy of the map). Encoders read floats().
  std::span<const float> f32_view;
  /// Instead of `u8` or `u16` (left empty): the samples a chunk of rows at a
  /// time (see encode_png_rows), so a PNG is encoded without the image ever
  /// held whole; other formats take all rows at once.
  png_row_source<std::uint8_t> u8_rows;
  png_row_source<std::uint16_t> u16_rows;
  /// OpenEXR channel names; empty: Y for one channel, R G B (A) for three (four).
  std::vector<std::string> channel_names;
  /// Provenance ("Software", "Comment"): PNG tEXt (16-bit PNG), TIFF Software
  /// and ImageDescription, OpenEXR string attributes. Formats without a place
  /// for it (raw, 8-bit PNG) ignore it.
  std::vector<std::pair<std::string, std::string>> text;
  /// Placement in the world: GeoTIFF tags in TIFF formats, ignored by others.
  std::optional<georeference> geo;
  /// Deflate settings: PNG formats use all of them (zlib level, filter,
  /// threads); OpenEXR formats take their ZIP level from `compression`;
  /// other formats ignore them. The bytes never depend on `nthreads`.
  png_options deflate;

  /// The float samples: `f32`, or `f32_view` when `f32` is empty.
  [[nodiscard]] std::span<const float> floats() const { return f32.empty() ? f32_view : std::span<const float>(f32); }
};

/// How a file is written besides its samples: provenance text, placement and
/// deflate settings, as `raster` documents them. Output kinds get theirs from
/// output_context::write_settings().
struct file_settings {
  std::vector<std::pair<std::string, std::string>> text;
  std::optional<georeference> geo;
  png_options deflate;
  /// When set, the raster formats (PNG, raw, TIFF, OpenEXR) send their bytes
  /// here piece by piece as they are made (output_format::write_to) instead
  /// of returning them; other formats ignore it.
  png_sink stream;
};

/// A map to be written holds NaN or infinity (thrown by
/// encode_unit_samples; the pipeline names the output).
class non_finite_output_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// An output option the region cannot meet (e.g. a mesh's max_triangles
/// below its coarsest mesh), found only while encoding: `option` names it,
/// what() gives the value and the rule; the pipeline names the output and
/// reports it as a preset error.
class output_option_error : public std::runtime_error {
 public:
  output_option_error(std::string option, const std::string& message)
      : std::runtime_error(message), m_option(std::move(option)) {}
  [[nodiscard]] const std::string& option() const { return m_option; }

 private:
  std::string m_option;
};

/// One file encoding, e.g. png16.
struct output_format {
  std::string name;           ///< "png16", "tiff32", "exr", ...
  std::string extension;      ///< default file extension
  std::string summary;        ///< container and samples, for the manifest's "encoding"
  std::vector<int> channels;  ///< channel counts the encoder takes
  sample_type samples = sample_type::uint8;
  std::string byte_order;  ///< "big-endian", "little-endian" or "n/a"
  std::vector<std::uint8_t> (*encode)(const raster&) = nullptr;
  /// `encode` as a stream (stream_png, stream_raw16_le, stream_tiff_f32,
  /// stream_exr...), the same bytes; null for the formats written whole
  /// (GeoJSON, GLB).
  void (*stream)(const raster&, const png_sink&) = nullptr;

  /// 8, 16 or 32.
  [[nodiscard]] int bit_depth() const;
  /// float16 or float32: values are stored, not quantised.
  [[nodiscard]] bool is_float() const { return samples == sample_type::float16 || samples == sample_type::float32; }
  [[nodiscard]] bool takes_channels(int n) const;
  /// PNG and OpenEXR: files deflated with a level the preset can choose.
  [[nodiscard]] bool deflates() const { return extension == "png" || extension == "exr"; }
  /// Encodes `r` after checking its channel count and that the vector of the
  /// format's sample type holds width * height * channels samples, or is
  /// empty with a row source of that type given (else
  /// std::invalid_argument).
  [[nodiscard]] std::vector<std::uint8_t> write(const raster& r) const;
  /// write() to `sink` piece by piece, for a format that streams (`stream`
  /// set) and a non-empty `sink`: returns true, the bytes never held whole.
  /// Otherwise returns false and leaves `sink` alone (call write()). Checks
  /// and throws as write(), and whatever `sink` throws.
  [[nodiscard]] bool write_to(const raster& r, const png_sink& sink) const;
};

/// Every format, in table order.
const std::vector<output_format>& output_formats();

/// The format called `name`; throws std::out_of_range for an unknown one.
const output_format& find_output_format(const std::string& name);

/// The result of encoding unit values.
struct encoded_raster {
  std::vector<std::uint8_t> bytes;  ///< empty when streamed
  /// Samples clamped: outside [0, 1] when quantising, beyond +-65504 in a half-float format.
  std::size_t clipped = 0;
  bool streamed = false;  ///< the bytes went to file_settings::stream
};

/// Encodes `unit` (width * height * channels samples, normally in [0, 1]) in
/// `format`: integer formats quantise with round(v * (2^bits - 1)), clamping
/// and counting values outside; float formats store the values as they are.
/// `settings` gives the provenance text, placement and deflate settings, and
/// the stream a raster file goes to (then `bytes` stays empty and `streamed` is set).
/// Throws non_finite_output_error for a NaN or infinite sample.
encoded_raster encode_unit_samples(std::vector<float> unit, int width, int height, int channels,
                                   const output_format& format, const file_settings& settings = {},
                                   std::vector<std::string> channel_names = {});

/// encode_unit_samples of samples the caller keeps until it returns: float
/// formats (r32, tiff32, exr, exr16) and streamed 16-bit formats read them in
/// place, so the map is never copied; other formats quantise from them.
encoded_raster encode_samples_in_place(std::span<const float> unit, int width, int height, int channels,
                                       const output_format& format, const file_settings& settings = {},
                                       std::vector<std::string> channel_names = {});

}  // namespace landform
