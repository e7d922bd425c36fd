#include "landform/io/encode.hpp"

#include <png.h>
#include <stb_image_write.h>

#include <bit>
#include <climits>
#include <cstring>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>

namespace landform {
namespace {

// ---------------------------------------------------------------- checks

void check_image_args(int width, int height, const void* samples, const char* what) {
  if (width <= 0 || height <= 0) {
    throw std::invalid_argument(std::string(what) + ": image size must be positive, got " + std::to_string(width) +
                                " x " + std::to_string(height));
  }
  if (samples == nullptr) throw std::invalid_argument(std::string(what) + ": null pixel data");
}

// ---------------------------------------------------------------- stb (8-bit)

struct stb_sink {
  std::vector<std::uint8_t>* out = nullptr;
  bool out_of_memory = false;
};

// Called from C code: must not let an exception escape.
void stb_write_to_vector(void* context, void* data, int size) {
  auto* sink = static_cast<stb_sink*>(context);
  if (sink->out_of_memory || size <= 0) return;
  try {
    const auto* bytes = static_cast<const std::uint8_t*>(data);
    sink->out->insert(sink->out->end(), bytes, bytes + size);
  } catch (...) {
    sink->out_of_memory = true;
  }
}

std::vector<std::uint8_t> encode_png8_stb(int width, int height, int channels, const std::uint8_t* pixels,
                                          const char* what) {
  check_image_args(width, height, pixels, what);
  // stb_image_write sizes its filtered buffer as (w * n + 1) * h in int.
  const auto row_bytes = static_cast<unsigned long long>(width) * static_cast<unsigned long long>(channels);
  if ((row_bytes + 1) * static_cast<unsigned long long>(height) > static_cast<unsigned long long>(INT_MAX)) {
    throw std::invalid_argument(std::string(what) + ": image of " + std::to_string(width) + " x " +
                                std::to_string(height) + " is too large for the 8-bit PNG encoder");
  }
  std::vector<std::uint8_t> out;
  stb_sink sink{&out, false};
  const int ok =
      stbi_write_png_to_func(stb_write_to_vector, &sink, width, height, channels, pixels, static_cast<int>(row_bytes));
  if (sink.out_of_memory) throw std::bad_alloc();
  if (ok == 0 || out.empty()) throw std::runtime_error(std::string(what) + ": PNG encoding failed");
  return out;
}

// ---------------------------------------------------------------- libpng (16-bit)

// State shared with the libpng callbacks. Trivially destructible on purpose:
// libpng reports errors by longjmp, which must not skip a destructor.
struct png_context {
  std::vector<std::uint8_t>* out = nullptr;
  bool out_of_memory = false;
  char message[256] = {};
};

[[noreturn]] void png_on_error(png_structp png, png_const_charp message) {
  auto* context = static_cast<png_context*>(png_get_error_ptr(png));
  if (context != nullptr && context->message[0] == '\0') {
    std::strncpy(context->message, message != nullptr ? message : "unknown error", sizeof context->message - 1);
  }
  png_longjmp(png, 1);
}

void png_on_warning(png_structp, png_const_charp) {
  // Library code never prints; libpng warnings are not actionable here.
}

void png_write_to_vector(png_structp png, png_bytep data, png_size_t length) {
  auto* context = static_cast<png_context*>(png_get_io_ptr(png));
  bool failed = false;
  try {
    context->out->insert(context->out->end(), data, data + length);
  } catch (...) {
    failed = true;
  }
  // Outside the handler: png_error longjmps, and nothing non-trivial is alive
  // in this frame any more.
  if (failed) {
    context->out_of_memory = true;
    png_error(png, "out of memory");
  }
}

// Must be set explicitly: with a null flush function libpng installs its
// stdio default, which would fflush() our context pointer as a FILE*.
void png_flush_nothing(png_structp) {}

// All libpng calls live here. Only trivially destructible locals, and none is
// modified after setjmp and read after the longjmp, so the jump is well defined.
// `row` is caller-owned scratch of width * channels * 2 bytes.
bool write_png16(png_context& context, int width, int height, int channels, const std::uint16_t* samples, png_byte* row,
                 png_text* texts, int text_count) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &context, png_on_error, png_on_warning);
  if (png == nullptr) {
    std::strncpy(context.message, "cannot create the libpng write structure", sizeof context.message - 1);
    return false;
  }
  png_infop info = png_create_info_struct(png);
  if (info == nullptr) {
    png_destroy_write_struct(&png, nullptr);
    std::strncpy(context.message, "cannot create the libpng info structure", sizeof context.message - 1);
    return false;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return false;
  }

  png_set_write_fn(png, &context, png_write_to_vector, png_flush_nothing);
  const int colour = channels == 1   ? PNG_COLOR_TYPE_GRAY
                     : channels == 4 ? PNG_COLOR_TYPE_RGB_ALPHA
                                     : PNG_COLOR_TYPE_RGB;
  png_set_IHDR(png, info, static_cast<png_uint_32>(width), static_cast<png_uint_32>(height), 16, colour,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (text_count > 0) png_set_text(png, info, texts, text_count);
  png_write_info(png, info);

  // The bytes handed to libpng are already big-endian (no png_set_swap).
  const std::size_t row_samples = static_cast<std::size_t>(width) * static_cast<std::size_t>(channels);
  for (int y = 0; y < height; ++y) {
    const std::uint16_t* source = samples + static_cast<std::size_t>(y) * row_samples;
    for (std::size_t i = 0; i < row_samples; ++i) {
      row[2 * i] = static_cast<png_byte>(source[i] >> 8);
      row[2 * i + 1] = static_cast<png_byte>(source[i] & 0xFFu);
    }
    png_write_row(png, row);
  }
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return true;
}

bool is_keyword_char(unsigned char c) {
  return (c >= 32 && c <= 126) || c >= 161;
}

void check_text(const std::vector<std::pair<std::string, std::string>>& text) {
  for (const auto& [key, value] : text) {
    const std::string where = "PNG tEXt keyword '" + key + "'";
    if (key.empty() || key.size() > 79) throw std::invalid_argument(where + ": must be 1 to 79 characters");
    for (std::size_t i = 0; i < key.size(); ++i) {
      const auto c = static_cast<unsigned char>(key[i]);
      if (!is_keyword_char(c)) throw std::invalid_argument(where + ": must be printable Latin-1");
      if (c == ' ' && (i == 0 || i + 1 == key.size() || key[i + 1] == ' ')) {
        throw std::invalid_argument(where + ": no leading, trailing or consecutive spaces");
      }
    }
    if (value.find('\0') != std::string::npos) throw std::invalid_argument(where + ": value contains NUL");
  }
}

std::vector<std::uint8_t> encode_png16_libpng(int width, int height, int channels, const std::uint16_t* samples,
                                              const std::vector<std::pair<std::string, std::string>>& text,
                                              const char* what) {
  check_image_args(width, height, samples, what);
  check_text(text);
  if (text.size() > static_cast<std::size_t>(INT_MAX)) throw std::invalid_argument("too many PNG tEXt entries");

  // libpng takes non-const char*, but only reads (png_set_text copies).
  std::vector<png_text> texts(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    texts[i].compression = PNG_TEXT_COMPRESSION_NONE;
    texts[i].key = const_cast<char*>(text[i].first.c_str());
    texts[i].text = const_cast<char*>(text[i].second.c_str());
    texts[i].text_length = text[i].second.size();
  }

  std::vector<png_byte> row(static_cast<std::size_t>(width) * static_cast<std::size_t>(channels) * 2);
  std::vector<std::uint8_t> out;
  png_context context;
  context.out = &out;
  if (!write_png16(context, width, height, channels, samples, row.data(), texts.data(),
                   static_cast<int>(texts.size()))) {
    if (context.out_of_memory) throw std::bad_alloc();
    throw std::runtime_error(std::string(what) + ": PNG encoding failed: " + context.message);
  }
  return out;
}

}  // namespace

std::vector<std::uint8_t> encode_png_gray8(int width, int height, const std::uint8_t* pixels) {
  return encode_png8_stb(width, height, 1, pixels, "encode_png_gray8");
}

std::vector<std::uint8_t> encode_png_rgb8(int width, int height, const std::uint8_t* rgb) {
  return encode_png8_stb(width, height, 3, rgb, "encode_png_rgb8");
}

std::vector<std::uint8_t> encode_png_rgba8(int width, int height, const std::uint8_t* rgba) {
  return encode_png8_stb(width, height, 4, rgba, "encode_png_rgba8");
}

std::vector<std::uint8_t> encode_png_gray16(int width, int height, const std::uint16_t* pixels,
                                            const std::vector<std::pair<std::string, std::string>>& text) {
  return encode_png16_libpng(width, height, 1, pixels, text, "encode_png_gray16");
}

std::vector<std::uint8_t> encode_png_rgb16(int width, int height, const std::uint16_t* rgb) {
  return encode_png16_libpng(width, height, 3, rgb, {}, "encode_png_rgb16");
}

std::vector<std::uint8_t> encode_png_rgba16(int width, int height, const std::uint16_t* rgba) {
  return encode_png16_libpng(width, height, 4, rgba, {}, "encode_png_rgba16");
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
