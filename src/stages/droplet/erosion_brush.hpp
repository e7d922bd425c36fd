#pragma once
// The erosion disc of Beyer's droplet model, as precomputed stencils.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace landform::droplet {

// Sub-cell phases per axis of the disc's centre.
inline constexpr int k_phases = 4;

// The columns [begin, end) of one stencil row that have positive weight (the
// disc is convex, so they are contiguous; begin == end for a row without
// any). Cells outside it get nothing from any brush operation, so loops that
// only change cells in proportion to their weight can skip them.
struct brush_span {
  std::int32_t begin = 0;
  std::int32_t end = 0;
};

// The erosion disc (Beyer): weight max(0, radius - |cell - centre|),
// normalised to sum 1, where the centre is the droplet's position rounded to
// 1/k_phases of a cell (the middle of its sub-cell), so the footprint follows
// the droplet smoothly instead of jumping from cell to cell, with no shift in
// any direction. One stencil per sub-cell phase, all precomputed: 2 radius
// rows and columns from the droplet's cell + (1 - radius), each row padded
// with zero weights to a multiple of 4 cells so that the interior case runs
// as 4-wide vector operations (the padding subtracts 0, leaving those cells
// unchanged; extent() counts it).
struct erosion_brush {
  int origin = 0;                 // offset of the stencil's first row and column from the droplet's cell
  int side = 0;                   // rows, and meaningful columns, of a stencil
  int width = 0;                  // padded row length, a multiple of 4, >= side
  std::vector<float> weights;     // [phase_y][phase_x][row][width]
  std::vector<brush_span> spans;  // [phase_y][phase_x][row]: positive weights of each stencil row

  // radius in cells, >= 1.
  explicit erosion_brush(int radius);

  [[nodiscard]] const float* stencil(int px, int py) const {
    return weights.data() + static_cast<std::size_t>((py * k_phases + px) * side * width);
  }
  // The stencil of a droplet at offset (u, v) in [0, 1) within its cell.
  [[nodiscard]] const float* stencil_at(float u, float v) const {
    return stencil(std::min(k_phases - 1, static_cast<int>(u * k_phases)),
                   std::min(k_phases - 1, static_cast<int>(v * k_phases)));
  }
  // The row spans of the stencil of stencil_at(u, v): `side` entries.
  [[nodiscard]] const brush_span* spans_at(float u, float v) const {
    const int px = std::min(k_phases - 1, static_cast<int>(u * k_phases));
    const int py = std::min(k_phases - 1, static_cast<int>(v * k_phases));
    return spans.data() + static_cast<std::size_t>((py * k_phases + px) * side);
  }
  // Largest distance in cells from the droplet's cell to a cell the stencil writes.
  [[nodiscard]] int extent() const { return std::max(-origin, origin + width - 1); }

 private:
  void add_spans(const float* stencil_weights);
};

}  // namespace landform::droplet
