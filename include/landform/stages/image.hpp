#pragma once
/// @file
/// `image`: imports an existing heightmap (PNG 8/16-bit, raw16, r32) as a layer.

#include <cstdint>
#include <string>
#include <vector>

#include "landform/stages/stage.hpp"

namespace landform {

/// Parameters of the `image` generator.
struct image_params {
  enum class format_kind { automatic, png, raw16, r32 };
  enum class sampling_kind { bilinear, nearest };
  std::string path;  ///< the file; relative paths are resolved against the preset's folder by the pipeline
  format_kind format = format_kind::automatic;  ///< auto: from the extension (.png, .raw/.r16, .r32)
  int raw_width = 0;                            ///< raw16/r32: samples per row; 0 = a square image from the file size
  int raw_height = 0;                           ///< raw16/r32: rows; 0 = file size / raw_width
  sampling_kind sampling = sampling_kind::bilinear;

  static const param_schema<image_params>& schema();
  void check(std::vector<std::pair<std::string, std::string>>& problems) const;
};

/// A decoded greyscale heightmap: values row-major, top row first.
struct image_data {
  int width = 0, height = 0;
  std::vector<float> values;
};

/// Decodes `bytes` as `format` (not automatic): PNG 8-bit -> v / 255, 16-bit
/// -> v / 65535 (colour images are converted to grey by stb_image's
/// luminance), raw16 little-endian -> v / 65535, r32 little-endian float32
/// as is. `name` is used in messages. Throws io_error for a malformed file or
/// a size that does not match.
image_data decode_heightmap(const std::vector<std::uint8_t>& bytes, image_params::format_kind format, int raw_width,
                            int raw_height, const std::string& name);

/// The format `p` reads `p.path` as (resolves automatic from the extension).
image_params::format_kind image_format_of(const image_params& p);

/// Fills `h` with the heightmap in `path`, stretched over the whole world.
///
/// Method: the file is decoded (PNG through stb_image, Sean Barrett's
/// public-domain decoder; raw16 and r32 headerless little-endian as landform
/// writes them) and resampled to the world: cell centre (x, y) of the world
/// maps to image position (x / W x width - 0.5, y / H x height - 0.5) and the
/// four nearest pixels are blended bilinearly (edges clamped), or the nearest
/// is taken. An image of the world's size is therefore copied exactly, and
/// any region equals the same window of the world.
/// Parameters: `format` auto picks by extension; raw files need raw_width
/// (or are square); `sampling` nearest keeps pixel steps (for masks).
/// Values: PNG and raw16 in [0, 1], r32 as stored.
/// @pre the file exists and decodes (checked when the preset is built, and
/// again when run: io_error naming the file).
/// @post every cell is replaced by the resampled image; a world-sized image is
/// copied exactly.
/// Pointwise; rows run in parallel and the result does not depend on the
/// thread count.
void apply_image(heightfield& h, const image_params& p, const stage_context& ctx);

stage_info image_stage_info();

}  // namespace landform
