// Tests for the parallel PNG encoder (src/io/png_encode.cpp): every file is
// decoded by libpng (which checks the CRCs and the zlib Adler-32) and by
// stb_image (the decoder the library's image stage uses), pixel for pixel.

#include <catch2/catch.hpp>

#include <png.h>
#include <stb_image.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "landform/io/png_encode.hpp"

namespace {

using bytes_t = std::vector<std::uint8_t>;

struct read_state {
  const bytes_t* png = nullptr;
  std::size_t at = 0;
};

void read_from_memory(png_structp png, png_bytep out, png_size_t length) {
  auto* state = static_cast<read_state*>(png_get_io_ptr(png));
  if (state->at + length > state->png->size()) png_error(png, "read past the end");
  std::memcpy(out, state->png->data() + state->at, length);
  state->at += length;
}

void quiet(png_structp, png_const_charp) {}

struct libpng_image {
  png_uint_32 width = 0, height = 0;
  int bit_depth = 0, colour_type = 0, channels = 0;
  bytes_t rows;  // as stored: 16-bit samples big-endian
};

// Only trivially destructible locals live across setjmp.
bool libpng_decode_into(const bytes_t& bytes, libpng_image& image) {
  read_state state{&bytes, 0};
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, quiet);
  if (png == nullptr) return false;
  png_infop info = png_create_info_struct(png);
  if (info == nullptr || setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, nullptr);
    return false;
  }
  png_set_read_fn(png, &state, read_from_memory);
  png_read_info(png, info);
  image.width = png_get_image_width(png, info);
  image.height = png_get_image_height(png, info);
  image.bit_depth = png_get_bit_depth(png, info);
  image.colour_type = png_get_color_type(png, info);
  image.channels = png_get_channels(png, info);
  const std::size_t row = png_get_rowbytes(png, info);
  image.rows.resize(row * image.height);
  for (png_uint_32 y = 0; y < image.height; ++y) png_read_row(png, image.rows.data() + y * row, nullptr);
  png_read_end(png, nullptr);
  png_destroy_read_struct(&png, &info, nullptr);
  return true;
}

libpng_image libpng_decode(const bytes_t& bytes) {
  libpng_image image;
  REQUIRE(libpng_decode_into(bytes, image));
  return image;
}

bytes_t big_endian(const std::vector<std::uint16_t>& v) {
  bytes_t out;
  for (std::uint16_t s : v) {
    out.push_back(static_cast<std::uint8_t>(s >> 8));
    out.push_back(static_cast<std::uint8_t>(s & 0xFFu));
  }
  return out;
}

// Smooth terrain-like values plus noise, so that the filters and deflate have
// real work (and all byte values occur).
template <class T>
std::vector<T> test_image(int w, int h, int channels, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<T> v(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * static_cast<std::size_t>(channels));
  const double full = sizeof(T) == 1 ? 255.0 : 65535.0;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      for (int c = 0; c < channels; ++c) {
        const double smooth = 0.5 + 0.25 * std::sin(x * 0.05 + c) * std::cos(y * 0.03);
        const double value = smooth * full + static_cast<double>(rng() % 7) - 3.0;
        v[(static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)) *
              static_cast<std::size_t>(channels) +
          static_cast<std::size_t>(c)] = static_cast<T>(std::clamp(value, 0.0, full));
      }
    }
  }
  return v;
}

const int k_colour_type[5] = {-1, 0, 4, 2, 6};

}  // namespace

TEST_CASE("encode_png round-trips exactly through libpng and stb_image", "[png]") {
  const std::vector<std::pair<int, int>> sizes = {{1, 1}, {3, 700}, {700, 3}, {257, 129}, {1000, 300}};
  const std::vector<landform::png_filter> filters = {landform::png_filter::paeth, landform::png_filter::up,
                                                     landform::png_filter::sub, landform::png_filter::none,
                                                     landform::png_filter::average};
  unsigned seed = 1;
  for (const auto& [w, h] : sizes) {
    for (int channels = 1; channels <= 4; ++channels) {
      const auto filter = filters[seed % filters.size()];
      landform::png_options options;
      options.filter = filter;
      options.nthreads = 2;
      CAPTURE(w, h, channels, static_cast<int>(filter));
      {
        const auto v = test_image<std::uint8_t>(w, h, channels, seed++);
        const bytes_t png = landform::encode_png(w, h, channels, v.data(), {}, options);
        const libpng_image image = libpng_decode(png);
        CHECK(image.width == static_cast<png_uint_32>(w));
        CHECK(image.height == static_cast<png_uint_32>(h));
        CHECK(image.bit_depth == 8);
        CHECK(image.colour_type == k_colour_type[channels]);
        CHECK(image.rows == v);
        int sw = 0, sh = 0, sc = 0;
        stbi_uc* pixels = stbi_load_from_memory(png.data(), static_cast<int>(png.size()), &sw, &sh, &sc, 0);
        REQUIRE(pixels != nullptr);
        CHECK((sw == w && sh == h && sc == channels));
        CHECK(bytes_t(pixels, pixels + v.size()) == v);
        stbi_image_free(pixels);
      }
      {
        const auto v = test_image<std::uint16_t>(w, h, channels, seed++);
        const bytes_t png = landform::encode_png(w, h, channels, v.data(), {}, options);
        const libpng_image image = libpng_decode(png);
        CHECK(image.bit_depth == 16);
        CHECK(image.colour_type == k_colour_type[channels]);
        CHECK(image.rows == big_endian(v));
        int sw = 0, sh = 0, sc = 0;
        stbi_us* pixels = stbi_load_16_from_memory(png.data(), static_cast<int>(png.size()), &sw, &sh, &sc, 0);
        REQUIRE(pixels != nullptr);
        CHECK((sw == w && sh == h && sc == channels));
        CHECK(std::vector<std::uint16_t>(pixels, pixels + v.size()) == v);
        stbi_image_free(pixels);
      }
    }
  }
}

TEST_CASE("encode_png writes the same bytes for 1, 2 and 8 threads", "[png]") {
  // 16-bit RGB rows of 6 KiB: 42 rows a chunk, so 700 rows make 17 chunks.
  constexpr int k_w = 1024, k_h = 700;
  REQUIRE(landform::png_chunk_rows(static_cast<std::size_t>(k_w) * 6) < k_h);
  const auto v = test_image<std::uint16_t>(k_w, k_h, 3, 7);
  for (auto compression :
       {landform::png_compression::fast, landform::png_compression::standard, landform::png_compression::best}) {
    landform::png_options options;
    options.compression = compression;
    options.nthreads = 1;
    const bytes_t serial = landform::encode_png(k_w, k_h, 3, v.data(), {{"Software", "test"}}, options);
    options.nthreads = 2;
    CHECK(landform::encode_png(k_w, k_h, 3, v.data(), {{"Software", "test"}}, options) == serial);
    options.nthreads = 8;
    CHECK(landform::encode_png(k_w, k_h, 3, v.data(), {{"Software", "test"}}, options) == serial);
    CHECK(libpng_decode(serial).rows == big_endian(v));
  }
}

TEST_CASE("encode_png: fast files are no smaller than best ones", "[png]") {
  constexpr int k_w = 600, k_h = 500;
  const auto v = test_image<std::uint8_t>(k_w, k_h, 3, 11);
  landform::png_options fast, standard, best;
  fast.compression = landform::png_compression::fast;
  best.compression = landform::png_compression::best;
  const std::size_t fast_size = landform::encode_png(k_w, k_h, 3, v.data(), {}, fast).size();
  const std::size_t standard_size = landform::encode_png(k_w, k_h, 3, v.data(), {}, standard).size();
  const std::size_t best_size = landform::encode_png(k_w, k_h, 3, v.data(), {}, best).size();
  CHECK(fast_size >= standard_size);
  CHECK(standard_size >= best_size);
  CHECK(best_size < v.size());  // it does compress
}

TEST_CASE("encode_png rejects bad arguments", "[png]") {
  const std::uint8_t v[16] = {};
  CHECK_THROWS_AS(landform::encode_png(0, 1, 1, v), std::invalid_argument);
  CHECK_THROWS_AS(landform::encode_png(1, 1, 0, v), std::invalid_argument);
  CHECK_THROWS_AS(landform::encode_png(1, 1, 5, v), std::invalid_argument);
  CHECK_THROWS_AS(landform::encode_png(1, 1, 1, static_cast<const std::uint8_t*>(nullptr)), std::invalid_argument);
  CHECK_THROWS_AS(landform::encode_png(1, 1, 1, v, {{"bad  key", ""}}), std::invalid_argument);
}

namespace {

// encode_png_rows over `v` must give encode_png's bytes, asking for chunks
// of rows, never the whole image at once.
template <class T>
void check_rows_source(int w, int h, int channels, const std::vector<T>& v, const landform::png_options& options) {
  const std::size_t row = static_cast<std::size_t>(w) * static_cast<std::size_t>(channels);
  std::atomic<int> most_rows{0};
  std::atomic<bool> out_of_range{false};  // Catch2 assertions are not thread-safe
  const landform::png_row_source<T> rows = [&](int first, int last, T* out) {
    if (first < 0 || first >= last || last > h) {
      out_of_range = true;
      return;
    }
    int seen = most_rows.load();
    while (last - first > seen && !most_rows.compare_exchange_weak(seen, last - first)) {
    }
    std::copy(v.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(first) * row),
              v.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(last) * row), out);
  };
  INFO(w << " x " << h << " x " << channels << ", " << 8 * sizeof(T) << " bits, filter "
         << static_cast<int>(options.filter) << ", " << options.nthreads << " threads");
  CHECK(landform::encode_png_rows(w, h, channels, rows, {{"Software", "test"}}, options) ==
        landform::encode_png(w, h, channels, v.data(), {{"Software", "test"}}, options));
  CHECK_FALSE(out_of_range.load());
  CHECK(most_rows.load() < h);
}

}  // namespace

TEST_CASE("encode_png_rows writes encode_png's bytes from rows asked a chunk at a time", "[png]") {
  const auto rgb8 = test_image<std::uint8_t>(600, 500, 3, 21);     // 145 rows a chunk, 20 rows of dictionary
  const auto rgb16 = test_image<std::uint16_t>(1024, 700, 3, 22);  // 42 rows a chunk
  const auto wide = test_image<std::uint8_t>(40000, 20, 1, 23);    // a row longer than the 32 KiB dictionary
  const auto rgba16 = test_image<std::uint16_t>(33, 9000, 4, 24);  // many chunks of short rows
  for (const auto filter : {landform::png_filter::none, landform::png_filter::sub, landform::png_filter::up,
                            landform::png_filter::average, landform::png_filter::paeth}) {
    for (const int threads : {1, 2}) {
      landform::png_options options;
      options.filter = filter;
      options.nthreads = threads;
      options.compression = landform::png_compression::fast;
      check_rows_source(600, 500, 3, rgb8, options);
      check_rows_source(1024, 700, 3, rgb16, options);
      check_rows_source(40000, 20, 1, wide, options);
      check_rows_source(33, 9000, 4, rgba16, options);
    }
  }
  CHECK_THROWS_AS(landform::encode_png_rows(4, 4, 3, landform::png_row_source<std::uint8_t>{}), std::invalid_argument);
}

namespace {

// What a sink saw: the pieces in order, and whether two calls ever overlapped
// (the encoder must call it one piece at a time, whichever thread).
struct sink_record {
  std::vector<bytes_t> pieces;
  std::atomic<int> inside{0};
  std::atomic<bool> overlapped{false};

  landform::png_sink sink() {
    return [this](std::span<const std::uint8_t> piece) {
      if (inside.fetch_add(1) != 0) overlapped = true;
      pieces.emplace_back(piece.begin(), piece.end());
      inside.fetch_sub(1);
    };
  }
  [[nodiscard]] bytes_t joined() const {
    bytes_t out;
    for (const auto& p : pieces) out.insert(out.end(), p.begin(), p.end());
    return out;
  }
};

// stream_png and stream_png_rows over `v` must hand over encode_png's bytes:
// the head, three pieces per deflate chunk (IDAT header, data, CRC) and IEND.
template <class T>
void check_stream(int w, int h, int channels, const std::vector<T>& v, const landform::png_options& options) {
  const std::vector<std::pair<std::string, std::string>> text = {{"Software", "test"}};
  INFO(w << " x " << h << " x " << channels << ", " << 8 * sizeof(T) << " bits, compression "
         << landform::compression_name(options.compression) << ", " << options.nthreads << " threads");
  const bytes_t whole = landform::encode_png(w, h, channels, v.data(), text, options);
  const int chunk_rows = landform::png_chunk_rows(static_cast<std::size_t>(w) * channels * sizeof(T));
  const auto chunks = static_cast<std::size_t>((h + chunk_rows - 1) / chunk_rows);
  sink_record direct;
  landform::stream_png(w, h, channels, v.data(), direct.sink(), text, options);
  CHECK(direct.joined() == whole);
  CHECK(direct.pieces.size() == 3 * chunks + 2);
  CHECK_FALSE(direct.overlapped.load());
  const std::size_t row = static_cast<std::size_t>(w) * static_cast<std::size_t>(channels);
  const landform::png_row_source<T> rows = [&](int first, int last, T* out) {
    std::copy(v.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(first) * row),
              v.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(last) * row), out);
  };
  sink_record from_rows;
  landform::stream_png_rows(w, h, channels, rows, from_rows.sink(), text, options);
  CHECK(from_rows.joined() == whole);
  CHECK_FALSE(from_rows.overlapped.load());
}

}  // namespace

TEST_CASE("stream_png hands encode_png's bytes to the sink in file order", "[png]") {
  const auto grey8 = test_image<std::uint8_t>(7, 3, 1, 31);        // one chunk
  const auto rgb8 = test_image<std::uint8_t>(600, 500, 3, 32);     // 145 rows a chunk: four chunks
  const auto rgb16 = test_image<std::uint16_t>(1024, 700, 3, 33);  // 42 rows a chunk: 17 chunks
  const auto ga16 = test_image<std::uint16_t>(20, 3000, 2, 34);    // 3 chunks of short rows
  const auto rgba8 = test_image<std::uint8_t>(40000, 20, 4, 35);   // a row a chunk, longer than the dictionary
  for (const auto compression :
       {landform::png_compression::fast, landform::png_compression::standard, landform::png_compression::best}) {
    for (const int threads : {1, 2, 8}) {
      if (compression == landform::png_compression::best && threads != 2) continue;  // slow; one run suffices
      landform::png_options options;
      options.compression = compression;
      options.nthreads = threads;
      check_stream(7, 3, 1, grey8, options);
      check_stream(600, 500, 3, rgb8, options);
      check_stream(1024, 700, 3, rgb16, options);
      check_stream(20, 3000, 2, ga16, options);
      if (compression == landform::png_compression::fast) check_stream(40000, 20, 4, rgba8, options);
    }
  }
}

TEST_CASE("stream_png stops at a sink that throws and rethrows it", "[png]") {
  const auto v = test_image<std::uint8_t>(600, 500, 3, 41);  // four chunks: 14 pieces
  for (const int threads : {1, 2}) {
    for (const int failing : {0, 1, 5, 13}) {
      INFO(threads << " threads, the sink throws at piece " << failing);
      landform::png_options options;
      options.nthreads = threads;
      std::atomic<int> calls{0};
      const landform::png_sink sink = [&](std::span<const std::uint8_t>) {
        if (calls.fetch_add(1) == failing) throw std::runtime_error("disk full");
      };
      CHECK_THROWS_WITH(landform::stream_png(600, 500, 3, v.data(), sink, {}, options), "disk full");
      CHECK(calls.load() == failing + 1);  // nothing after the failed piece
    }
  }
  CHECK_THROWS_AS(landform::stream_png(600, 500, 3, v.data(), landform::png_sink{}), std::invalid_argument);
}
