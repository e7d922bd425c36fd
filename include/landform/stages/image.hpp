#pragma once
/// @file
/// `image`: imports an existing heightmap (PNG 8/16-bit, raw16, r32) as a layer.

#include <string>

#include "landform/core/heightmap_file.hpp"
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
};

/// How the pipeline decodes `p.path`: the encoding (automatic: by extension)
/// and the raw sizes.
heightmap_request image_request(const image_params& p);

/// Fills `h` with the heightmap `img` (the decoded `path`), stretched over the
/// whole world.
///
/// Method: the pipeline decodes the file when the preset is built (io/decode:
/// PNG through stb_image, Sean Barrett's public-domain decoder; raw16 and r32
/// headerless little-endian as landform writes them); the stage resamples the
/// samples to the world: cell centre (x, y) of the world
/// maps to image position (x / W x width - 0.5, y / H x height - 0.5) and the
/// four nearest pixels are blended bilinearly (edges clamped), or the nearest
/// is taken. An image of the world's size is therefore copied exactly, and
/// any region equals the same window of the world.
/// Parameters: `format` auto picks by extension; raw files need raw_width
/// (or are square); `sampling` nearest keeps pixel steps (for masks).
/// Values: PNG and raw16 in [0, 1], r32 as stored.
/// @pre `img` is not empty (the pipeline reports a missing or undecodable
/// file as a preset error naming `path` before any stage runs).
/// @post every cell is replaced by the resampled image; a world-sized image is
/// copied exactly.
/// Pointwise; rows run in parallel and the result does not depend on the
/// thread count.
void apply_image(heightfield& h, const image_params& p, const heightmap_samples& img, const stage_context& ctx);

stage_info image_stage_info();

}  // namespace landform
