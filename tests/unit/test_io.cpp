// Tests for the output encoders, quantisation, SHA-256 and file_transaction.
// PNGs are decoded with stb_image, independently of the encoder.

#include <catch2/catch.hpp>

#include <stb_image.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "landform/core/error.hpp"
#include "landform/io/encode.hpp"
#include "landform/io/file_transaction.hpp"
#include "landform/io/png_encode.hpp"
#include "landform/io/quantize.hpp"
#include "landform/io/sha256.hpp"

namespace fs = std::filesystem;
using bytes_t = std::vector<std::uint8_t>;

namespace {

struct png_chunk {
  std::string type;
  bytes_t data;
};

std::uint32_t read_be32(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | std::uint32_t{p[3]};
}

// Splits a PNG into its chunks; fails the test if the structure is broken.
std::vector<png_chunk> png_chunks(const bytes_t& png) {
  static const std::uint8_t k_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  REQUIRE(png.size() >= 8);
  REQUIRE(std::memcmp(png.data(), k_signature, 8) == 0);
  std::vector<png_chunk> chunks;
  std::size_t at = 8;
  while (at < png.size()) {
    REQUIRE(at + 12 <= png.size());
    const std::uint32_t length = read_be32(png.data() + at);
    REQUIRE(at + 12 + length <= png.size());
    png_chunk chunk;
    chunk.type.assign(reinterpret_cast<const char*>(png.data() + at + 4), 4);
    chunk.data.assign(png.begin() + static_cast<std::ptrdiff_t>(at + 8),
                      png.begin() + static_cast<std::ptrdiff_t>(at + 8 + length));
    chunks.push_back(std::move(chunk));
    at += 12 + length;
  }
  REQUIRE(at == png.size());
  REQUIRE(chunks.size() >= 3);
  REQUIRE(chunks.front().type == "IHDR");
  REQUIRE(chunks.back().type == "IEND");
  return chunks;
}

struct ihdr_info {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  int bit_depth = 0;
  int colour_type = 0;
  int interlace = 0;
};

ihdr_info read_ihdr(const std::vector<png_chunk>& chunks) {
  const auto& d = chunks.front().data;
  REQUIRE(d.size() == 13);
  return {read_be32(d.data()), read_be32(d.data() + 4), d[8], d[9], d[12]};
}

bool has_chunk(const std::vector<png_chunk>& chunks, const std::string& type) {
  for (const auto& c : chunks) {
    if (c.type == type) return true;
  }
  return false;
}

void require_no_colour_management(const std::vector<png_chunk>& chunks) {
  CHECK_FALSE(has_chunk(chunks, "gAMA"));
  CHECK_FALSE(has_chunk(chunks, "sRGB"));
  CHECK_FALSE(has_chunk(chunks, "iCCP"));
  CHECK_FALSE(has_chunk(chunks, "cHRM"));
}

// Decodes with stb_image at the file's own channel count.
std::vector<std::uint16_t> decode16(const bytes_t& png, int& w, int& h, int& channels) {
  REQUIRE(stbi_is_16_bit_from_memory(png.data(), static_cast<int>(png.size())) == 1);
  stbi_us* pixels = stbi_load_16_from_memory(png.data(), static_cast<int>(png.size()), &w, &h, &channels, 0);
  REQUIRE(pixels != nullptr);
  std::vector<std::uint16_t> out(
      pixels, pixels + static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * static_cast<std::size_t>(channels));
  stbi_image_free(pixels);
  return out;
}

bytes_t decode8(const bytes_t& png, int& w, int& h, int& channels) {
  REQUIRE(stbi_is_16_bit_from_memory(png.data(), static_cast<int>(png.size())) == 0);
  stbi_uc* pixels = stbi_load_from_memory(png.data(), static_cast<int>(png.size()), &w, &h, &channels, 0);
  REQUIRE(pixels != nullptr);
  bytes_t out(pixels,
              pixels + static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * static_cast<std::size_t>(channels));
  stbi_image_free(pixels);
  return out;
}

// 7 x 5 samples covering the 16-bit extremes and byte-order traps.
std::vector<std::uint16_t> gradient16(std::size_t count) {
  const std::vector<std::uint16_t> special = {0,      1,      2,      255,    256,    257,   0x00FF, 0xFF00,
                                              0x1234, 0x3412, 0x7FFF, 0x8000, 0x8001, 65534, 65535};
  std::vector<std::uint16_t> values(count);
  for (std::size_t i = 0; i < count; ++i) {
    values[i] = i < special.size() ? special[i] : static_cast<std::uint16_t>((i * 65535) / (count - 1));
  }
  return values;
}

bytes_t gradient8(std::size_t count) {
  bytes_t values(count);
  for (std::size_t i = 0; i < count; ++i) values[i] = static_cast<std::uint8_t>((i * 37 + 11) % 256);
  values[0] = 0;
  values[count - 1] = 255;
  return values;
}

// A fresh, empty directory under the system temp directory, removed afterwards.
struct scratch_dir {
  fs::path path;
  scratch_dir() {
    std::random_device device;
    path =
        fs::temp_directory_path() / ("landform-test-io-" + std::to_string(device()) + "-" + std::to_string(device()));
    fs::create_directories(path);
  }
  ~scratch_dir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  scratch_dir(const scratch_dir&) = delete;
  scratch_dir& operator=(const scratch_dir&) = delete;
};

// Every entry (files and directories) under `dir`, as generic relative paths.
std::vector<std::string> list_tree(const fs::path& dir) {
  std::vector<std::string> names;
  if (!fs::exists(dir)) return names;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    names.push_back(fs::relative(entry.path(), dir).generic_string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

bytes_t read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  return bytes_t(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  REQUIRE(out);
}

}  // namespace

// ---------------------------------------------------------------- PNG 16-bit

TEST_CASE("encode_png_gray16 round-trips through an independent decoder", "[io][png]") {
  constexpr int k_w = 7;
  constexpr int k_h = 5;
  const auto values = gradient16(k_w * k_h);
  const std::vector<std::pair<std::string, std::string>> text = {{"Software", "landform"},
                                                                 {"Comment", "seed=42 preset=abc"}};
  const bytes_t png = landform::encode_png_gray16(k_w, k_h, values.data(), text);

  int w = 0, h = 0, channels = 0;
  const auto decoded = decode16(png, w, h, channels);
  CHECK(w == k_w);
  CHECK(h == k_h);
  CHECK(channels == 1);
  CHECK(decoded == values);

  const auto chunks = png_chunks(png);
  const ihdr_info ihdr = read_ihdr(chunks);
  CHECK(ihdr.width == static_cast<std::uint32_t>(k_w));
  CHECK(ihdr.height == static_cast<std::uint32_t>(k_h));
  CHECK(ihdr.bit_depth == 16);
  CHECK(ihdr.colour_type == 0);
  CHECK(ihdr.interlace == 0);
  require_no_colour_management(chunks);

  std::vector<std::string> texts;
  bool text_before_data = true;
  bool seen_data = false;
  for (const auto& c : chunks) {
    if (c.type == "IDAT") seen_data = true;
    if (c.type == "tEXt") {
      texts.emplace_back(c.data.begin(), c.data.end());
      if (seen_data) text_before_data = false;
    }
  }
  CHECK(text_before_data);
  REQUIRE(texts.size() == 2);
  CHECK(texts[0] == std::string("Software\0landform", 17));
  CHECK(texts[1] == std::string("Comment\0seed=42 preset=abc", 26));
}

TEST_CASE("encode_png_gray16 is deterministic and writes no tEXt unless asked", "[io][png]") {
  const auto values = gradient16(12);
  const bytes_t a = landform::encode_png_gray16(4, 3, values.data());
  const bytes_t b = landform::encode_png_gray16(4, 3, values.data());
  CHECK(a == b);
  const auto chunks = png_chunks(a);
  CHECK_FALSE(has_chunk(chunks, "tEXt"));
  CHECK_FALSE(has_chunk(chunks, "tIME"));
  CHECK_FALSE(has_chunk(chunks, "pHYs"));

  // 1 x 1 edge case.
  const std::uint16_t one = 0xABCD;
  int w = 0, h = 0, channels = 0;
  CHECK(decode16(landform::encode_png_gray16(1, 1, &one), w, h, channels) == std::vector<std::uint16_t>{0xABCD});
}

TEST_CASE("encode_png_gray16 rejects bad arguments", "[io][png]") {
  const std::uint16_t v[4] = {};
  CHECK_THROWS_AS(landform::encode_png_gray16(0, 2, v), std::invalid_argument);
  CHECK_THROWS_AS(landform::encode_png_gray16(2, -1, v), std::invalid_argument);
  CHECK_THROWS_AS(landform::encode_png_gray16(2, 2, nullptr), std::invalid_argument);
  using text_t = std::vector<std::pair<std::string, std::string>>;
  CHECK_THROWS_AS(landform::encode_png_gray16(2, 2, v, text_t{{"", "x"}}), std::invalid_argument);
  CHECK_THROWS_AS(landform::encode_png_gray16(2, 2, v, text_t{{std::string(80, 'k'), "x"}}), std::invalid_argument);
  CHECK_THROWS_AS(landform::encode_png_gray16(2, 2, v, text_t{{" lead", "x"}}), std::invalid_argument);
  CHECK_THROWS_AS(landform::encode_png_gray16(2, 2, v, text_t{{"two  spaces", "x"}}), std::invalid_argument);
  CHECK_THROWS_AS(landform::encode_png_gray16(2, 2, v, text_t{{"key", std::string("a\0b", 3)}}), std::invalid_argument);
  CHECK_NOTHROW(landform::encode_png_gray16(2, 2, v, text_t{{std::string(79, 'k'), ""}}));

  // Wider than libpng's default write limit (1e6 pixels): the zlib encoder
  // has no such limit, and the row reads back.
  std::vector<std::uint16_t> wide(1'000'001);
  for (std::size_t i = 0; i < wide.size(); ++i) wide[i] = static_cast<std::uint16_t>(i * 7);
  int w = 0, h = 0, channels = 0;
  CHECK(decode16(landform::encode_png_gray16(1'000'001, 1, wide.data()), w, h, channels) == wide);
}

TEST_CASE("encode_png_rgb16 round-trips", "[io][png]") {
  constexpr int k_w = 5;
  constexpr int k_h = 3;
  const auto values = gradient16(k_w * k_h * 3);
  const bytes_t png = landform::encode_png_rgb16(k_w, k_h, values.data());
  int w = 0, h = 0, channels = 0;
  const auto decoded = decode16(png, w, h, channels);
  CHECK(w == k_w);
  CHECK(h == k_h);
  CHECK(channels == 3);
  CHECK(decoded == values);
  const auto chunks = png_chunks(png);
  const ihdr_info ihdr = read_ihdr(chunks);
  CHECK(ihdr.bit_depth == 16);
  CHECK(ihdr.colour_type == 2);
  require_no_colour_management(chunks);
}

// ---------------------------------------------------------------- PNG 8-bit

TEST_CASE("encode_png_gray8 round-trips", "[io][png]") {
  constexpr int k_w = 7;
  constexpr int k_h = 5;
  const bytes_t values = gradient8(k_w * k_h);
  const bytes_t png = landform::encode_png_gray8(k_w, k_h, values.data());
  int w = 0, h = 0, channels = 0;
  CHECK(decode8(png, w, h, channels) == values);
  CHECK(w == k_w);
  CHECK(h == k_h);
  CHECK(channels == 1);
  const auto chunks = png_chunks(png);
  const ihdr_info ihdr = read_ihdr(chunks);
  CHECK(ihdr.width == static_cast<std::uint32_t>(k_w));
  CHECK(ihdr.height == static_cast<std::uint32_t>(k_h));
  CHECK(ihdr.bit_depth == 8);
  CHECK(ihdr.colour_type == 0);
  require_no_colour_management(chunks);

  CHECK_THROWS_AS(landform::encode_png_gray8(0, 1, values.data()), std::invalid_argument);
  CHECK_THROWS_AS(landform::encode_png_gray8(1, 1, nullptr), std::invalid_argument);
}

TEST_CASE("encode_png_rgb8 and encode_png_rgba8 round-trip", "[io][png]") {
  constexpr int k_w = 6;
  constexpr int k_h = 4;
  SECTION("rgb") {
    const bytes_t values = gradient8(k_w * k_h * 3);
    const bytes_t png = landform::encode_png_rgb8(k_w, k_h, values.data());
    int w = 0, h = 0, channels = 0;
    CHECK(decode8(png, w, h, channels) == values);
    CHECK(w == k_w);
    CHECK(h == k_h);
    CHECK(channels == 3);
    const ihdr_info ihdr = read_ihdr(png_chunks(png));
    CHECK(ihdr.bit_depth == 8);
    CHECK(ihdr.colour_type == 2);
  }
  SECTION("rgba") {
    const bytes_t values = gradient8(k_w * k_h * 4);
    const bytes_t png = landform::encode_png_rgba8(k_w, k_h, values.data());
    int w = 0, h = 0, channels = 0;
    CHECK(decode8(png, w, h, channels) == values);
    CHECK(w == k_w);
    CHECK(h == k_h);
    CHECK(channels == 4);
    const ihdr_info ihdr = read_ihdr(png_chunks(png));
    CHECK(ihdr.bit_depth == 8);
    CHECK(ihdr.colour_type == 6);
  }
}

TEST_CASE(
    "encode_png: every filter and compression round-trips random samples over several chunks, the same bytes on "
    "any thread count",
    "[io][png][threads]") {
  // Random bytes take every branch of each predictor (Paeth's three choices
  // and their ties); 1500 rows of 384 bytes (1, 3 or 4 channels) make several
  // deflate chunks.
  constexpr int k_w = 96, k_h = 1500;  // k_w RGBA pixels a row
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> byte(0, 255), small(0, 3);
  bytes_t values(static_cast<std::size_t>(k_w) * k_h * 4);
  for (std::size_t i = 0; i < values.size(); ++i) {
    // Half the rows random, half near-constant (runs, small residuals, ties).
    values[i] = static_cast<std::uint8_t>((i / (k_w * 4)) % 2 == 0 ? byte(rng) : 120 + small(rng));
  }
  const auto filter = GENERATE(landform::png_filter::none, landform::png_filter::sub, landform::png_filter::up,
                               landform::png_filter::average, landform::png_filter::paeth);
  const int channels = GENERATE(1, 3, 4);
  // fast deflates with ISA-L's igzip, default and best with zlib.
  const auto compression =
      GENERATE(landform::png_compression::fast, landform::png_compression::standard, landform::png_compression::best);
  CAPTURE(static_cast<int>(filter), channels, static_cast<int>(compression));
  const int width = k_w * 4 / channels;
  landform::png_options options;
  options.filter = filter;
  options.compression = compression;
  options.nthreads = 1;
  const bytes_t png = landform::encode_png(width, k_h, channels, values.data(), {}, options);
  int w = 0, h = 0, n = 0;
  CHECK(decode8(png, w, h, n) == values);
  CHECK(w == width);
  CHECK(n == channels);
  for (int nthreads : {2, 8}) {
    options.nthreads = nthreads;
    CHECK(landform::encode_png(width, k_h, channels, values.data(), {}, options) == png);
  }
}

// ---------------------------------------------------------------- raw

TEST_CASE("encode_raw16_le writes exact little-endian bytes", "[io][raw]") {
  const std::uint16_t values[] = {0x1234, 0x0001, 0xFF00, 0xFFFF, 0x0000, 0xABCD};
  const bytes_t out = landform::encode_raw16_le(6, values);
  const bytes_t expected = {0x34, 0x12, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0xCD, 0xAB};
  CHECK(out == expected);
  CHECK(landform::encode_raw16_le(0, nullptr).empty());
  CHECK_THROWS_AS(landform::encode_raw16_le(1, nullptr), std::invalid_argument);
}

TEST_CASE("encode_r32_le writes exact little-endian float32 bytes", "[io][raw]") {
  const float values[] = {1.0f, -2.0f, 0.0f, -0.0f, 0.5f};
  const bytes_t out = landform::encode_r32_le(5, values);
  const bytes_t expected = {0x00, 0x00, 0x80, 0x3F,   // 1.0
                            0x00, 0x00, 0x00, 0xC0,   // -2.0
                            0x00, 0x00, 0x00, 0x00,   // 0.0
                            0x00, 0x00, 0x00, 0x80,   // -0.0
                            0x00, 0x00, 0x00, 0x3F};  // 0.5
  CHECK(out == expected);
  CHECK(landform::encode_r32_le(0, nullptr).empty());
  CHECK_THROWS_AS(landform::encode_r32_le(2, nullptr), std::invalid_argument);

  // Bits survive, including a NaN payload.
  std::uint32_t nan_bits = 0x7FC01234u;
  float nan_value = 0.0f;
  std::memcpy(&nan_value, &nan_bits, 4);
  CHECK(landform::encode_r32_le(1, &nan_value) == bytes_t{0x34, 0x12, 0xC0, 0x7F});
}

// ---------------------------------------------------------------- quantize

TEST_CASE("lround_nonnegative equals std::lround on every tie and at random", "[io][quantize]") {
  std::size_t checked = 0, mismatches = 0;
  const auto check = [&](double x) {
    ++checked;
    mismatches += static_cast<std::size_t>(landform::lround_nonnegative(x) != std::lround(x));
  };
  // Around every half of the 8- and 16-bit scales, as the normal map and the
  // preview quantise them (float samples scaled in double), 16 ulps each way.
  for (const double scale : {255.0, 65535.0}) {
    for (int k = 0; k <= static_cast<int>(scale); ++k) {
      const auto tie = static_cast<float>((k + 0.5) / scale);
      float v = tie;
      for (int u = 0; u < 16; ++u) v = std::nextafter(v, 0.0f);
      for (int u = 0; u < 33; ++u, v = std::nextafter(v, 2.0f)) check(static_cast<double>(v) * scale);
      check(k + 0.5);
      check(std::nextafter(k + 0.5, 0.0));
      check(std::nextafter(k + 0.5, 1e9));
    }
  }
  check(0.0);
  check(-0.0);
  check(0.49999999999999994);  // where floor(x + 0.5) would give 1
  check(4503599627370497.0);   // 2^52 + 1: x + 0.5 is not representable
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> any(0.0, 70000.0);
  for (int i = 0; i < 1000000; ++i) check(any(rng));
  CHECK(checked > 1000000);
  CHECK(mismatches == 0);
}

TEST_CASE("quantize16 rounds, clamps and counts", "[io][quantize]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> in = {0.0f, 1.0f, 0.5f, -0.1f, 1.2f, nan, 1.0f / 65535.0f, 0.25f, -0.0f, inf, -inf};
  const landform::quantized16 q = landform::quantize16(in.data(), in.size());
  REQUIRE(q.values.size() == in.size());
  CHECK(q.values[0] == 0);
  CHECK(q.values[1] == 65535);
  CHECK(q.values[2] == 32768);  // 0.5 * 65535 + 0.5 = 32768.0
  CHECK(q.values[3] == 0);      // clipped
  CHECK(q.values[4] == 65535);  // clipped
  CHECK(q.values[5] == 0);      // NaN, clipped
  CHECK(q.values[6] == 1);
  CHECK(q.values[7] == 16384);  // 16383.75 + 0.5 -> 16384
  CHECK(q.values[8] == 0);      // -0.0 is in range
  CHECK(q.values[9] == 65535);  // clipped
  CHECK(q.values[10] == 0);     // clipped
  CHECK(q.clipped == 5);

  const std::vector<float> clean = {0.0f, 0.1f, 0.9f, 1.0f};
  CHECK(landform::quantize16(clean.data(), clean.size()).clipped == 0);
  CHECK(landform::quantize16(nullptr, 0).values.empty());
  CHECK_THROWS_AS(landform::quantize16(nullptr, 1), std::invalid_argument);
}

TEST_CASE("quantize16 maps every level's centre to that level", "[io][quantize]") {
  std::vector<float> in(65536);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(static_cast<double>(i) / 65535.0);
  const landform::quantized16 q = landform::quantize16(in.data(), in.size());
  CHECK(q.clipped == 0);
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < in.size(); ++i) mismatches += q.values[i] != i ? 1 : 0;
  CHECK(mismatches == 0);
}

TEST_CASE("quantize8 rounds, clamps and counts", "[io][quantize]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> in = {0.0f, 1.0f, 0.5f, -0.1f, 1.2f, nan, 1.0f / 255.0f, 0.25f};
  const landform::quantized8 q = landform::quantize8(in.data(), in.size());
  REQUIRE(q.values.size() == in.size());
  CHECK(q.values[0] == 0);
  CHECK(q.values[1] == 255);
  CHECK(q.values[2] == 128);  // 0.5 * 255 + 0.5 = 128.0
  CHECK(q.values[3] == 0);
  CHECK(q.values[4] == 255);
  CHECK(q.values[5] == 0);
  CHECK(q.values[6] == 1);
  CHECK(q.values[7] == 64);  // 63.75 + 0.5 -> 64
  CHECK(q.clipped == 3);
  CHECK_THROWS_AS(landform::quantize8(nullptr, 3), std::invalid_argument);
}

// ---------------------------------------------------------------- sha256

TEST_CASE("sha256_hex matches the FIPS 180 test vectors", "[io][sha256]") {
  const std::string abc = "abc";
  CHECK(landform::sha256_hex(reinterpret_cast<const std::uint8_t*>(abc.data()), abc.size()) ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(landform::sha256_hex(nullptr, 0) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  const std::string two_blocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  CHECK(landform::sha256_hex(reinterpret_cast<const std::uint8_t*>(two_blocks.data()), two_blocks.size()) ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK_THROWS_AS(landform::sha256_hex(nullptr, 1), std::invalid_argument);
}

TEST_CASE("sha256_stream gives sha256_hex's digest for every split into pieces", "[io][sha256]") {
  std::mt19937 rng(5);
  bytes_t data(200000);
  for (auto& b : data) b = static_cast<std::uint8_t>(rng());
  const std::string whole = landform::sha256_hex(data.data(), data.size());
  // Piece sizes around SHA-256's 64-byte block, and big ones.
  for (const std::size_t piece : {std::size_t{1}, std::size_t{63}, std::size_t{64}, std::size_t{65}, std::size_t{4096},
                                  std::size_t{70001}, data.size()}) {
    INFO("pieces of " << piece << " bytes");
    landform::sha256_stream hash;
    hash.update({});  // an empty piece adds nothing
    for (std::size_t at = 0; at < data.size(); at += piece) {
      hash.update({data.data() + at, std::min(piece, data.size() - at)});
    }
    CHECK(hash.hex() == whole);
  }
  landform::sha256_stream empty;
  CHECK(empty.hex() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK_THROWS_AS(empty.hex(), std::logic_error);
  CHECK_THROWS_AS(empty.update(data), std::logic_error);
}

// ---------------------------------------------------------------- file_transaction

TEST_CASE("file_transaction::open writes a file piece by piece, committed with the others", "[io][file_transaction]") {
  scratch_dir scratch;
  const fs::path out = scratch.path / "out";
  {
    landform::file_transaction tx(out);
    tx.stage("a.bin", {1, 2});
    landform::staged_file file = tx.open("sub/b.bin");
    file.write(bytes_t{3, 4});
    file.write(bytes_t{});
    file.write(bytes_t{5});
    CHECK_THROWS_AS(tx.open("sub/./b.bin"), std::invalid_argument);  // the name is taken meanwhile
    file.finish();
    CHECK_THROWS_AS(file.write(bytes_t{6}), std::logic_error);
    CHECK_THROWS_AS(file.finish(), std::logic_error);
    CHECK_FALSE(fs::exists(out / "sub" / "b.bin"));
    tx.commit();
  }
  CHECK(list_tree(out) == std::vector<std::string>{"a.bin", "sub", "sub/b.bin"});
  CHECK(read_file(out / "sub" / "b.bin") == bytes_t{3, 4, 5});
}

TEST_CASE("file_transaction: a staged file dropped unfinished leaves nothing behind", "[io][file_transaction]") {
  scratch_dir scratch;
  landform::file_transaction tx(scratch.path);
  {
    landform::staged_file file = tx.open("sub/a.png");
    file.write(bytes_t{1, 2, 3});
    CHECK_FALSE(list_tree(scratch.path).empty());  // its temporary exists meanwhile
  }
  // The temporary is gone and the name is free again; the created folder
  // goes with the transaction.
  CHECK(list_tree(scratch.path) == std::vector<std::string>{"sub"});
  {
    landform::staged_file unfinished = tx.open("sub/a.png");
    unfinished.write(bytes_t{9});
    tx.stage("b.png", {4});
    tx.commit();  // the unfinished file is not part of it
  }
  CHECK(list_tree(scratch.path) == std::vector<std::string>{"b.png", "sub"});
}

TEST_CASE(
    "file_transaction: a PNG streamed into a staged file equals the staged bytes, and a failed one "
    "leaves nothing behind",
    "[io][file_transaction]") {
  scratch_dir scratch;
  constexpr int k_w = 300, k_h = 2000;  // 290 rows a chunk: seven chunks
  bytes_t rgb(static_cast<std::size_t>(k_w) * k_h * 3);
  std::mt19937 rng(9);
  for (auto& b : rgb) b = static_cast<std::uint8_t>(rng() % 8);
  landform::png_options options;
  options.nthreads = 2;
  {
    landform::file_transaction tx(scratch.path);
    landform::staged_file file = tx.open("streamed.png");
    landform::stream_png(
        k_w, k_h, 3, rgb.data(), [&file](std::span<const std::uint8_t> piece) { file.write(piece); }, {}, options);
    file.finish();
    tx.stage("whole.png", landform::encode_png(k_w, k_h, 3, rgb.data(), {}, options));
    tx.commit();
  }
  CHECK(read_file(scratch.path / "streamed.png") == read_file(scratch.path / "whole.png"));
  fs::remove(scratch.path / "streamed.png");
  fs::remove(scratch.path / "whole.png");

  // The rows fail half-way, after the first chunks went to the file.
  const landform::png_row_source<std::uint8_t> failing = [&](int first, int last, std::uint8_t* out) {
    if (last > k_h / 2) throw std::runtime_error("rows failed");
    std::copy_n(rgb.data() + static_cast<std::size_t>(first) * k_w * 3,
                static_cast<std::size_t>(last - first) * k_w * 3, out);
  };
  for (const int threads : {1, 2}) {
    options.nthreads = threads;
    std::size_t written = 0;
    {
      landform::file_transaction tx(scratch.path);
      landform::staged_file file = tx.open("failed.png");
      CHECK_THROWS_WITH(landform::stream_png_rows(
                            k_w, k_h, 3, failing,
                            [&](std::span<const std::uint8_t> piece) {
                              written += piece.size();
                              file.write(piece);
                            },
                            {}, options),
                        "rows failed");
    }
    CHECK(written > 0);
    CHECK(list_tree(scratch.path).empty());
  }
}

TEST_CASE("file_transaction commit writes every file with exact bytes", "[io][file_transaction]") {
  scratch_dir scratch;
  const fs::path out = scratch.path / "out";  // does not exist yet
  const bytes_t height = {0x00, 0x01, 0xFF, 0x7F, 0x80};
  const bytes_t tile = {'t', 'i', 'l', 'e'};
  {
    landform::file_transaction tx(out);
    tx.stage("height.png", height);
    tx.stage("tiles/x0_y0.r16", tile);
    tx.stage("empty.bin", {});
    // Nothing visible under its final name before commit.
    CHECK_FALSE(fs::exists(out / "height.png"));
    CHECK_FALSE(fs::exists(out / "tiles" / "x0_y0.r16"));
    tx.commit();
  }
  CHECK(list_tree(out) == std::vector<std::string>{"empty.bin", "height.png", "tiles", "tiles/x0_y0.r16"});
  CHECK(read_file(out / "height.png") == height);
  CHECK(read_file(out / "tiles" / "x0_y0.r16") == tile);
  CHECK(read_file(out / "empty.bin").empty());
}

TEST_CASE("file_transaction replaces existing files only on commit", "[io][file_transaction]") {
  scratch_dir scratch;
  write_file(scratch.path / "h.png", "old");
  {
    landform::file_transaction tx(scratch.path);
    tx.stage("h.png", {'n', 'e', 'w'});
  }
  CHECK(list_tree(scratch.path) == std::vector<std::string>{"h.png"});
  CHECK(read_file(scratch.path / "h.png") == bytes_t{'o', 'l', 'd'});
  {
    landform::file_transaction tx(scratch.path);
    tx.stage("h.png", {'n', 'e', 'w'});
    tx.commit();
  }
  CHECK(list_tree(scratch.path) == std::vector<std::string>{"h.png"});
  CHECK(read_file(scratch.path / "h.png") == bytes_t{'n', 'e', 'w'});
}

TEST_CASE("file_transaction without commit leaves nothing behind", "[io][file_transaction]") {
  scratch_dir scratch;
  SECTION("existing directory stays empty") {
    {
      landform::file_transaction tx(scratch.path);
      tx.stage("a.png", {1, 2, 3});
      tx.stage("sub/deeper/b.png", {4});
      CHECK_FALSE(list_tree(scratch.path).empty());  // temporaries exist meanwhile
    }
    CHECK(fs::is_directory(scratch.path));
    CHECK(list_tree(scratch.path).empty());
  }
  SECTION("created directory is removed again") {
    const fs::path out = scratch.path / "new" / "out";
    {
      landform::file_transaction tx(out);
      tx.stage("a.png", {1, 2, 3});
    }
    CHECK(list_tree(scratch.path).empty());
  }
}

TEST_CASE("file_transaction reports an unwritable directory with its path", "[io][file_transaction]") {
  scratch_dir scratch;
  const fs::path blocker = scratch.path / "regular_file";
  write_file(blocker, "x");
  const fs::path bad_dir = blocker / "sub";
  landform::file_transaction tx(bad_dir);
  CHECK_THROWS_AS(tx.stage("h.png", {1}), landform::io_error);
  CHECK_THROWS_WITH(tx.stage("h.png", {1}), Catch::Contains(bad_dir.string()));
  CHECK(list_tree(scratch.path) == std::vector<std::string>{"regular_file"});
}

TEST_CASE("file_transaction commit fails cleanly when a target is a directory", "[io][file_transaction]") {
  scratch_dir scratch;
  fs::create_directories(scratch.path / "taken");
  {
    landform::file_transaction tx(scratch.path);
    tx.stage("first.png", {1});
    tx.stage("taken", {2});
    tx.stage("tiles/t.png", {3});
    CHECK_THROWS_WITH(tx.commit(),
                      Catch::Contains((scratch.path / "taken").string()) && Catch::Contains("cannot write"));
    CHECK(list_tree(scratch.path) == std::vector<std::string>{"taken"});
    tx.commit();  // empty now: a no-op
  }
  CHECK(list_tree(scratch.path) == std::vector<std::string>{"taken"});
}

TEST_CASE("file_transaction rejects bad and duplicate names", "[io][file_transaction]") {
  scratch_dir scratch;
  {
    landform::file_transaction tx(scratch.path);
    CHECK_THROWS_AS(tx.stage("", {}), std::invalid_argument);
    CHECK_THROWS_AS(tx.stage("../escape.png", {}), std::invalid_argument);
    CHECK_THROWS_AS(tx.stage("a/../../escape.png", {}), std::invalid_argument);
    CHECK_THROWS_AS(tx.stage("a/../b.png", {}), std::invalid_argument);
    CHECK_THROWS_AS(tx.stage("/etc/passwd", {}), std::invalid_argument);
    CHECK_THROWS_AS(tx.stage("sub/", {}), std::invalid_argument);
    CHECK_THROWS_AS(tx.stage(".", {}), std::invalid_argument);
    tx.stage("a.png", {1});
    CHECK_THROWS_AS(tx.stage("a.png", {2}), std::invalid_argument);
    CHECK_THROWS_AS(tx.stage("./a.png", {2}), std::invalid_argument);
    tx.stage("sub/./b.png", {3});
    CHECK_THROWS_AS(tx.stage("sub/b.png", {4}), std::invalid_argument);
    tx.commit();
  }
  CHECK(list_tree(scratch.path) == std::vector<std::string>{"a.png", "sub", "sub/b.png"});
  CHECK(read_file(scratch.path / "a.png") == bytes_t{1});
  CHECK(read_file(scratch.path / "sub" / "b.png") == bytes_t{3});
}

TEST_CASE("file_transaction files get ordinary permissions", "[io][file_transaction]") {
  scratch_dir scratch;
  const mode_t previous = ::umask(022);
  {
    landform::file_transaction tx(scratch.path);
    tx.stage("h.png", {1});
    tx.commit();
  }
  ::umask(previous);
  const auto perms = fs::status(scratch.path / "h.png").permissions();
  CHECK(perms == (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read));
}

TEST_CASE("file_transaction: a rename failing mid-commit restores the files already replaced",
          "[io][file_transaction]") {
  scratch_dir scratch;
  const fs::path out = scratch.path / "out";
  fs::create_directories(out / "sub");
  write_file(out / "a.png", "old a");
  write_file(out / "sub" / "b.png", "old b");
  {
    landform::file_transaction tx(out);
    tx.stage("a.png", bytes_t{'n', 'e', 'w'});
    tx.stage("new.png", bytes_t{'n'});
    tx.stage("sub/b.png", bytes_t{'n', 'e', 'w'});
    // The last file's folder vanishes before commit (its temp with it), so
    // its rename fails after a.png and new.png were already renamed in.
    fs::remove_all(out / "sub");
    CHECK_THROWS_AS(tx.commit(), landform::io_error);
  }
  CHECK(list_tree(out) == std::vector<std::string>{"a.png"});
  CHECK(read_file(out / "a.png") == bytes_t{'o', 'l', 'd', ' ', 'a'});
}

TEST_CASE("file_transaction never writes through a symbolic link that leaves the folder", "[io][file_transaction]") {
  scratch_dir scratch;
  const fs::path out = scratch.path / "out", outside = scratch.path / "elsewhere";
  fs::create_directories(out / "inner");
  fs::create_directories(outside);
  fs::create_directory_symlink(outside, out / "tiles");
  fs::create_directory_symlink(out / "inner", out / "alias");  // stays inside: allowed
  landform::file_transaction tx(out);
  try {
    tx.stage("tiles/x.png", {'x'});
    FAIL("staged through the link");
  } catch (const landform::io_error& e) {
    CHECK(std::string(e.what()).find("leads outside the output folder") != std::string::npos);
  }
  tx.stage("alias/y.png", {'y'});
  tx.commit();
  CHECK(list_tree(outside).empty());
  CHECK(read_file(out / "inner" / "y.png") == bytes_t{'y'});
}

TEST_CASE("file_transaction removes stale temporaries of its own naming only", "[io][file_transaction]") {
  scratch_dir scratch;
  for (const char* name : {".height.png.tmp-a1B2c3", ".n.png.tmp-ZZZZZZ.old", ".keep.tmp-short", "keep.png",
                           ".keep.png.tmp-abc_ef", "x.tmp-abcdef"}) {
    std::ofstream(scratch.path / name) << "x";
  }
  CHECK(landform::file_transaction::remove_stale_temporaries(scratch.path) == 2);
  CHECK(list_tree(scratch.path) ==
        std::vector<std::string>{".keep.png.tmp-abc_ef", ".keep.tmp-short", "keep.png", "x.tmp-abcdef"});
}
