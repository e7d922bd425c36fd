#include "landform/io/decode.hpp"

#include <stb_image.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string_view>

namespace landform {

namespace {

// As many pixels as the largest map has cells.
constexpr std::int64_t k_max_image_pixels = std::int64_t{1} << 28;

using subject = heightmap_decode_error::subject;

// Bits per pixel of a PNG colour type at `depth`; 0 for an invalid pair
// (stb_image then names the fault).
int png_bits_per_pixel(int colour_type, int depth) {
  switch (colour_type) {
    case 0:
      return depth;  // grey: 1, 2, 4, 8, 16
    case 3:
      return depth <= 8 ? depth : 0;  // palette: 1, 2, 4, 8
    case 2:
      return depth >= 8 ? 3 * depth : 0;
    case 4:
      return depth >= 8 ? 2 * depth : 0;
    case 6:
      return depth >= 8 ? 4 * depth : 0;
    default:
      return 0;
  }
}

// The bytes of a PNG's filtered scanlines (a filter byte per row, rows
// padded to a byte), per Adam7 pass when interlaced.
std::uint64_t png_scanline_bytes(std::uint64_t width, std::uint64_t height, std::uint64_t bits, bool interlaced) {
  const auto rows_of = [bits](std::uint64_t cols, std::uint64_t rows) {
    return cols == 0 || rows == 0 ? 0 : rows * (1 + (cols * bits + 7) / 8);
  };
  if (!interlaced) return rows_of(width, height);
  struct pass {
    std::uint64_t x0, y0, dx, dy;
  };
  constexpr pass k_adam7[] = {{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4},
                              {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}};
  std::uint64_t total = 0;
  for (const pass& p : k_adam7) {
    const std::uint64_t cols = width > p.x0 ? (width - p.x0 + p.dx - 1) / p.dx : 0;
    const std::uint64_t rows = height > p.y0 ? (height - p.y0 + p.dy - 1) / p.dy : 0;
    total += rows_of(cols, rows);
  }
  return total;
}

std::uint32_t read_be32(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | std::uint32_t{p[3]};
}

// The chunk type as text, or its byte offset when it is not four letters.
std::string chunk_name(const std::uint8_t* type, std::size_t offset) {
  const bool letters =
      std::all_of(type, type + 4, [](std::uint8_t b) { return (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z'); });
  return letters ? "chunk " + std::string(type, type + 4) + " at byte " + std::to_string(offset)
                 : "the chunk at byte " + std::to_string(offset);
}

// A critical chunk's stored CRC (over its type and data) against the one
// computed. Fuzzing builds skip it, as libpng's do: random mutations would
// otherwise all stop here instead of reaching the decoder.
void check_chunk_crc(const std::uint8_t* chunk, std::uint32_t length, const std::string& fault,
                     const std::string& chunk_text) {
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
  const bool critical = chunk[4] >= 'A' && chunk[4] <= 'Z';
  if (!critical) return;
  const auto computed = static_cast<std::uint32_t>(crc32(crc32(0L, nullptr, 0), chunk + 4, length + 4));
  const std::uint32_t stored = read_be32(chunk + 8 + length);
  if (computed != stored) {
    throw heightmap_decode_error(heightmap_decode_error::subject::file,
                                 fault + chunk_text + " fails its CRC check (the file is damaged)");
  }
#else
  (void)chunk, (void)length, (void)fault, (void)chunk_text;
#endif
}

// The PNG's structure, checked before stb_image sees the bytes, so that what
// it allocates is bounded by what the file holds: stb_image sizes its
// buffers from the chunk lengths and the header before it reads the data (a
// 127-byte file with a chunk declaring 1.6 GB made it ask for 2 GiB). The
// signature, every chunk inside the file up to IEND, IHDR first (after
// Apple's CgBI), at most 2^28 pixels, and enough compressed data for the
// declared pixels: deflate expands at most 1032:1. The CRC of every critical
// chunk (IHDR, PLTE, IDAT, IEND), as libpng checks it: stb_image reads none,
// so a damaged file decoded into a wrong picture. Ancillary chunks with a bad
// CRC are passed over, as libpng does by default. What this does not check
// (filters, the deflate stream, chunk order beyond IHDR) stb_image does.
// Returns whether an IDAT chunk is empty (see without_empty_idat).
bool check_png_structure(const std::vector<std::uint8_t>& bytes, const std::string& name) {
  constexpr std::uint8_t k_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  const std::string fault = name + " cannot be decoded: ";
  if (bytes.size() < sizeof k_signature || !std::equal(k_signature, k_signature + 8, bytes.begin()))
    throw heightmap_decode_error(subject::file, fault + "not a PNG file (no PNG signature)");
  const std::uint8_t* data = bytes.data();
  std::size_t at = sizeof k_signature;
  bool header = false, end = false, empty_idat = false;
  std::uint64_t scanlines = 0, compressed = 0;
  std::uint32_t width = 0, height = 0;
  while (!end) {
    if (bytes.size() - at < 12) {
      throw heightmap_decode_error(subject::file, fault + "truncated at byte " + std::to_string(at) +
                                                      " (every chunk takes 12 bytes or more, and IEND ends the file)");
    }
    const std::uint32_t length = read_be32(data + at);
    const std::uint8_t* type = data + at + 4;
    const std::string chunk = chunk_name(type, at);
    if (length > bytes.size() - at - 12) {
      throw heightmap_decode_error(subject::file, fault + chunk + " declares " + std::to_string(length) +
                                                      " bytes, but the file has " +
                                                      std::to_string(bytes.size() - at - 12) + " after its header");
    }
    const std::string_view kind(reinterpret_cast<const char*>(type), 4);
    if (!header && kind != "IHDR" && kind != "CgBI")
      throw heightmap_decode_error(subject::file, fault + chunk + " comes before IHDR");
    if (kind == "IHDR" && !header) {
      if (length != 13)
        throw heightmap_decode_error(subject::file, fault + "IHDR has " + std::to_string(length) + " bytes, not 13");
      header = true;
      width = read_be32(data + at + 8);
      height = read_be32(data + at + 12);
      // The header's declared size, before any pixel is decoded: 875 KB of
      // PNG can declare 30000 x 30000 and take gigabytes to decode.
      if (std::uint64_t{width} * height > static_cast<std::uint64_t>(k_max_image_pixels)) {
        throw heightmap_decode_error(subject::file, name + " declares " + std::to_string(width) + " x " +
                                                        std::to_string(height) +
                                                        " pixels: more than 2^28 (the largest map)");
      }
      // An invalid depth, colour type or interlace method counts as 1 bit,
      // not interlaced: stb_image refuses it.
      const int bits = std::max(1, png_bits_per_pixel(data[at + 17], data[at + 16]));
      scanlines = png_scanline_bytes(width, height, static_cast<std::uint64_t>(bits), data[at + 20] == 1);
    } else if (kind == "IDAT") {
      compressed += length;
      empty_idat = empty_idat || length == 0;
    } else if (kind == "IEND") {
      end = true;
    }
    check_chunk_crc(data + at, length, fault, chunk);
    at += std::size_t{length} + 12;
  }
  // Deflate's longest match (258 bytes) takes 2 bits at best.
  constexpr std::uint64_t k_max_deflate_ratio = 1032;
  if (compressed > 0 && scanlines > compressed * k_max_deflate_ratio) {
    throw heightmap_decode_error(
        subject::file, fault + std::to_string(compressed) + " bytes of image data (IDAT) cannot hold the " +
                           std::to_string(width) + " x " + std::to_string(height) + " image's " +
                           std::to_string(scanlines) + " bytes of scanlines (deflate expands at most 1032:1)");
  }
  return empty_idat;
}

// The PNG without its empty IDAT chunks (`bytes` passed check_png_structure).
// They are valid and hold nothing, but stb_image copies an empty IDAT that
// comes before any data into its still null buffer: memcpy(nullptr, p, 0),
// undefined behaviour. stb_image does not read CRCs; the rest is kept as is.
std::vector<std::uint8_t> without_empty_idat(const std::vector<std::uint8_t>& bytes) {
  const auto* data = bytes.data();
  std::vector<std::uint8_t> out(data, data + 8);
  out.reserve(bytes.size());
  for (std::size_t at = 8; at < bytes.size();) {
    const std::uint32_t length = read_be32(data + at);
    const std::size_t next = at + 12 + length;
    if (length != 0 || std::memcmp(data + at + 4, "IDAT", 4) != 0) out.insert(out.end(), data + at, data + next);
    if (std::memcmp(data + at + 4, "IEND", 4) == 0) break;
    at = next;
  }
  return out;
}

// stb_image's failure reason for a PNG in words, with its own terse reason
// after them (stb_image.h's stbi__err calls list every reason).
std::string png_failure_words(const std::string& reason) {
  static const std::pair<const char*, const char*> k_words[] = {
      {"not enough pixels", "its image data holds fewer pixels than its header declares"},
      {"bad ctype", "its colour type and bit depth are not a valid PNG pair"},
      {"1/2/4/8/16-bit only", "its bit depth is not 1, 2, 4, 8 or 16"},
      {"bad comp method", "its compression method is not 0 (deflate)"},
      {"bad filter method", "its filter method is not 0"},
      {"invalid filter", "a row's filter type is not 0 to 4"},
      {"bad interlace method", "its interlace method is neither 0 (none) nor 1 (Adam7)"},
      {"no PLTE", "it is a palette image without a palette (PLTE)"},
      {"invalid PLTE", "its palette (PLTE) is invalid"},
      {"no IDAT", "it holds no image data (IDAT)"},
      {"0-pixel image", "its header declares a width or height of 0"},
      {"bad tRNS len", "its transparency chunk (tRNS) is invalid"},
      {"tRNS after IDAT", "its transparency chunk (tRNS) is invalid"},
      {"tRNS before PLTE", "its transparency chunk (tRNS) is invalid"},
      {"tRNS with alpha", "its transparency chunk (tRNS) is invalid"},
      {"outofmem", "out of memory"},
      {"too large", "it is too large to decode"},
  };
  for (const auto& [terse, words] : k_words) {
    if (reason == terse) return std::string(words) + " (stb_image: " + reason + ")";
  }
  static const char* const k_zlib[] = {"bad huffman code", "bad codelengths", "bad sizes",          "bad dist",
                                       "bad compression",  "bad zlib header", "no preset dict",     "read past buffer",
                                       "outofdata",        "zlib corrupt",    "output buffer limit"};
  for (const char* terse : k_zlib) {
    if (reason == terse) return "its compressed image data (IDAT) is corrupt (stb_image: " + reason + ")";
  }
  return "stb_image: " + reason;
}

heightmap_samples decode_png(const std::vector<std::uint8_t>& bytes, const std::string& name) {
  if (bytes.size() > static_cast<std::size_t>(INT32_MAX))
    throw heightmap_decode_error(subject::file, name + " is too large");
  std::vector<std::uint8_t> copy;
  if (check_png_structure(bytes, name)) copy = without_empty_idat(bytes);
  const std::vector<std::uint8_t>& png = copy.empty() ? bytes : copy;
  const auto* data = png.data();
  const int length = static_cast<int>(png.size());
  heightmap_samples out;
  int w = 0, h = 0, channels = 0;
  if (stbi_is_16_bit_from_memory(data, length)) {
    stbi_us* pixels = stbi_load_16_from_memory(data, length, &w, &h, &channels, 1);
    if (!pixels)
      throw heightmap_decode_error(subject::file,
                                   name + " cannot be decoded: " + png_failure_words(stbi_failure_reason()));
    out.values.resize(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
    for (std::size_t k = 0; k < out.values.size(); ++k) out.values[k] = static_cast<float>(pixels[k] / 65535.0);
    stbi_image_free(pixels);
  } else {
    stbi_uc* pixels = stbi_load_from_memory(data, length, &w, &h, &channels, 1);
    if (!pixels)
      throw heightmap_decode_error(subject::file,
                                   name + " cannot be decoded: " + png_failure_words(stbi_failure_reason()));
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
  if (w == 0 && raw_height > 0) {
    if (samples % raw_height != 0) {
      throw heightmap_decode_error(subject::raw_height, std::to_string(samples) +
                                                            " samples are not a whole number of rows: " +
                                                            std::to_string(raw_height) + " rows do not divide them");
    }
    w = samples / raw_height;
  }
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
  if (bytes.empty()) {
    throw heightmap_decode_error(subject::file, name + " is empty: " + std::string(raw16 ? "a raw16" : "an r32") +
                                                    " file holds " + std::to_string(per) + "-byte samples");
  }
  if (bytes.size() % per != 0) {
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
  if (!raw16) {
    // Named here, at the file: downstream it would read as a stage whose
    // parameters overflowed.
    const auto bad = std::count_if(out.values.begin(), out.values.end(), [](float v) { return !std::isfinite(v); });
    if (bad > 0) {
      throw heightmap_decode_error(subject::file, name + " holds " + std::to_string(bad) + " of " +
                                                      std::to_string(samples) +
                                                      " samples that are not finite (NaN or infinity)");
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
