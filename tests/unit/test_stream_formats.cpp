// Streamed raster encoders (the stream_* of landform/io/encode.hpp and the
// format table's write_to): the pieces a sink collects, joined, must be the
// in-memory encoder's bytes, for odd sizes, several channel counts and images
// of several strips, row blocks or chunks; no piece may be the whole file
// when the file has several strips or blocks.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "landform/io/encode.hpp"
#include "landform/outputs/output_format.hpp"

namespace {

using namespace landform;
using bytes_t = std::vector<std::uint8_t>;

struct collector {
  std::vector<bytes_t> pieces;

  png_sink sink() {
    return [this](std::span<const std::uint8_t> piece) { pieces.emplace_back(piece.begin(), piece.end()); };
  }
  [[nodiscard]] bytes_t joined() const {
    bytes_t out;
    for (const auto& p : pieces) out.insert(out.end(), p.begin(), p.end());
    return out;
  }
  [[nodiscard]] std::size_t largest() const {
    std::size_t n = 0;
    for (const auto& p : pieces) n = std::max(n, p.size());
    return n;
  }
};

// Deterministic samples in [0, 1] with some structure, plus the exact values
// 0 and 1 and a negative zero.
std::vector<float> unit_samples(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t k = 0; k < n; ++k) v[k] = 0.5f + 0.5f * std::sin(static_cast<float>(k) * 0.37f);
  if (n > 2) {
    v[0] = 0.0f;
    v[1] = 1.0f;
    v[2] = -0.0f;
  }
  return v;
}

std::vector<std::uint16_t> u16_samples(const std::vector<float>& f) {
  std::vector<std::uint16_t> v(f.size());
  for (std::size_t k = 0; k < f.size(); ++k) v[k] = static_cast<std::uint16_t>(std::lround(f[k] * 65535.0f));
  return v;
}

const std::vector<std::pair<std::string, std::string>> k_text = {{"Software", "landform test"},
                                                                 {"Comment", "preset sha256 0, seed 1"}};

struct size3 {
  int w, h, c;
};

}  // namespace

TEST_CASE("stream_raw16_le and stream_r32_le hand the in-memory bytes over in blocks of whole rows", "[stream]") {
  for (const size3 s : {size3{1, 1, 1}, size3{7, 5, 1}, size3{301, 257, 1}, size3{20000, 3, 1}}) {
    INFO(s.w << " x " << s.h);
    const std::size_t n = static_cast<std::size_t>(s.w) * static_cast<std::size_t>(s.h);
    const std::vector<float> f = unit_samples(n);
    const std::vector<std::uint16_t> u = u16_samples(f);
    collector raw16, r32;
    stream_raw16_le(n, u.data(), static_cast<std::size_t>(s.w), raw16.sink());
    stream_r32_le(n, f.data(), static_cast<std::size_t>(s.w), r32.sink());
    CHECK(raw16.joined() == encode_raw16_le(n, u.data()));
    CHECK(r32.joined() == encode_r32_le(n, f.data()));
    for (const auto& p : r32.pieces) CHECK(p.size() % (4 * static_cast<std::size_t>(s.w)) == 0);
    // About 64 KiB a piece, or one row when a row is longer.
    CHECK(r32.largest() <= std::max<std::size_t>(std::size_t{1} << 16, 4 * static_cast<std::size_t>(s.w)));
    if (n * 4 > (std::size_t{1} << 17)) CHECK(r32.pieces.size() > 1);
  }
  collector none;
  stream_r32_le(0, nullptr, 0, none.sink());
  CHECK(none.pieces.empty());
}

TEST_CASE("stream_tiff_u16 and stream_tiff_f32 equal encode_tiff_*: header, strips as filled, directory last",
          "[stream][tiff]") {
  const georeference geo{1000.0, 2000.0, 4.0};
  for (const size3 s : {size3{7, 5, 1}, size3{45, 31, 3}, size3{301, 257, 1}, size3{33, 600, 4}}) {
    for (const bool with_geo : {false, true}) {
      INFO(s.w << " x " << s.h << " x " << s.c << (with_geo ? ", GeoTIFF" : ""));
      const std::size_t n =
          static_cast<std::size_t>(s.w) * static_cast<std::size_t>(s.h) * static_cast<std::size_t>(s.c);
      const std::vector<float> f = unit_samples(n);
      const std::vector<std::uint16_t> u = u16_samples(f);
      const georeference* g = with_geo ? &geo : nullptr;
      collector t16, t32;
      stream_tiff_u16(s.w, s.h, s.c, u.data(), t16.sink(), k_text, g);
      stream_tiff_f32(s.w, s.h, s.c, f.data(), t32.sink(), k_text, g);
      CHECK(t16.joined() == encode_tiff_u16(s.w, s.h, s.c, u.data(), k_text, g));
      CHECK(t32.joined() == encode_tiff_f32(s.w, s.h, s.c, f.data(), k_text, g));
      CHECK(t32.pieces.front().size() == 8);
      if (n * 4 > (std::size_t{1} << 17)) CHECK(t32.largest() <= (std::size_t{1} << 16));
    }
  }
}

TEST_CASE("stream_exr equals encode_exr for float and half, every ZIP level, compressing each chunk once",
          "[stream][exr]") {
  for (const size3 s : {size3{7, 5, 1}, size3{45, 31, 2}, size3{301, 257, 3}, size3{33, 100, 4}}) {
    const std::vector<float> f =
        unit_samples(static_cast<std::size_t>(s.w) * static_cast<std::size_t>(s.h) * static_cast<std::size_t>(s.c));
    for (const bool half : {false, true}) {
      for (const auto level : {png_compression::fast, png_compression::standard, png_compression::best}) {
        INFO(s.w << " x " << s.h << " x " << s.c << (half ? " half" : " float") << ", " << compression_name(level));
        collector exr;
        stream_exr(s.w, s.h, s.c, f.data(), half, exr.sink(), {}, k_text, level);
        CHECK(exr.joined() == encode_exr(s.w, s.h, s.c, f.data(), half, {}, k_text, level));
      }
    }
  }
}

TEST_CASE("write_to streams every raster format's write() bytes, from samples or from a row source", "[stream]") {
  const int w = 45, h = 31;
  std::size_t streaming = 0;
  for (const auto& format : output_formats()) {
    if (format.stream == nullptr) continue;
    ++streaming;
    INFO(format.name);
    raster r;
    r.width = w;
    r.height = h;
    r.channels = format.channels.back();
    r.text = k_text;
    r.geo = georeference{10.0, 20.0, 2.0};
    const std::vector<float> f = unit_samples(static_cast<std::size_t>(w * h * r.channels));
    if (format.is_float()) r.f32 = f;
    if (format.samples == sample_type::uint16) r.u16 = u16_samples(f);
    if (format.samples == sample_type::uint8) {
      for (const auto v : u16_samples(f)) r.u8.push_back(static_cast<std::uint8_t>(v >> 8));
    }
    collector c;
    REQUIRE(format.write_to(r, c.sink()));
    CHECK(c.joined() == format.write(r));
    if (format.samples != sample_type::uint16) continue;
    // The same samples from a row source.
    raster rows = r;
    rows.u16.clear();
    const std::size_t row = static_cast<std::size_t>(w) * static_cast<std::size_t>(r.channels);
    rows.u16_rows = [&r, row](int first, int last, std::uint16_t* out) {
      std::copy(r.u16.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(first) * row),
                r.u16.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(last) * row), out);
    };
    collector from_rows;
    REQUIRE(format.write_to(rows, from_rows.sink()));
    CHECK(from_rows.joined() == format.write(r));
  }
  CHECK(streaming == 12);  // every PNG, raw, TIFF and OpenEXR format; GeoJSON and GLB are written whole
  CHECK_FALSE(find_output_format("geojson").write_to(raster{}, collector{}.sink()));
}

TEST_CASE("streamed encoders: an empty sink is rejected, a sink's exception passes through and stops the file",
          "[stream]") {
  const std::vector<float> f = unit_samples(std::size_t{301} * 257);
  const std::vector<std::uint16_t> u = u16_samples(f);
  CHECK_THROWS_AS(stream_raw16_le(u.size(), u.data(), 301, png_sink()), std::invalid_argument);
  CHECK_THROWS_AS(stream_r32_le(f.size(), f.data(), 0, collector{}.sink()), std::invalid_argument);
  CHECK_THROWS_AS(stream_tiff_f32(301, 257, 1, f.data(), png_sink()), std::invalid_argument);
  CHECK_THROWS_AS(stream_tiff_u16(0, 257, 1, u.data(), collector{}.sink()), std::invalid_argument);
  CHECK_THROWS_AS(stream_exr(301, 257, 1, f.data(), false, png_sink()), std::invalid_argument);
  CHECK_THROWS_AS(stream_exr(301, 257, 5, f.data(), false, collector{}.sink()), std::invalid_argument);
  struct full_disk : std::runtime_error {
    full_disk() : std::runtime_error("disk full") {}
  };
  int calls = 0;
  const png_sink failing = [&calls](std::span<const std::uint8_t>) {
    if (++calls == 2) throw full_disk();
  };
  CHECK_THROWS_AS(stream_tiff_f32(301, 257, 1, f.data(), failing), full_disk);
  CHECK(calls == 2);
  calls = 0;
  CHECK_THROWS_AS(stream_r32_le(f.size(), f.data(), 301, failing), full_disk);
  CHECK(calls == 2);
  calls = 0;
  CHECK_THROWS_AS(stream_exr(301, 257, 1, f.data(), false, failing), full_disk);
  CHECK(calls == 2);
}

TEST_CASE("encode_unit_samples: a streamed 16-bit format quantises rows on demand, same bytes and clipped count",
          "[stream]") {
  const int w = 301, h = 257;
  std::vector<float> unit = unit_samples(static_cast<std::size_t>(w * h));
  unit[5] = 1.5f;     // clipped high
  unit[77] = -0.25f;  // clipped low
  file_settings held;
  held.text = k_text;
  held.deflate.nthreads = 2;
  for (const char* name : {"raw16", "png16", "tiff16"}) {
    INFO(name);
    const output_format& f = find_output_format(name);
    const encoded_raster whole = encode_unit_samples(unit, w, h, 1, f, held);
    collector c;
    file_settings streamed = held;
    streamed.stream = c.sink();
    const encoded_raster s = encode_unit_samples(unit, w, h, 1, f, streamed);
    CHECK(s.streamed);
    CHECK(s.bytes.empty());
    CHECK(c.joined() == whole.bytes);
    CHECK(s.clipped == 2);
    CHECK(whole.clipped == 2);
  }
}
