#pragma once
/// @file
/// Distance of every cell to the nearest cell of a set, in metres.

#include <cstdint>
#include <vector>

namespace landform {

/// Distance (m) from every cell to the nearest cell whose `source` flag is
/// non-zero: a chamfer transform with steps of cell_size along rows and
/// columns and sqrt(2) cell_size along diagonals, in one forward and one
/// backward pass. Exact along the eight directions, at most about 8 % long
/// in between.
///
/// @param source width x height flags, row-major (non-zero = distance 0)
/// @param cell_size metres per cell, > 0
/// @return width x height distances in metres, row-major; +infinity
///         everywhere when no cell is a source
/// Serial, O(width x height).
std::vector<double> chamfer_distance(const std::vector<std::uint8_t>& source, int width, int height, double cell_size);

}  // namespace landform
