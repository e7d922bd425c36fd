#pragma once
/// @file
/// Output kinds: which maps exist, which encodings each allows, and turning a
/// heightfield into file bytes.

#include <cstdint>
#include <string>
#include <vector>

#include "landform/core/heightfield.hpp"
#include "landform/pipeline/pipeline.hpp"

namespace landform {

/// The formats a map may be written in, e.g. {"png8", "png16", "raw16", "r32"}
/// for "height"; empty for an unknown map.
std::vector<std::string> output_formats(const std::string& map);
/// Every map kind that can be requested.
std::vector<std::string> output_maps();
/// "height.png" for (height, png16), "height.raw" for raw16, ...
std::string default_output_file(const std::string& map, const std::string& format);

/// Checks the "outputs" array; appends problems with paths `outputs[i].key`.
std::vector<output_spec> check_outputs(const json& outputs, std::vector<preset_issue>& issues);

/// One encoded file, ready to be written.
struct encoded_output {
  output_spec spec;
  std::vector<std::uint8_t> bytes;
  std::size_t clipped = 0;  ///< cells outside [0, 1] that were clamped when quantising
  json description;         ///< the manifest entry: format, encoding, byte order, size, hash
};

/// Encodes every output of `p` from the final heightfield `h`.
/// Heights are quantised from [0, 1]: `round(v * 65535)` (png16, raw16) or
/// `round(v * 255)` (png8); values outside are clamped and counted. r32 stores
/// the float32 heights unchanged.
std::vector<encoded_output> encode_outputs(const pipeline& p, const heightfield& h);

/// The manifest written beside the outputs: tool version, canonical preset and
/// its SHA-256, seed, size, origin, cell size, world, height range before
/// quantisation, clipped-cell count, and per file its map, format, encoding,
/// byte order, row order, dimensions and SHA-256.
json make_manifest(const pipeline& p, const heightfield& h, const std::vector<encoded_output>& files);

/// SHA-256 of the canonical preset text (compact JSON, sorted keys).
std::string preset_hash(const json& canonical);

}  // namespace landform
