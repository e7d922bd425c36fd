#pragma once
/// @file
/// The "mesh" output: the region as a glTF 2.0 binary triangle mesh (glb),
/// simplified to a vertical error bound in metres or a triangle cap.

#include "landform/outputs/output_kind.hpp"

namespace landform {

/// "mesh": one vertex per cell centre in world metres (glTF axes: x east, y
/// up, z south), Horn normals, texel-exact UVs, uint32 indices, simplified
/// (simplify_to_error: an RTIN with exact vertical error) so that no cell
/// centre is more than `max_error` metres above or below the mesh, unless
/// that needs more than `max_triangles` (then the cap wins and the manifest's
/// `measured_error_m` is the error reached), border kept whole, optional
/// `skirt`. Halo: 2
/// cells (the next tile's first column and row, and their normals), so tiles'
/// meshes meet at shared vertices.
output_kind mesh_output_kind();

}  // namespace landform
