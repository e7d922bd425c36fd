#include "landform/io/decode.hpp"

#include <stb_image.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace landform {

namespace {

// As many pixels as the largest map has cells.
constexpr std::int64_t k_max_image_pixels = std::int64_t{1} << 28;

using subject = heightmap_decode_error::subject;

heightmap_samples decode_png(const std::vector<std::uint8_t>& bytes, const std::string& name) {
  if (bytes.size() > static_cast<std::size_t>(INT32_MAX))
    throw heightmap_decode_error(subject::file, name + " is too large");
  const auto* data = bytes.data();
  const int length = static_cast<int>(bytes.size());
  heightmap_samples out;
  int w = 0, h = 0, channels = 0;
  // The header's declared size, before any pixel is decoded: 875 KB of PNG
  // can declare 30000 x 30000 and take gigabytes to decode.
  if (stbi_info_from_memory(data, length, &w, &h, &channels) &&
      static_cast<std::int64_t>(w) * static_cast<std::int64_t>(h) > k_max_image_pixels) {
    throw heightmap_decode_error(subject::file, name + " declares " + std::to_string(w) + " x " + std::to_string(h) +
                                                    " pixels: more than 2^28 (the largest map)");
  }
  if (stbi_is_16_bit_from_memory(data, length)) {
    stbi_us* pixels = stbi_load_16_from_memory(data, length, &w, &h, &channels, 1);
    if (!pixels) throw heightmap_decode_error(subject::file, name + " cannot be decoded: " + stbi_failure_reason());
    out.values.resize(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
    for (std::size_t k = 0; k < out.values.size(); ++k) out.values[k] = static_cast<float>(pixels[k] / 65535.0);
    stbi_image_free(pixels);
  } else {
    stbi_uc* pixels = stbi_load_from_memory(data, length, &w, &h, &channels, 1);
    if (!pixels) throw heightmap_decode_error(subject::file, name + " cannot be decoded: " + stbi_failure_reason());
    out.values.resize(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
    for (std::size_t k = 0; k < out.values.size(); ++k) out.values[k] = static_cast<float>(pixels[k] / 255.0);
    stbi_image_free(pixels);
  }
  out.width = w;
  out.height = h;
  return out;
}

// The raw image's width and height from its sample count and the request.
std::pair<std::size_t, std::size_t> raw_shape(std::size_t samples, const heightmap_request& r,
                                              const std::string& name) {
  const auto raw_width = static_cast<std::size_t>(r.raw_width);
  const auto raw_height = static_cast<std::size_t>(r.raw_height);
  if (raw_width > 0 && raw_height > 0 && samples != raw_width * raw_height) {
    throw heightmap_decode_error(subject::raw_height, "raw_width x raw_height = " + std::to_string(raw_width) + " x " +
                                                          std::to_string(raw_height) + " but the file holds " +
                                                          std::to_string(samples) + " samples");
  }
  if (raw_width > 0 && samples % raw_width != 0) {
    throw heightmap_decode_error(
        subject::raw_width,
        std::to_string(samples) + " samples are not a whole number of rows of " + std::to_string(raw_width));
  }
  std::size_t w = raw_width;
  if (w == 0) {
    w = static_cast<std::size_t>(std::llround(std::sqrt(static_cast<double>(samples))));
    if (w * w != samples) {
      throw heightmap_decode_error(subject::raw_width, "0 means a square image, but " + std::to_string(samples) +
                                                           " samples are not a square; give raw_width");
    }
  }
  const std::size_t h = raw_height > 0 ? raw_height : samples / w;
  if (w * h != samples) {
    throw heightmap_decode_error(subject::raw_height, "a square image of " + std::to_string(samples) + " samples has " +
                                                          std::to_string(w) + " rows, not " + std::to_string(h));
  }
  if (w > 65536 || h > 65536) {
    throw heightmap_decode_error(subject::file, name + " holds " + std::to_string(samples) + " samples, " +
                                                    std::to_string(w) + " x " + std::to_string(h) +
                                                    ": more than 65536 on a side");
  }
  return {w, h};
}

}  // namespace

heightmap_encoding resolve_heightmap_encoding(heightmap_encoding encoding, const std::string& path) {
  if (encoding != heightmap_encoding::automatic) return encoding;
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == ".raw" || ext == ".r16") return heightmap_encoding::raw16;
  if (ext == ".r32") return heightmap_encoding::r32;
  return heightmap_encoding::png;
}

heightmap_samples decode_heightmap(const std::vector<std::uint8_t>& bytes, const heightmap_request& request,
                                   const std::string& name) {
  if (request.encoding == heightmap_encoding::png) return decode_png(bytes, name);
  if (request.encoding == heightmap_encoding::automatic) {
    throw std::logic_error("decode_heightmap: resolve the encoding first (resolve_heightmap_encoding)");
  }
  const bool raw16 = request.encoding == heightmap_encoding::raw16;
  const std::size_t per = raw16 ? 2 : 4;
  if (bytes.empty() || bytes.size() % per != 0) {
    throw heightmap_decode_error(subject::file, name + " has " + std::to_string(bytes.size()) +
                                                    " bytes, not a whole number of " + std::to_string(per) +
                                                    "-byte samples");
  }
  const std::size_t samples = bytes.size() / per;
  if (samples > static_cast<std::size_t>(k_max_image_pixels)) {
    throw heightmap_decode_error(
        subject::file, name + " holds " + std::to_string(samples) + " samples: more than 2^28 (the largest map)");
  }
  const auto [w, h] = raw_shape(samples, request, name);
  heightmap_samples out;
  out.width = static_cast<int>(w);
  out.height = static_cast<int>(h);
  out.values.resize(samples);
  for (std::size_t k = 0; k < samples; ++k) {
    const std::uint8_t* b = bytes.data() + k * per;
    if (raw16) {
      out.values[k] = static_cast<float>((b[0] | (b[1] << 8)) / 65535.0);
    } else {
      const std::uint32_t bits =
          std::uint32_t{b[0]} | (std::uint32_t{b[1]} << 8) | (std::uint32_t{b[2]} << 16) | (std::uint32_t{b[3]} << 24);
      std::memcpy(&out.values[k], &bits, sizeof bits);
    }
  }
  return out;
}

std::optional<std::vector<std::uint8_t>> read_file_bytes(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  // Larger than any image the size limits allow (2^28 r32 samples): refused
  // before reading, so a huge file cannot exhaust memory at validation.
  constexpr std::uintmax_t k_max_bytes = (std::uintmax_t{1} << 30) + (std::uintmax_t{1} << 20);
  if (const auto size = std::filesystem::file_size(path, ec); ec || size > k_max_bytes) return std::nullopt;
  try {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) return std::nullopt;
    return bytes;
  } catch (const std::ios_base::failure&) {
    return std::nullopt;  // a read error (EIO: /proc/self/mem) is thrown by libstdc++'s filebuf
  }
}

}  // namespace landform
