#pragma once
/// @file
/// The PNG encoder: every PNG the library writes goes through here.
///
/// The image is filtered with one fixed filter per row and the filtered bytes
/// are cut into chunks of whole rows (the chunk size depends on the row length
/// only, never on the thread count); each chunk is filtered and deflated on
/// its own, in parallel, primed with the 32 KiB of filtered bytes before it
/// (which it filters again rather than wait for the chunk before), by each
/// method of the compression setting, keeping the smallest piece. The
/// raw deflate pieces (all but the last ending in a sync flush) are joined into
/// one zlib stream whose Adler-32 is combined from the chunks'. The bytes are
/// therefore the same for every thread count (for a given zlib version), and
/// the file is a standard, non-interlaced PNG any decoder reads.
///
/// stream_png hands the file over piece by piece, each chunk as soon as it
/// and the chunks before it are deflated, so a caller can write and hash it
/// while later chunks are still deflating; encode_png collects the same
/// pieces into one vector.

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace landform {

/// How hard deflate works. Each chunk is deflated by one or more zlib
/// (level, strategy) methods and the smallest result is kept:
enum class png_compression {
  fast,      ///< Z_RLE only: fastest; on heights and normal maps also smaller than level 6
  standard,  ///< the smaller of Z_RLE and level 3: the preset value "default"
  best,      ///< the smallest of those two, level 9 and level 9 Z_FILTERED: slowest
};

/// The preset's name of a level: "fast", "default" or "best".
[[nodiscard]] const char* compression_name(png_compression c);

/// The filter applied to every row (PNG filter types 0 to 4, without the
/// adaptive per-row choice, so the bytes do not depend on heuristics).
enum class png_filter {
  none = 0,
  sub = 1,
  up = 2,
  average = 3,
  paeth = 4,
};

/// Encoder settings. `nthreads` = 0 uses all cores, 1 runs serially; the
/// bytes do not depend on it.
struct png_options {
  png_compression compression = png_compression::standard;
  png_filter filter = png_filter::paeth;
  int nthreads = 0;
};

/// Rows per deflate chunk for rows of `row_bytes` bytes (samples, without the
/// filter byte): about 256 KiB of filtered data per chunk, at least one row.
[[nodiscard]] int png_chunk_rows(std::size_t row_bytes);

/// A PNG of `width` x `height` pixels of `channels` interleaved 8-bit samples
/// (1 grey, 2 grey + alpha, 3 RGB, 4 RGBA; alpha not premultiplied), rows top
/// first: `samples` holds `width * height * channels` bytes.
///
/// `text` adds one uncompressed tEXt chunk per (keyword, value) pair, before
/// the image data, in the given order. A keyword must be 1 to 79 printable
/// Latin-1 characters with no leading, trailing or consecutive spaces; a value
/// must not contain NUL. No gAMA, sRGB, iCCP, tIME or pHYs chunk is written.
///
/// Throws std::invalid_argument for a non-positive size, a null pointer, a
/// channel count outside 1..4, a bad tEXt entry or a row longer than 1 GiB;
/// std::runtime_error if zlib fails; std::bad_alloc when memory runs out.
[[nodiscard]] std::vector<std::uint8_t> encode_png(int width, int height, int channels, const std::uint8_t* samples,
                                                   const std::vector<std::pair<std::string, std::string>>& text = {},
                                                   const png_options& options = {});

/// As above with 16-bit samples in host order, stored big-endian as PNG
/// requires whatever the host byte order.
[[nodiscard]] std::vector<std::uint8_t> encode_png(int width, int height, int channels, const std::uint16_t* samples,
                                                   const std::vector<std::pair<std::string, std::string>>& text = {},
                                                   const png_options& options = {});

/// Receives a PNG's bytes piece by piece, in file order (stream_png). A
/// piece's memory is valid only during the call.
using png_sink = std::function<void(std::span<const std::uint8_t> piece)>;

/// encode_png's bytes handed to `sink` piece by piece as they are made, so
/// the file is never held whole: the signature, IHDR and tEXt chunks first,
/// then each deflate chunk's IDAT as soon as that chunk and every chunk
/// before it are deflated (later chunks are still deflating meanwhile),
/// then IEND. The pieces joined are encode_png's bytes. `sink` is called
/// one piece at a time, possibly from the encoder's threads (each call
/// finishes before the next starts). Throws as encode_png
/// (std::invalid_argument for an empty `sink`), and whatever `sink` throws;
/// after a throw no further piece is sent.
void stream_png(int width, int height, int channels, const std::uint8_t* samples, const png_sink& sink,
                const std::vector<std::pair<std::string, std::string>>& text = {}, const png_options& options = {});

/// As above with 16-bit samples in host order.
void stream_png(int width, int height, int channels, const std::uint16_t* samples, const png_sink& sink,
                const std::vector<std::pair<std::string, std::string>>& text = {}, const png_options& options = {});

/// Rows on demand, for encode_png_rows: writes rows [first, last) of the
/// image to `out`, (last - first) x width x channels samples, top row first.
/// Called from several threads at once, and more than once for some rows
/// (a chunk's dictionary rows): it must be thread-safe and give the same
/// samples for a row every time.
template <class T>
using png_row_source = std::function<void(int first, int last, T* out)>;

/// encode_png with the samples asked for a chunk of rows at a time, as the
/// encoder's tasks need them, so the image is never held whole: the same
/// bytes as encode_png of the samples `rows` gives. Throws as encode_png
/// (std::invalid_argument for an empty `rows`), and whatever `rows` throws.
[[nodiscard]] std::vector<std::uint8_t> encode_png_rows(
    int width, int height, int channels, const png_row_source<std::uint8_t>& rows,
    const std::vector<std::pair<std::string, std::string>>& text = {}, const png_options& options = {});

/// As above with 16-bit samples in host order.
[[nodiscard]] std::vector<std::uint8_t> encode_png_rows(
    int width, int height, int channels, const png_row_source<std::uint16_t>& rows,
    const std::vector<std::pair<std::string, std::string>>& text = {}, const png_options& options = {});

/// stream_png with the samples asked for a chunk of rows at a time, as
/// encode_png_rows: the same bytes, neither the image nor the file ever held
/// whole. Throws as stream_png and encode_png_rows.
void stream_png_rows(int width, int height, int channels, const png_row_source<std::uint8_t>& rows,
                     const png_sink& sink, const std::vector<std::pair<std::string, std::string>>& text = {},
                     const png_options& options = {});

/// As above with 16-bit samples in host order.
void stream_png_rows(int width, int height, int channels, const png_row_source<std::uint16_t>& rows,
                     const png_sink& sink, const std::vector<std::pair<std::string, std::string>>& text = {},
                     const png_options& options = {});

}  // namespace landform
