// Unit tests for the heightmap decoders (io/decode) on hostile PNGs: each
// input here made stb_image misbehave under fuzz_decode (tests/fuzz; the
// reproducers are in tests/fuzz/corpus/decode). The PNG's structure is
// checked before stb_image sees it, so these are errors from a bounded
// amount of memory, and valid files decode as before.

#include <zlib.h>
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "landform/io/decode.hpp"
#include "landform/io/encode.hpp"

namespace {

using namespace landform;
using bytes = std::vector<std::uint8_t>;

void append_be32(bytes& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(v >> shift));
}

// A chunk with `length` in its header, `data` after it and the CRC of both.
void append_chunk(bytes& out, const std::string& type, const bytes& data, std::uint32_t length) {
  append_be32(out, length);
  const std::size_t start = out.size();
  out.insert(out.end(), type.begin(), type.end());
  out.insert(out.end(), data.begin(), data.end());
  append_be32(out, static_cast<std::uint32_t>(crc32(0L, out.data() + start, static_cast<uInt>(out.size() - start))));
}
void append_chunk(bytes& out, const std::string& type, const bytes& data = {}) {
  append_chunk(out, type, data, static_cast<std::uint32_t>(data.size()));
}

// The signature and an IHDR for `width` x `height` 8-bit grey.
bytes png_head(std::uint32_t width, std::uint32_t height) {
  bytes out = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  bytes ihdr;
  append_be32(ihdr, width);
  append_be32(ihdr, height);
  ihdr.insert(ihdr.end(), {8, 0, 0, 0, 0});
  append_chunk(out, "IHDR", ihdr);
  return out;
}

heightmap_request png_request() {
  heightmap_request r;
  r.encoding = heightmap_encoding::png;
  return r;
}

std::string decode_error(const bytes& file) {
  try {
    (void)decode_heightmap(file, png_request(), "\"x.png\"");
  } catch (const heightmap_decode_error& e) {
    CHECK(e.about() == heightmap_decode_error::subject::file);
    return e.what();
  }
  FAIL("no heightmap_decode_error was thrown");
  return {};
}

}  // namespace

TEST_CASE("decode: a PNG chunk longer than the file is refused before stb_image allocates for it", "[io][decode]") {
  // fuzz_decode: 127 bytes whose second IDAT declared 1.9 GB made stb_image
  // ask for 2 GiB before it found the data missing.
  bytes file = png_head(9, 10);
  append_chunk(file, "IDAT", {0x78, 0xda, 1, 2}, 1932329058);
  CHECK(decode_error(file) ==
        "\"x.png\" cannot be decoded: chunk IDAT at byte 33 declares 1932329058 bytes, but the file has 4 after its "
        "header");
  // A chunk header cut short, and no IEND.
  bytes cut = png_head(9, 10);
  cut.resize(cut.size() + 5, 0);
  CHECK(decode_error(cut) ==
        "\"x.png\" cannot be decoded: truncated at byte 33 (every chunk takes 12 bytes or more, and IEND ends the "
        "file)");
}

TEST_CASE("decode: a PNG whose image data cannot hold its pixels is refused from its chunk sizes", "[io][decode]") {
  // 100 bytes of deflate yield at most 103,200 bytes; 16384 x 16384 8-bit grey
  // needs 268,451,840 (a filter byte per row), which stb_image allocated up front.
  bytes file = png_head(16384, 16384);
  append_chunk(file, "IDAT", bytes(100, 0));
  append_chunk(file, "IEND");
  CHECK(decode_error(file) ==
        "\"x.png\" cannot be decoded: 100 bytes of image data (IDAT) cannot hold the 16384 x 16384 image's "
        "268451840 bytes of scanlines (deflate expands at most 1032:1)");
}

TEST_CASE("decode: the png encoding takes PNG files only", "[io][decode]") {
  // stb_image would decode a GIF, PSD, BMP, TGA, HDR, PIC, PNM or JPEG as well;
  // none of those decoders is what `png` promises, nor fuzzed.
  const bytes gif = {'G', 'I', 'F', '8', '9', 'a', 1, 0, 1, 0, 0, 0, 0, ';'};
  CHECK(decode_error(gif) == "\"x.png\" cannot be decoded: not a PNG file (no PNG signature)");
  CHECK(decode_error({}) == "\"x.png\" cannot be decoded: not a PNG file (no PNG signature)");
  bytes late = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  append_chunk(late, "tEXt", {'a', 0, 'b'});
  CHECK(decode_error(late) == "\"x.png\" cannot be decoded: chunk tEXt at byte 8 comes before IHDR");
}

TEST_CASE("decode: a PNG critical chunk with a wrong CRC is refused; an ancillary one is passed over", "[io][decode]") {
  // stb_image reads no CRC: a flipped bit in the image data decoded into a
  // different picture without a word.
  const std::vector<std::uint16_t> pixels = {0, 1000, 65535, 7, 30000, 12345};
  const bytes plain = encode_png_gray16(3, 2, pixels.data());
  bytes damaged = plain;
  damaged[damaged.size() - 12 - 5] ^= 0x01;  // the last byte of the IDAT's data
  CHECK(decode_error(damaged) ==
        "\"x.png\" cannot be decoded: chunk IDAT at byte 33 fails its CRC check (the file is damaged)");
  bytes header = plain;
  header[29] ^= 0x80;  // IHDR's stored CRC
  CHECK(decode_error(header) ==
        "\"x.png\" cannot be decoded: chunk IHDR at byte 8 fails its CRC check (the file is damaged)");
  // A tEXt chunk whose CRC is wrong, after IHDR: libpng warns and drops it.
  bytes with_text(plain.begin(), plain.begin() + 33);
  append_chunk(with_text, "tEXt", {'a', 0, 'b'});
  with_text.back() ^= 0x01;
  with_text.insert(with_text.end(), plain.begin() + 33, plain.end());
  CHECK(decode_heightmap(with_text, png_request(), "with_text").values ==
        decode_heightmap(plain, png_request(), "plain").values);
}

TEST_CASE("decode: stb_image's terse PNG failures are said in words", "[io][decode]") {
  // Colour type 5 does not exist: stb_image said only "bad ctype".
  bytes file = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  bytes ihdr;
  append_be32(ihdr, 2);
  append_be32(ihdr, 2);
  ihdr.insert(ihdr.end(), {8, 5, 0, 0, 0});
  append_chunk(file, "IHDR", ihdr);
  append_chunk(file, "IDAT", {0x78, 0x9c, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01});
  append_chunk(file, "IEND");
  CHECK(decode_error(file) ==
        "\"x.png\" cannot be decoded: its colour type and bit depth are not a valid PNG pair "
        "(stb_image: bad ctype)");
  // A header and IEND with no image data between them.
  bytes empty = png_head(2, 2);
  append_chunk(empty, "IEND");
  CHECK(decode_error(empty) == "\"x.png\" cannot be decoded: it holds no image data (IDAT) (stb_image: no IDAT)");
  // A deflate stream whose header is damaged (CRC kept right).
  const std::vector<std::uint16_t> pixels = {0, 1000, 65535, 7, 30000, 12345};
  const bytes plain = encode_png_gray16(3, 2, pixels.data());
  const std::uint32_t idat_length = (std::uint32_t{plain[33]} << 24) | (std::uint32_t{plain[34]} << 16) |
                                    (std::uint32_t{plain[35]} << 8) | std::uint32_t{plain[36]};
  bytes idat(plain.begin() + 41, plain.begin() + 41 + idat_length);
  idat[0] = 0x00;  // compression method 0: not deflate
  bytes broken(plain.begin(), plain.begin() + 33);
  append_chunk(broken, "IDAT", idat);
  append_chunk(broken, "IEND");
  CHECK(decode_error(broken).rfind("\"x.png\" cannot be decoded: its compressed image data (IDAT) is corrupt "
                                   "(stb_image: ",
                                   0) == 0);
}

TEST_CASE("decode: empty IDAT chunks are valid and change nothing", "[io][decode]") {
  // fuzz_decode: stb_image copied an empty first IDAT into its null buffer,
  // memcpy(nullptr, p, 0), which UBSan reports; the decoder drops them.
  const std::vector<std::uint16_t> pixels = {0, 1000, 65535, 7, 30000, 12345};
  const bytes plain = encode_png_gray16(3, 2, pixels.data());
  const heightmap_samples expected = decode_heightmap(plain, png_request(), "plain");
  REQUIRE(expected.width == 3);
  REQUIRE(expected.values.size() == 6);
  CHECK(expected.values[2] == 1.0f);
  // Empty IDATs before the data (after IHDR, at byte 33) and after it.
  bytes with_empty(plain.begin(), plain.begin() + 33);
  append_chunk(with_empty, "IDAT");
  append_chunk(with_empty, "IDAT");
  with_empty.insert(with_empty.end(), plain.begin() + 33, plain.end() - 12);
  append_chunk(with_empty, "IDAT");
  append_chunk(with_empty, "IEND");
  const heightmap_samples got = decode_heightmap(with_empty, png_request(), "with_empty");
  CHECK(got.width == expected.width);
  CHECK(got.height == expected.height);
  CHECK(got.values == expected.values);
}

TEST_CASE("decode: an r32 file holding NaN or infinity is refused, naming the file", "[io][decode]") {
  // 2 x 2 little-endian floats: 0.5, NaN, 1.0, -inf.
  const bytes file = {0x00, 0x00, 0x00, 0x3f, 0x00, 0x00, 0xc0, 0x7f, 0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x80, 0xff};
  heightmap_request r;
  r.encoding = heightmap_encoding::r32;
  try {
    (void)decode_heightmap(file, r, "\"h.r32\"");
    FAIL("no heightmap_decode_error was thrown");
  } catch (const heightmap_decode_error& e) {
    CHECK(e.about() == heightmap_decode_error::subject::file);
    CHECK(std::string(e.what()) == "\"h.r32\" holds 2 of 4 samples that are not finite (NaN or infinity)");
  }
  // The same file with finite samples decodes as stored.
  bytes finite = file;
  finite[6] = 0x40;  // NaN -> 3.0 (0x40400000)
  finite[7] = 0x40;
  finite[15] = 0xbf;  // -inf -> -1.0 (0xbf800000)
  finite[14] = 0x80;
  const heightmap_samples s = decode_heightmap(finite, r, "\"h.r32\"");
  CHECK(s.values == std::vector<float>{0.5f, 3.0f, 1.0f, -1.0f});
}
