#pragma once
// The cells of a tile's r32 heights that the seam check reads: bands along
// its four edges. `tiles finish` keeps only these, so its memory follows the
// tiles' perimeters, not the world's area (a 65537^2 world is 17 GB of
// heights, its tiles' edge bands a few MB).

#include <cstdint>
#include <filesystem>
#include <vector>

#include "landform/core/heightfield.hpp"

namespace landform::cli {

class tile_bands {
 public:
  /// Reads the little-endian float32 heights of `built` (width x height,
  /// row-major) from `file`, keeping the `band` cells along each edge (all
  /// cells when the bands cover the tile). Throws landform::io_error when
  /// the file is missing or not width x height x 4 bytes.
  tile_bands(const std::filesystem::path& file, const landform::region& built, int band);

  /// The height at world cell (x, y), which must lie in a band of the
  /// built region (std::logic_error otherwise: the seam check asked for a
  /// cell it said it would not).
  [[nodiscard]] float at(std::int64_t x, std::int64_t y) const;

  /// Cells held.
  [[nodiscard]] std::size_t cells() const { return m_top.size() + m_bottom.size() + m_left.size() + m_right.size(); }

 private:
  landform::region m_built;
  int m_band = 0;
  std::vector<float> m_top, m_bottom;  // m_band rows each (or every row, in m_top)
  std::vector<float> m_left, m_right;  // m_band columns of the rows between
};

}  // namespace landform::cli
