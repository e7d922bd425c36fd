#pragma once
/// @file
/// Encoders that turn sample arrays into file bytes, in memory (encode_*) or
/// piece by piece to a sink (stream_*, the same bytes).
///
/// All images are `width` x `height` pixels, row-major, top row first
/// (element (x, y) of a c-channel image is at index `(y * width + x) * c + k`).
/// The encoders are deterministic: the same input always gives the same bytes.
/// None of them writes gAMA, sRGB, iCCP, tIME or pHYs chunks: samples are data,
/// not colours, and must be read back unchanged.
///
/// Common errors: std::invalid_argument for a non-positive size, a null pixel
/// pointer or an image too large for the encoder; std::runtime_error if zlib
/// or the TIFF or EXR library reports a failure; std::bad_alloc when memory
/// runs out.

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "landform/io/png_encode.hpp"

namespace landform {

/// 8-bit greyscale PNG (colour type 0, bit depth 8) of `width` x `height`
/// samples, one byte per pixel. All the PNG encoders here are encode_png
/// (landform/io/png_encode.hpp): parallel deflate, the same bytes for every
/// `options.nthreads`.
[[nodiscard]] std::vector<std::uint8_t> encode_png_gray8(int width, int height, const std::uint8_t* pixels,
                                                         const png_options& options = {});

/// 8-bit RGB PNG (colour type 2, bit depth 8); `rgb` holds `width * height * 3`
/// bytes, R G B per pixel.
[[nodiscard]] std::vector<std::uint8_t> encode_png_rgb8(int width, int height, const std::uint8_t* rgb,
                                                        const png_options& options = {});

/// 8-bit RGBA PNG (colour type 6, bit depth 8); `rgba` holds
/// `width * height * 4` bytes, R G B A per pixel, alpha not premultiplied.
[[nodiscard]] std::vector<std::uint8_t> encode_png_rgba8(int width, int height, const std::uint8_t* rgba,
                                                         const png_options& options = {});

/// 16-bit greyscale PNG (colour type 0, bit depth 16) of `width` x `height`
/// samples in host order; the file stores them big-endian as PNG requires,
/// whatever the host byte order.
///
/// `text` adds one uncompressed tEXt chunk per (keyword, value) pair, before
/// the image data, in the given order (for provenance: seed, preset hash...).
/// A keyword must be 1 to 79 printable Latin-1 characters with no leading,
/// trailing or consecutive spaces; a value must not contain NUL. Anything else
/// throws std::invalid_argument. Values should be ASCII (tEXt is Latin-1).
[[nodiscard]] std::vector<std::uint8_t> encode_png_gray16(
    int width, int height, const std::uint16_t* pixels,
    const std::vector<std::pair<std::string, std::string>>& text = {}, const png_options& options = {});

/// 16-bit RGB PNG (colour type 2, bit depth 16); `rgb` holds
/// `width * height * 3` samples in host order, R G B per pixel; stored
/// big-endian.
[[nodiscard]] std::vector<std::uint8_t> encode_png_rgb16(int width, int height, const std::uint16_t* rgb,
                                                         const png_options& options = {});

/// 16-bit RGBA PNG (colour type 6, bit depth 16); `rgba` holds
/// `width * height * 4` samples in host order, R G B A per pixel, alpha not
/// premultiplied; stored big-endian.
[[nodiscard]] std::vector<std::uint8_t> encode_png_rgba16(int width, int height, const std::uint16_t* rgba,
                                                          const png_options& options = {});

/// Where a TIFF's pixels are in the world, for GeoTIFF tags: the world
/// coordinates of pixel (0, 0)'s sample and the pixel size. World y grows with
/// the rows (row 0 = north), so the tags store northing = -y.
struct georeference {
  double x = 0.0;
  double y = 0.0;
  double pixel_size = 1.0;
};

/// Uncompressed little-endian baseline TIFF (one strip per 64 KiB or so,
/// contiguous samples) of `channels` = 1 (greyscale, MinIsBlack), 3 (RGB) or 4
/// (RGB plus an unassociated alpha) unsigned 16-bit samples per pixel. `text`
/// entries "Software" and "Comment" become the Software and ImageDescription
/// tags; no DateTime tag, so the bytes depend on the samples only. Written
/// with libtiff; its messages are collected, never printed.
///
/// With `geo`, GeoTIFF tags place the image so that GDAL and QGIS put it where
/// the preset does: ModelPixelScale = (pixel_size, pixel_size, 0), a tie point
/// from pixel (0, 0) to (x, -y), and a GeoKey directory with only
/// GTRasterTypeGeoKey = PixelIsPoint (heights are samples at the pixel
/// centres; no coordinate reference system is claimed).
[[nodiscard]] std::vector<std::uint8_t> encode_tiff_u16(
    int width, int height, int channels, const std::uint16_t* samples,
    const std::vector<std::pair<std::string, std::string>>& text = {}, const georeference* geo = nullptr);

/// As encode_tiff_u16 with IEEE-754 float32 samples (SampleFormat 3).
[[nodiscard]] std::vector<std::uint8_t> encode_tiff_f32(
    int width, int height, int channels, const float* samples,
    const std::vector<std::pair<std::string, std::string>>& text = {}, const georeference* geo = nullptr);

/// encode_tiff_u16's bytes handed to `sink` piece by piece, so the file is
/// never held whole: the 8-byte header first, then each strip as libtiff
/// fills it (about 64 KiB), then the directory (tags, strip offsets: a few
/// KiB). Throws as encode_tiff_u16, std::invalid_argument for an empty
/// `sink`, and whatever `sink` throws; after a throw no further piece is sent.
void stream_tiff_u16(int width, int height, int channels, const std::uint16_t* samples, const png_sink& sink,
                     const std::vector<std::pair<std::string, std::string>>& text = {},
                     const georeference* geo = nullptr);

/// As stream_tiff_u16 with the samples from `rows`, asked for a block of
/// rows at a time in order (about 256 KiB), so the image is never held whole.
void stream_tiff_u16_rows(int width, int height, int channels, const png_row_source<std::uint16_t>& rows,
                          const png_sink& sink, const std::vector<std::pair<std::string, std::string>>& text = {},
                          const georeference* geo = nullptr);

/// As stream_tiff_u16 with encode_tiff_f32's float32 samples.
void stream_tiff_f32(int width, int height, int channels, const float* samples, const png_sink& sink,
                     const std::vector<std::pair<std::string, std::string>>& text = {},
                     const georeference* geo = nullptr);

/// The largest finite OpenEXR half; exr16 clamps samples beyond +-it.
inline constexpr float k_half_max = 65504.0f;

/// Scanline OpenEXR (ZIP compression, increasing Y) of `channels` = 1..4
/// float samples per pixel, stored as FLOAT or, with `half`, as HALF (each
/// value rounded to the nearest binary16, clamped to +-k_half_max). `names` are the channel names
/// (default Y, or R G B, or R G B A); `text` entries become string attributes
/// ("Software" -> "software", "Comment" -> "comments"). `compression` sets
/// the ZIP level: fast 1, best 9, standard OpenEXR's own default. Written with
/// OpenEXR; deterministic for a given OpenEXR and zlib version.
[[nodiscard]] std::vector<std::uint8_t> encode_exr(int width, int height, int channels, const float* samples, bool half,
                                                   const std::vector<std::string>& names = {},
                                                   const std::vector<std::pair<std::string, std::string>>& text = {},
                                                   png_compression compression = png_compression::standard);

/// encode_exr's bytes handed to `sink`: OpenEXR writes the line offset
/// table before the chunks and fills it in last, so the compressed chunks
/// are held (in pieces of about 256 KiB, never one growing buffer) until the
/// table is known, then the header and table go first, then the chunks, each
/// piece released once sent. Each chunk is compressed once. Throws as
/// encode_exr (naming stream_exr), std::invalid_argument for an empty
/// `sink`, and whatever `sink` throws.
void stream_exr(int width, int height, int channels, const float* samples, bool half, const png_sink& sink,
                const std::vector<std::string>& names = {},
                const std::vector<std::pair<std::string, std::string>>& text = {},
                png_compression compression = png_compression::standard);

/// Headerless little-endian unsigned 16-bit samples: `count * 2` bytes, low
/// byte first, whatever the host byte order. `values` may be null only when
/// `count` is 0 (else std::invalid_argument).
[[nodiscard]] std::vector<std::uint8_t> encode_raw16_le(std::size_t count, const std::uint16_t* values);

/// Headerless little-endian IEEE-754 binary32 samples: `count * 4` bytes, the
/// bit pattern of each float low byte first (1.0f -> 00 00 80 3F), whatever the
/// host byte order; NaN payloads and signed zeros are kept bit for bit.
/// `values` may be null only when `count` is 0 (else std::invalid_argument).
[[nodiscard]] std::vector<std::uint8_t> encode_r32_le(std::size_t count, const float* values);

/// encode_raw16_le's bytes handed to `sink` in pieces of whole rows of
/// `row_length` values (about 64 KiB each; the last piece may hold fewer
/// values), converted through one piece-sized buffer, so the file is never
/// held whole. Throws as encode_raw16_le, std::invalid_argument for an empty
/// `sink` or a `row_length` of 0 with `count` > 0, and whatever `sink` throws.
void stream_raw16_le(std::size_t count, const std::uint16_t* values, std::size_t row_length, const png_sink& sink);

/// encode_r32_le's bytes handed to `sink` as stream_raw16_le hands its own.
void stream_r32_le(std::size_t count, const float* values, std::size_t row_length, const png_sink& sink);

}  // namespace landform
