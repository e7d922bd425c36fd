#include "landform/io/encode.hpp"

#include <bit>
#include <cstring>
#include <limits>
#include <stdexcept>

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

std::vector<std::uint8_t> encode_raw16_le(std::size_t count, const std::uint16_t* values) {
  if (count > 0 && values == nullptr) throw std::invalid_argument("encode_raw16_le: null values");
  if (count > std::numeric_limits<std::size_t>::max() / 2) throw std::length_error("encode_raw16_le: too many values");
  std::vector<std::uint8_t> out(count * 2);
  for (std::size_t i = 0; i < count; ++i) {
    out[2 * i] = static_cast<std::uint8_t>(values[i] & 0xFFu);
    out[2 * i + 1] = static_cast<std::uint8_t>(values[i] >> 8);
  }
  return out;
}

std::vector<std::uint8_t> encode_r32_le(std::size_t count, const float* values) {
  static_assert(sizeof(float) == 4 && std::numeric_limits<float>::is_iec559, "float must be IEEE-754 binary32");
  if (count > 0 && values == nullptr) throw std::invalid_argument("encode_r32_le: null values");
  if (count > std::numeric_limits<std::size_t>::max() / 4) throw std::length_error("encode_r32_le: too many values");
  std::vector<std::uint8_t> out(count * 4);
  if constexpr (std::endian::native == std::endian::little) {
    if (count > 0) std::memcpy(out.data(), values, count * 4);  // already the file's byte order
    return out;
  }
  for (std::size_t i = 0; i < count; ++i) {
    const auto bits = std::bit_cast<std::uint32_t>(values[i]);
    out[4 * i] = static_cast<std::uint8_t>(bits & 0xFFu);
    out[4 * i + 1] = static_cast<std::uint8_t>((bits >> 8) & 0xFFu);
    out[4 * i + 2] = static_cast<std::uint8_t>((bits >> 16) & 0xFFu);
    out[4 * i + 3] = static_cast<std::uint8_t>(bits >> 24);
  }
  return out;
}

}  // namespace landform
