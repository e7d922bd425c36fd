#pragma once
/// @file
/// glTF 2.0 binary (GLB) of one triangle mesh, written with nlohmann/json for
/// the JSON chunk (Khronos glTF 2.0 specification, section 4.4 "GLB File
/// Format Specification").

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "landform/derive/terrain_mesh.hpp"

namespace landform {

/// A GLB of `mesh`: a 12-byte header ("glTF", version 2, total length), a
/// JSON chunk (padded with spaces to 4 bytes) and a BIN chunk (padded with
/// zeros) holding, in order, POSITION, NORMAL and TEXCOORD_0 (float32, tightly
/// packed) and the uint32 indices. One scene, one node, one mesh with one
/// TRIANGLES primitive and a plain grey material; every accessor has `min`
/// and `max` equal to the extremes of its data. `text` (key, value) pairs go
/// into `asset.extras` (provenance). Little-endian, as glTF requires.
/// Deterministic. Throws std::length_error when the buffer exceeds the
/// 4 GiB a GLB chunk can hold, std::invalid_argument for an empty mesh.
std::vector<std::uint8_t> encode_glb(const terrain_mesh& mesh,
                                     const std::vector<std::pair<std::string, std::string>>& text = {});

}  // namespace landform
