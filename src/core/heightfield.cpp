#include "landform/core/heightfield.hpp"

#include <stdexcept>
#include <string>

namespace landform {

heightfield::heightfield(const region& r, float fill) : m_region(r) {
  if (r.width <= 0 || r.height <= 0) {
    throw std::invalid_argument("heightfield: size must be positive, got " + std::to_string(r.width) + "x" +
                                std::to_string(r.height));
  }
  if (!(r.cell_size > 0.0)) {
    throw std::invalid_argument("heightfield: cell_size must be > 0");
  }
  m_data.assign(r.cell_count(), fill);
}

heightfield heightfield::crop(int x0, int y0, int w, int h) const {
  if (x0 < 0 || y0 < 0 || w <= 0 || h <= 0 || x0 > width() || y0 > height() || w > width() - x0 || h > height() - y0) {
    throw std::out_of_range("heightfield::crop: window outside the field");
  }
  region r = m_region;
  r.width = w;
  r.height = h;
  r.origin_x += x0;
  r.origin_y += y0;
  heightfield out(r);
  for (int y = 0; y < h; ++y) {
    const float* src = row(y0 + y) + x0;
    std::copy(src, src + w, out.row(y));
  }
  return out;
}

}  // namespace landform
