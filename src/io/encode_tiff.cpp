// TIFF encoders (libtiff), in memory: uncompressed, little-endian, strips.

#include <tiffio.h>

#include <algorithm>
#include <bit>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <limits>
#include <new>
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
  auto* m = static_cast<tiff_memory*>(user);
  if (m->message.empty()) {
    char text[256];
    std::vsnprintf(text, sizeof text, format, args);
    m->message = std::string(module != nullptr ? module : "libtiff") + ": " + text;
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

std::vector<std::uint8_t> encode_tiff(int width, int height, int channels, const void* samples, int bits,
                                      int sample_format, const std::vector<std::pair<std::string, std::string>>& text,
                                      const georeference* geo, const char* what) {
  if (width <= 0 || height <= 0) {
    throw std::invalid_argument(std::string(what) + ": image size must be positive, got " + std::to_string(width) +
                                " x " + std::to_string(height));
  }
  if (samples == nullptr) throw std::invalid_argument(std::string(what) + ": null pixel data");
  if (channels != 1 && channels != 3 && channels != 4) {
    throw std::invalid_argument(std::string(what) + ": 1, 3 or 4 channels, got " + std::to_string(channels));
  }
  const auto row_bytes =
      static_cast<std::size_t>(width) * static_cast<std::size_t>(channels) * static_cast<std::size_t>(bits / 8);
  if (row_bytes * static_cast<std::size_t>(height) > std::size_t{0xFFFFFFFF} - (std::size_t{1} << 20)) {
    throw std::invalid_argument(std::string(what) + ": image too large for a classic TIFF (4 GiB)");
  }

  std::vector<std::uint8_t> out;
  tiff_memory memory{&out, 0, false, {}};
  TIFFOpenOptions* options = TIFFOpenOptionsAlloc();
  if (options == nullptr) throw std::bad_alloc();
  TIFFOpenOptionsSetErrorHandlerExtR(options, tiff_on_error, &memory);
  TIFFOpenOptionsSetWarningHandlerExtR(options, tiff_on_warning, &memory);
  // "l": little-endian whatever the host; "m": no memory mapping.
  TIFF* tif = TIFFClientOpenExt("landform", "wlm", &memory, tiff_read, tiff_write, tiff_seek, tiff_close, tiff_size,
                                tiff_map, tiff_unmap, options);
  TIFFOpenOptionsFree(options);
  if (tif == nullptr) throw std::runtime_error(std::string(what) + ": cannot open a TIFF writer: " + memory.message);

  bool ok = TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, static_cast<std::uint32_t>(width)) == 1;
  ok = ok && TIFFSetField(tif, TIFFTAG_IMAGELENGTH, static_cast<std::uint32_t>(height)) == 1;
  ok = ok && TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, static_cast<std::uint16_t>(channels)) == 1;
  ok = ok && TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, static_cast<std::uint16_t>(bits)) == 1;
  ok = ok && TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT, static_cast<std::uint16_t>(sample_format)) == 1;
  ok = ok && TIFFSetField(tif, TIFFTAG_PHOTOMETRIC,
                          static_cast<std::uint16_t>(channels == 1 ? PHOTOMETRIC_MINISBLACK : PHOTOMETRIC_RGB)) == 1;
  ok = ok && TIFFSetField(tif, TIFFTAG_PLANARCONFIG, static_cast<std::uint16_t>(PLANARCONFIG_CONTIG)) == 1;
  ok = ok && TIFFSetField(tif, TIFFTAG_COMPRESSION, static_cast<std::uint16_t>(COMPRESSION_NONE)) == 1;
  ok = ok && TIFFSetField(tif, TIFFTAG_ORIENTATION, static_cast<std::uint16_t>(ORIENTATION_TOPLEFT)) == 1;
  if (channels == 4) {
    const std::uint16_t extra[] = {EXTRASAMPLE_UNASSALPHA};
    ok = ok && TIFFSetField(tif, TIFFTAG_EXTRASAMPLES, static_cast<std::uint16_t>(1), extra) == 1;
  }
  const auto rows_per_strip =
      static_cast<std::uint32_t>(std::clamp<std::size_t>((std::size_t{1} << 16) / row_bytes, 1, height));
  ok = ok && TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, rows_per_strip) == 1;
  if (const std::string software = text_value(text, "Software"); ok && !software.empty())
    ok = TIFFSetField(tif, TIFFTAG_SOFTWARE, software.c_str()) == 1;
  if (const std::string comment = text_value(text, "Comment"); ok && !comment.empty())
    ok = TIFFSetField(tif, TIFFTAG_IMAGEDESCRIPTION, comment.c_str()) == 1;

  if (ok && geo != nullptr) ok = write_georeference(tif, *geo);

  // libtiff's write call takes a non-const buffer but does not modify it
  // when no compression or byte swapping is needed (little-endian host).
  static_assert(std::endian::native == std::endian::little, "TIFF writer assumes a little-endian host");
  const auto* bytes = static_cast<const std::uint8_t*>(samples);
  for (int y = 0; ok && y < height; ++y) {
    ok = TIFFWriteScanline(tif, const_cast<std::uint8_t*>(bytes + static_cast<std::size_t>(y) * row_bytes),
                           static_cast<std::uint32_t>(y), 0) == 1;
  }
  ok = ok && TIFFWriteDirectory(tif) == 1;
  TIFFClose(tif);
  if (memory.out_of_memory) throw std::bad_alloc();
  if (!ok) throw std::runtime_error(std::string(what) + ": TIFF encoding failed: " + memory.message);
  return out;
}

}  // namespace

std::vector<std::uint8_t> encode_tiff_u16(int width, int height, int channels, const std::uint16_t* samples,
                                          const std::vector<std::pair<std::string, std::string>>& text,
                                          const georeference* geo) {
  return encode_tiff(width, height, channels, samples, 16, SAMPLEFORMAT_UINT, text, geo, "encode_tiff_u16");
}

std::vector<std::uint8_t> encode_tiff_f32(int width, int height, int channels, const float* samples,
                                          const std::vector<std::pair<std::string, std::string>>& text,
                                          const georeference* geo) {
  static_assert(sizeof(float) == 4 && std::numeric_limits<float>::is_iec559, "float must be IEEE-754 binary32");
  return encode_tiff(width, height, channels, samples, 32, SAMPLEFORMAT_IEEEFP, text, geo, "encode_tiff_f32");
}

}  // namespace landform
