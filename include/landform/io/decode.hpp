#pragma once
/// @file
/// Reading and decoding heightmap files (PNG 8/16-bit through stb_image,
/// raw16 and r32 headerless little-endian as landform writes them). Used when
/// a pipeline is built, so that stages never touch files.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "landform/core/error.hpp"
#include "landform/core/heightmap_file.hpp"

namespace landform {

/// A file that cannot be decoded as asked. `subject` says which part of the
/// request is at fault, so a preset error can name the right parameter.
class heightmap_decode_error : public io_error {
 public:
  enum class subject { file, raw_width, raw_height };
  heightmap_decode_error(subject s, const std::string& message) : io_error(message), m_subject(s) {}
  [[nodiscard]] subject about() const { return m_subject; }

 private:
  subject m_subject;
};

/// The encoding of `path` under `encoding`: automatic is resolved from the
/// extension (case-insensitive: .raw and .r16 raw16, .r32 r32, else PNG).
heightmap_encoding resolve_heightmap_encoding(heightmap_encoding encoding, const std::string& path);

/// Decodes `bytes` (`request.encoding` must not be automatic): PNG 8-bit ->
/// v / 255, 16-bit -> v / 65535 (colour converted to grey by stb_image's
/// luminance), raw16 -> v / 65535, r32 as stored. `name` (e.g. the quoted
/// path) starts the messages. Throws heightmap_decode_error for a malformed
/// file, a size that does not match the request, or an r32 sample that is
/// NaN or infinite.
heightmap_samples decode_heightmap(const std::vector<std::uint8_t>& bytes, const heightmap_request& request,
                                   const std::string& name);

/// The whole file, or nullopt when it is not a readable regular file.
std::optional<std::vector<std::uint8_t>> read_file_bytes(const std::filesystem::path& path);

}  // namespace landform
