#pragma once
/// @file
/// Heightmap files a stage reads: how to decode one and the decoded samples.
/// The pipeline loads and decodes the file when the preset is built
/// (io/decode); the stage only sees the samples.

#include <vector>

namespace landform {

/// How a heightmap file is encoded.
enum class heightmap_encoding {
  automatic,  ///< by the file's extension: .raw or .r16 raw16, .r32 r32, else PNG
  png,        ///< PNG 8- or 16-bit, grey or colour (converted to grey)
  raw16,      ///< headerless little-endian uint16
  r32,        ///< headerless little-endian float32
};

/// What a stage asks of one file.
struct heightmap_request {
  heightmap_encoding encoding = heightmap_encoding::automatic;
  int raw_width = 0;   ///< raw16/r32: samples per row; 0 = a square image
  int raw_height = 0;  ///< raw16/r32: rows; 0 = from the file size
};

/// A decoded greyscale heightmap: values row-major, top row first. PNG and
/// raw16 in [0, 1] (v / 255 or v / 65535), r32 as stored.
struct heightmap_samples {
  int width = 0, height = 0;
  std::vector<float> values;
};

}  // namespace landform
