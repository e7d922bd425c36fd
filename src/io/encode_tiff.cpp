// TIFF encoders (libtiff): uncompressed, little-endian, strips; in memory or
// streamed to a sink.

#include <tiffio.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <exception>
#include <limits>
#include <new>
#include <span>
#include <stdexcept>
#include <string>

#include "landform/io/encode.hpp"

namespace landform {
namespace {

// A growing, seekable byte buffer behind libtiff's client I/O.
struct tiff_memory {
  std::vector<std::uint8_t>* out = nullptr;
  std::size_t position = 0;
  bool out_of_memory = false;
  std::string message;  // the first error libtiff reported
};

tmsize_t tiff_read(thandle_t handle, void* data, tmsize_t size) {
  auto* m = static_cast<tiff_memory*>(handle);
  if (size <= 0 || m->position >= m->out->size()) return 0;
  const auto n = std::min(static_cast<std::size_t>(size), m->out->size() - m->position);
  std::memcpy(data, m->out->data() + m->position, n);
  m->position += n;
  return static_cast<tmsize_t>(n);
}

tmsize_t tiff_write(thandle_t handle, void* data, tmsize_t size) {
  auto* m = static_cast<tiff_memory*>(handle);
  if (size < 0) return -1;
  try {
    const auto n = static_cast<std::size_t>(size);
    if (m->position + n > m->out->size()) m->out->resize(m->position + n);
    std::memcpy(m->out->data() + m->position, data, n);
    m->position += n;
    return size;
  } catch (...) {
    m->out_of_memory = true;
    return -1;
  }
}

toff_t tiff_seek(thandle_t handle, toff_t offset, int whence) {
  auto* m = static_cast<tiff_memory*>(handle);
  std::size_t base = 0;
  if (whence == SEEK_CUR) base = m->position;
  if (whence == SEEK_END) base = m->out->size();
  m->position = base + static_cast<std::size_t>(offset);
  return static_cast<toff_t>(m->position);
}

int tiff_close(thandle_t) {
  return 0;
}

toff_t tiff_size(thandle_t handle) {
  return static_cast<toff_t>(static_cast<tiff_memory*>(handle)->out->size());
}

int tiff_map(thandle_t, void**, toff_t*) {
  return 0;
}

void tiff_unmap(thandle_t, void*, toff_t) {}

int tiff_on_error(TIFF*, void* user, const char* module, const char* format, va_list args) {
  auto* message = static_cast<std::string*>(user);
  if (message->empty()) {
    char text[256];
    std::vsnprintf(text, sizeof text, format, args);
    *message = std::string(module != nullptr ? module : "libtiff") + ": " + text;
  }
  return 1;  // handled: nothing printed
}

int tiff_on_warning(TIFF*, void*, const char*, const char*, va_list) {
  return 1;  // the library never prints; warnings are not actionable here
}

std::string text_value(const std::vector<std::pair<std::string, std::string>>& text, const char* key) {
  for (const auto& [k, v] : text)
    if (k == key) return v;
  return {};
}

// GeoTIFF tags (GeoTIFF 1.0, section 2.6), unknown to libtiff itself.
constexpr ttag_t k_model_pixel_scale = 33550, k_model_tiepoint = 33922, k_geo_key_directory = 34735;

bool write_georeference(TIFF* tif, const georeference& g) {
  static const TIFFFieldInfo k_fields[] = {
      {k_model_pixel_scale, -1, -1, TIFF_DOUBLE, FIELD_CUSTOM, 1, 1, const_cast<char*>("ModelPixelScaleTag")},
      {k_model_tiepoint, -1, -1, TIFF_DOUBLE, FIELD_CUSTOM, 1, 1, const_cast<char*>("ModelTiepointTag")},
      {k_geo_key_directory, -1, -1, TIFF_SHORT, FIELD_CUSTOM, 1, 1, const_cast<char*>("GeoKeyDirectoryTag")},
  };
  if (TIFFMergeFieldInfo(tif, k_fields, 3) != 0) return false;
  const double scale[3] = {g.pixel_size, g.pixel_size, 0.0};
  const double tiepoint[6] = {0.0, 0.0, 0.0, g.x, -g.y, 0.0};
  // Version 1.1.0, one key: GTRasterTypeGeoKey (1025) = RasterPixelIsPoint (2).
  const std::uint16_t keys[8] = {1, 1, 0, 1, 1025, 0, 1, 2};
  return TIFFSetField(tif, k_model_pixel_scale, 3, scale) == 1 &&
         TIFFSetField(tif, k_model_tiepoint, 6, tiepoint) == 1 && TIFFSetField(tif, k_geo_key_directory, 8, keys) == 1;
}

// What encode_tiff_u16/f32 and stream_tiff_u16/f32 were asked for.
struct tiff_image {
  int width = 0;
  int height = 0;
  int channels = 0;
  const void* samples = nullptr;
  int bits = 16;
  int sample_format = SAMPLEFORMAT_UINT;
  const std::vector<std::pair<std::string, std::string>>& text;
  const georeference* geo = nullptr;
  const char* what = "";
  // Instead of `samples` (16-bit only): the rows a block at a time.
  const png_row_source<std::uint16_t>* u16_rows = nullptr;

  [[nodiscard]] std::size_t row_bytes() const {
    return static_cast<std::size_t>(width) * static_cast<std::size_t>(channels) * static_cast<std::size_t>(bits / 8);
  }
  // Bytes of sample data (all strips, uncompressed and contiguous).
  [[nodiscard]] std::size_t data_bytes() const { return row_bytes() * static_cast<std::size_t>(height); }
};

// Throws std::invalid_argument for what the TIFF encoders reject.
void check(const tiff_image& im) {
  if (im.width <= 0 || im.height <= 0) {
    throw std::invalid_argument(std::string(im.what) + ": image size must be positive, got " +
                                std::to_string(im.width) + " x " + std::to_string(im.height));
  }
  if (im.samples == nullptr && (im.u16_rows == nullptr || !*im.u16_rows))
    throw std::invalid_argument(std::string(im.what) + ": null pixel data");
  if (im.channels != 1 && im.channels != 3 && im.channels != 4) {
    throw std::invalid_argument(std::string(im.what) + ": 1, 3 or 4 channels, got " + std::to_string(im.channels));
  }
  if (im.data_bytes() > std::size_t{0xFFFFFFFF} - (std::size_t{1} << 20)) {
    throw std::invalid_argument(std::string(im.what) + ": image too large for a classic TIFF (4 GiB)");
  }
}

// The tags: size, sample layout, strips, provenance and placement.
bool set_tags(TIFF* tif, const tiff_image& im) {
  bool ok = TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, static_cast<std::uint32_t>(im.width)) == 1;
  ok = ok && TIFFSetField(tif, TIFFTAG_IMAGELENGTH, static_cast<std::uint32_t>(im.height)) == 1;
  ok = ok && TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, static_cast<std::uint16_t>(im.channels)) == 1;
  ok = ok && TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, static_cast<std::uint16_t>(im.bits)) == 1;
  ok = ok && TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT, static_cast<std::uint16_t>(im.sample_format)) == 1;
  ok = ok && TIFFSetField(tif, TIFFTAG_PHOTOMETRIC,
                          static_cast<std::uint16_t>(im.channels == 1 ? PHOTOMETRIC_MINISBLACK : PHOTOMETRIC_RGB)) == 1;
  ok = ok && TIFFSetField(tif, TIFFTAG_PLANARCONFIG, static_cast<std::uint16_t>(PLANARCONFIG_CONTIG)) == 1;
  ok = ok && TIFFSetField(tif, TIFFTAG_COMPRESSION, static_cast<std::uint16_t>(COMPRESSION_NONE)) == 1;
  ok = ok && TIFFSetField(tif, TIFFTAG_ORIENTATION, static_cast<std::uint16_t>(ORIENTATION_TOPLEFT)) == 1;
  if (im.channels == 4) {
    const std::uint16_t extra[] = {EXTRASAMPLE_UNASSALPHA};
    ok = ok && TIFFSetField(tif, TIFFTAG_EXTRASAMPLES, static_cast<std::uint16_t>(1), extra) == 1;
  }
  const auto rows_per_strip = static_cast<std::uint32_t>(
      std::clamp<std::size_t>((std::size_t{1} << 16) / im.row_bytes(), 1, static_cast<std::size_t>(im.height)));
  ok = ok && TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, rows_per_strip) == 1;
  if (const std::string software = text_value(im.text, "Software"); ok && !software.empty())
    ok = TIFFSetField(tif, TIFFTAG_SOFTWARE, software.c_str()) == 1;
  if (const std::string comment = text_value(im.text, "Comment"); ok && !comment.empty())
    ok = TIFFSetField(tif, TIFFTAG_IMAGEDESCRIPTION, comment.c_str()) == 1;
  if (ok && im.geo != nullptr) ok = write_georeference(tif, *im.geo);
  return ok;
}

// The client I/O procs a TIFF writer goes through; `handle` is their state.
struct tiff_client {
  thandle_t handle = nullptr;
  TIFFReadWriteProc read = nullptr;
  TIFFReadWriteProc write = nullptr;
  TIFFSeekProc seek = nullptr;
  TIFFSizeProc size = nullptr;
};

// Writes `im` through `io`: libtiff writes the 8-byte header, then the strips
// in order, then the directory, then patches the header's directory offset.
// Returns false on failure, with libtiff's first error in `message`.
bool write_tiff(const tiff_image& im, const tiff_client& io, std::string& message) {
  TIFFOpenOptions* options = TIFFOpenOptionsAlloc();
  if (options == nullptr) throw std::bad_alloc();
  TIFFOpenOptionsSetErrorHandlerExtR(options, tiff_on_error, &message);
  TIFFOpenOptionsSetWarningHandlerExtR(options, tiff_on_warning, nullptr);
  // "l": little-endian whatever the host; "m": no memory mapping.
  TIFF* tif = TIFFClientOpenExt("landform", "wlm", io.handle, io.read, io.write, io.seek, tiff_close, io.size, tiff_map,
                                tiff_unmap, options);
  TIFFOpenOptionsFree(options);
  if (tif == nullptr) throw std::runtime_error(std::string(im.what) + ": cannot open a TIFF writer: " + message);
  bool ok = set_tags(tif, im);
  // libtiff's write call takes a non-const buffer but does not modify it
  // when no compression or byte swapping is needed (little-endian host).
  static_assert(std::endian::native == std::endian::little, "TIFF writer assumes a little-endian host");
  const auto* bytes = static_cast<const std::uint8_t*>(im.samples);
  // From a row source: a block of rows at a time into `block`.
  std::vector<std::uint16_t> block;
  const int block_rows = im.u16_rows != nullptr ? png_chunk_rows(im.row_bytes()) : 0;
  for (int y = 0; ok && y < im.height; ++y) {
    const std::uint8_t* row = bytes + static_cast<std::size_t>(y) * im.row_bytes();
    if (block_rows > 0) {
      const int first = y - y % block_rows;
      if (y == first) {
        const int last = std::min(im.height, first + block_rows);
        block.resize(im.row_bytes() / 2 * static_cast<std::size_t>(last - first));
        (*im.u16_rows)(first, last, block.data());
      }
      row = reinterpret_cast<const std::uint8_t*>(block.data()) + static_cast<std::size_t>(y - first) * im.row_bytes();
    }
    ok = TIFFWriteScanline(tif, const_cast<std::uint8_t*>(row), static_cast<std::uint32_t>(y), 0) == 1;
  }
  ok = ok && TIFFWriteDirectory(tif) == 1;
  TIFFClose(tif);
  return ok;
}

static_assert(sizeof(float) == 4 && std::numeric_limits<float>::is_iec559, "float must be IEEE-754 binary32");

std::vector<std::uint8_t> encode_tiff(const tiff_image& im) {
  check(im);
  std::vector<std::uint8_t> out;
  tiff_memory memory{&out, 0, false, {}};
  const bool ok = write_tiff(im, {&memory, tiff_read, tiff_write, tiff_seek, tiff_size}, memory.message);
  if (memory.out_of_memory) throw std::bad_alloc();
  if (!ok) throw std::runtime_error(std::string(im.what) + ": TIFF encoding failed: " + memory.message);
  return out;
}

// The file as libtiff writes it, sent to a sink without holding the strips:
// [0, 8) the header, [8, data_end) the strips, [data_end, ...) the directory.
// The strips are appended in order and go to the sink at once; the header
// goes first with the directory offset libtiff will patch in last (the even
// offset at or after data_end, where it puts the directory), checked when it
// does; the directory (small) is held and sent at the end.
class tiff_stream {
 public:
  tiff_stream(const png_sink& sink, std::size_t data_bytes) : m_sink(sink), m_data_end(k_header + data_bytes) {}

  tmsize_t write(const std::uint8_t* data, std::size_t n) {
    if (m_error) return -1;  // the sink failed: nothing more goes to it
    try {
      if (!place(data, n)) return -1;
      m_position += n;
      m_size = std::max(m_size, m_position);
      return static_cast<tmsize_t>(n);
    } catch (...) {
      if (!m_error) m_error = std::current_exception();
      return -1;
    }
  }

  toff_t seek(toff_t offset, int whence) {
    const std::size_t base = whence == SEEK_CUR ? m_position : whence == SEEK_END ? m_size : 0;
    m_position = base + static_cast<std::size_t>(offset);
    return static_cast<toff_t>(m_position);
  }

  [[nodiscard]] toff_t size() const { return static_cast<toff_t>(m_size); }

  // After libtiff closed the file: rethrows what the sink threw, checks the
  // header it sent and sends the directory. False when libtiff wrote
  // somewhere this class does not expect (`what` says where).
  bool finish(std::string& what) {
    if (m_error) std::rethrow_exception(m_error);
    if (!m_header_sent || m_sent != m_data_end || m_header != m_header_out) {
      what = "the file layout is not header, strips, directory";
      return false;
    }
    m_sink(std::span<const std::uint8_t>(m_trailer));
    return true;
  }

  std::string message;  // libtiff's first error

 private:
  static constexpr std::size_t k_header = 8;

  // Puts `n` bytes at m_position: in the header, the strips or the directory.
  bool place(const std::uint8_t* data, std::size_t n) {
    if (m_position + n <= k_header) {
      std::copy_n(data, n, m_header.begin() + static_cast<std::ptrdiff_t>(m_position));
      return true;
    }
    if (m_position >= m_data_end) {
      const std::size_t at = m_position - m_data_end;
      if (m_trailer.size() < at + n) m_trailer.resize(at + n);
      std::copy_n(data, n, m_trailer.begin() + static_cast<std::ptrdiff_t>(at));
      return true;
    }
    if (m_position != m_sent || m_position + n > m_data_end) return false;  // strips only in order
    if (!m_header_sent) send_header();
    m_sink(std::span<const std::uint8_t>(data, n));
    m_sent += n;
    return true;
  }

  // The header with the directory offset libtiff will patch in at the end.
  void send_header() {
    m_header_out = m_header;
    const auto directory = static_cast<std::uint32_t>((m_data_end + 1) & ~std::size_t{1});
    for (int k = 0; k < 4; ++k) m_header_out[4 + k] = static_cast<std::uint8_t>(directory >> (8 * k));
    m_sink(std::span<const std::uint8_t>(m_header_out));
    m_header_sent = true;
  }

  const png_sink& m_sink;
  std::size_t m_data_end;
  std::array<std::uint8_t, k_header> m_header{};
  std::array<std::uint8_t, k_header> m_header_out{};
  bool m_header_sent = false;
  std::vector<std::uint8_t> m_trailer;
  std::size_t m_position = 0;
  std::size_t m_size = 0;
  std::size_t m_sent = k_header;  // the end of what went to the sink (with the header)
  std::exception_ptr m_error;
};

tmsize_t stream_read(thandle_t, void*, tmsize_t) {
  return 0;  // a streamed file is never read back
}

tmsize_t stream_write(thandle_t handle, void* data, tmsize_t size) {
  if (size < 0) return -1;
  return static_cast<tiff_stream*>(handle)->write(static_cast<const std::uint8_t*>(data),
                                                  static_cast<std::size_t>(size));
}

toff_t stream_seek(thandle_t handle, toff_t offset, int whence) {
  return static_cast<tiff_stream*>(handle)->seek(offset, whence);
}

toff_t stream_size(thandle_t handle) {
  return static_cast<tiff_stream*>(handle)->size();
}

void stream_tiff(const tiff_image& im, const png_sink& sink) {
  check(im);
  if (!sink) throw std::invalid_argument(std::string(im.what) + ": empty sink");
  tiff_stream file(sink, im.data_bytes());
  const bool ok = write_tiff(im, {&file, stream_read, stream_write, stream_seek, stream_size}, file.message);
  std::string layout;
  if (!file.finish(layout) || !ok) {
    throw std::runtime_error(std::string(im.what) + ": TIFF encoding failed: " + (ok ? layout : file.message));
  }
}

}  // namespace

std::vector<std::uint8_t> encode_tiff_u16(int width, int height, int channels, const std::uint16_t* samples,
                                          const std::vector<std::pair<std::string, std::string>>& text,
                                          const georeference* geo) {
  return encode_tiff({width, height, channels, samples, 16, SAMPLEFORMAT_UINT, text, geo, "encode_tiff_u16"});
}

std::vector<std::uint8_t> encode_tiff_f32(int width, int height, int channels, const float* samples,
                                          const std::vector<std::pair<std::string, std::string>>& text,
                                          const georeference* geo) {
  return encode_tiff({width, height, channels, samples, 32, SAMPLEFORMAT_IEEEFP, text, geo, "encode_tiff_f32"});
}

void stream_tiff_u16(int width, int height, int channels, const std::uint16_t* samples, const png_sink& sink,
                     const std::vector<std::pair<std::string, std::string>>& text, const georeference* geo) {
  stream_tiff({width, height, channels, samples, 16, SAMPLEFORMAT_UINT, text, geo, "stream_tiff_u16"}, sink);
}

void stream_tiff_u16_rows(int width, int height, int channels, const png_row_source<std::uint16_t>& rows,
                          const png_sink& sink, const std::vector<std::pair<std::string, std::string>>& text,
                          const georeference* geo) {
  tiff_image im{width, height, channels, nullptr, 16, SAMPLEFORMAT_UINT, text, geo, "stream_tiff_u16"};
  im.u16_rows = &rows;
  stream_tiff(im, sink);
}

void stream_tiff_f32(int width, int height, int channels, const float* samples, const png_sink& sink,
                     const std::vector<std::pair<std::string, std::string>>& text, const georeference* geo) {
  stream_tiff({width, height, channels, samples, 32, SAMPLEFORMAT_IEEEFP, text, geo, "stream_tiff_f32"}, sink);
}

}  // namespace landform
