#pragma once
/// @file
/// The heightfield: the one array every stage reads and writes.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace landform {

/// A region of the world, in cells.
///
/// `width` x `height` cells starting at cell (`origin_x`, `origin_y`) of the
/// world. The world coordinate of cell (i, j) of the region is
/// `((origin_x + i) * cell_size, (origin_y + j) * cell_size)` world units.
struct region {
  int width = 0;              ///< cells, > 0
  int height = 0;             ///< cells, > 0
  std::int64_t origin_x = 0;  ///< cells, may be negative
  std::int64_t origin_y = 0;  ///< cells, may be negative
  double cell_size = 1.0;     ///< world units (metres) per cell, > 0

  [[nodiscard]] double world_x(int i) const { return static_cast<double>(origin_x + i) * cell_size; }
  [[nodiscard]] double world_y(int j) const { return static_cast<double>(origin_y + j) * cell_size; }
  [[nodiscard]] std::size_t cell_count() const {
    return static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  }
  friend bool operator==(const region&, const region&) = default;
};

/// The extent on which global shapes are laid out (island masks, fault
/// circles, "cycles per map" frequencies): cells [origin_x, origin_x + width)
/// x [origin_y, origin_y + height). A preset's default world is its region.
struct world_extent {
  std::int64_t origin_x = 0;  ///< cells
  std::int64_t origin_y = 0;  ///< cells
  int width = 0;              ///< cells, > 0
  int height = 0;             ///< cells, > 0
  friend bool operator==(const world_extent&, const world_extent&) = default;
};

/// Heights as float32, width x height, row-major, row 0 = top = y 0.
///
/// Element (x, y) is `data()[y * width + x]`. Heights are unitless; derived
/// maps convert them with the preset's height scale.
class heightfield {
 public:
  heightfield() = default;
  /// All cells set to `fill`. Throws std::invalid_argument for a non-positive
  /// size or cell size.
  explicit heightfield(const region& r, float fill = 0.0f);

  [[nodiscard]] int width() const { return m_region.width; }
  [[nodiscard]] int height() const { return m_region.height; }
  [[nodiscard]] std::size_t size() const { return m_data.size(); }
  [[nodiscard]] const landform::region& placement() const { return m_region; }

  [[nodiscard]] float& at(int x, int y) { return m_data[index(x, y)]; }
  [[nodiscard]] float at(int x, int y) const { return m_data[index(x, y)]; }
  [[nodiscard]] float* row(int y) { return m_data.data() + index(0, y); }
  [[nodiscard]] const float* row(int y) const { return m_data.data() + index(0, y); }
  [[nodiscard]] float* data() { return m_data.data(); }
  [[nodiscard]] const float* data() const { return m_data.data(); }
  [[nodiscard]] std::vector<float>& values() { return m_data; }
  [[nodiscard]] const std::vector<float>& values() const { return m_data; }

  /// The sub-rectangle [x0, x0 + w) x [y0, y0 + h) as its own heightfield,
  /// placed at the matching world origin. Throws std::out_of_range when the
  /// window does not fit.
  [[nodiscard]] heightfield crop(int x0, int y0, int w, int h) const;

 private:
  [[nodiscard]] std::size_t index(int x, int y) const {
    return static_cast<std::size_t>(y) * static_cast<std::size_t>(m_region.width) + static_cast<std::size_t>(x);
  }
  landform::region m_region;
  std::vector<float> m_data;
};

}  // namespace landform
