#include "landform/io/encode.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>

namespace landform {

std::vector<std::uint8_t> encode_png_gray8(int width, int height, const std::uint8_t* pixels,
                                           const png_options& options) {
  return encode_png(width, height, 1, pixels, {}, options);
}

std::vector<std::uint8_t> encode_png_rgb8(int width, int height, const std::uint8_t* rgb, const png_options& options) {
  return encode_png(width, height, 3, rgb, {}, options);
}

std::vector<std::uint8_t> encode_png_rgba8(int width, int height, const std::uint8_t* rgba,
                                           const png_options& options) {
  return encode_png(width, height, 4, rgba, {}, options);
}

std::vector<std::uint8_t> encode_png_gray16(int width, int height, const std::uint16_t* pixels,
                                            const std::vector<std::pair<std::string, std::string>>& text,
                                            const png_options& options) {
  return encode_png(width, height, 1, pixels, text, options);
}

std::vector<std::uint8_t> encode_png_rgb16(int width, int height, const std::uint16_t* rgb,
                                           const png_options& options) {
  return encode_png(width, height, 3, rgb, {}, options);
}

std::vector<std::uint8_t> encode_png_rgba16(int width, int height, const std::uint16_t* rgba,
                                            const png_options& options) {
  return encode_png(width, height, 4, rgba, {}, options);
}

namespace {

// Rows per streamed piece of headerless samples: about 64 KiB, at least one.
constexpr std::size_t k_raw_piece_bytes = std::size_t{1} << 16;

// `count` values from `values` to `out`, each little-endian (2 bytes).
void put_le16(const std::uint16_t* values, std::size_t count, std::uint8_t* out) {
  for (std::size_t i = 0; i < count; ++i) {
    out[2 * i] = static_cast<std::uint8_t>(values[i] & 0xFFu);
    out[2 * i + 1] = static_cast<std::uint8_t>(values[i] >> 8);
  }
}

// `count` floats from `values` to `out`, each bit pattern little-endian (4 bytes).
void put_le32(const float* values, std::size_t count, std::uint8_t* out) {
  static_assert(sizeof(float) == 4 && std::numeric_limits<float>::is_iec559, "float must be IEEE-754 binary32");
  if constexpr (std::endian::native == std::endian::little) {
    if (count > 0) std::memcpy(out, values, count * 4);  // already the file's byte order
    return;
  }
  for (std::size_t i = 0; i < count; ++i) {
    const auto bits = std::bit_cast<std::uint32_t>(values[i]);
    out[4 * i] = static_cast<std::uint8_t>(bits & 0xFFu);
    out[4 * i + 1] = static_cast<std::uint8_t>((bits >> 8) & 0xFFu);
    out[4 * i + 2] = static_cast<std::uint8_t>((bits >> 16) & 0xFFu);
    out[4 * i + 3] = static_cast<std::uint8_t>(bits >> 24);
  }
}

// Throws std::invalid_argument / std::length_error for the raw encoders' bad arguments.
void check_raw(const char* what, std::size_t count, const void* values, std::size_t bytes_per_value) {
  if (count > 0 && values == nullptr) throw std::invalid_argument(std::string(what) + ": null values");
  if (count > std::numeric_limits<std::size_t>::max() / bytes_per_value) {
    throw std::length_error(std::string(what) + ": too many values");
  }
}

// Sends `count` values to `sink` in pieces of whole rows of `row_length`
// values, each converted by `put` into one reused piece buffer.
template <class T>
void stream_raw(const char* what, std::size_t count, const T* values, std::size_t row_length, const png_sink& sink,
                std::size_t bytes_per_value, void (*put)(const T*, std::size_t, std::uint8_t*)) {
  check_raw(what, count, values, bytes_per_value);
  if (!sink) throw std::invalid_argument(std::string(what) + ": empty sink");
  if (count == 0) return;
  if (row_length == 0) throw std::invalid_argument(std::string(what) + ": row length 0");
  const std::size_t rows = std::max<std::size_t>(1, k_raw_piece_bytes / (row_length * bytes_per_value));
  const std::size_t piece_values = rows <= count / row_length ? rows * row_length : count;
  std::vector<std::uint8_t> piece(piece_values * bytes_per_value);
  for (std::size_t first = 0; first < count; first += piece_values) {
    const std::size_t n = std::min(piece_values, count - first);
    put(values + first, n, piece.data());
    sink(std::span<const std::uint8_t>(piece.data(), n * bytes_per_value));
  }
}

}  // namespace

std::vector<std::uint8_t> encode_raw16_le(std::size_t count, const std::uint16_t* values) {
  check_raw("encode_raw16_le", count, values, 2);
  std::vector<std::uint8_t> out(count * 2);
  put_le16(values, count, out.data());
  return out;
}

std::vector<std::uint8_t> encode_r32_le(std::size_t count, const float* values) {
  check_raw("encode_r32_le", count, values, 4);
  std::vector<std::uint8_t> out(count * 4);
  put_le32(values, count, out.data());
  return out;
}

void stream_raw16_le(std::size_t count, const std::uint16_t* values, std::size_t row_length, const png_sink& sink) {
  stream_raw("stream_raw16_le", count, values, row_length, sink, 2, &put_le16);
}

void stream_r32_le(std::size_t count, const float* values, std::size_t row_length, const png_sink& sink) {
  stream_raw("stream_r32_le", count, values, row_length, sink, 4, &put_le32);
}

}  // namespace landform
