#include "tile_bands.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

#include "landform/core/error.hpp"

namespace landform::cli {

namespace {

float from_le(const unsigned char* b) {
  const std::uint32_t bits =
      std::uint32_t{b[0]} | (std::uint32_t{b[1]} << 8) | (std::uint32_t{b[2]} << 16) | (std::uint32_t{b[3]} << 24);
  float v = 0.0f;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

void append(std::vector<float>& out, const std::vector<unsigned char>& row, std::size_t first, std::size_t count) {
  for (std::size_t i = first; i < first + count; ++i) out.push_back(from_le(row.data() + 4 * i));
}

}  // namespace

tile_bands::tile_bands(const std::filesystem::path& file, const landform::region& built, int band)
    : m_built(built), m_band(std::max(0, band)) {
  const auto w = static_cast<std::size_t>(built.width), h = static_cast<std::size_t>(built.height);
  std::error_code ec;
  const auto size = std::filesystem::file_size(file, ec);
  std::ifstream in(file, std::ios::binary);
  if (ec || !in || size != w * h * 4) {
    throw landform::io_error(file.string() + " is missing or not " + std::to_string(w) + "x" + std::to_string(h) +
                             " float32 cells");
  }
  // Bands that meet cover the tile: keep every row in m_top.
  if (2 * static_cast<std::size_t>(m_band) >= std::min(w, h)) m_band = built.height;
  const auto b = static_cast<std::size_t>(m_band);
  std::vector<unsigned char> row(w * 4);
  for (std::size_t j = 0; j < h; ++j) {
    in.read(reinterpret_cast<char*>(row.data()), static_cast<std::streamsize>(row.size()));
    if (!in) throw landform::io_error(file.string() + ": read failed");
    if (j < b) {
      append(m_top, row, 0, w);
    } else if (j >= h - b) {
      append(m_bottom, row, 0, w);
    } else {
      append(m_left, row, 0, b);
      append(m_right, row, w - b, b);
    }
  }
}

float tile_bands::at(std::int64_t x, std::int64_t y) const {
  const std::int64_t i = x - m_built.origin_x, j = y - m_built.origin_y;
  const std::int64_t w = m_built.width, h = m_built.height, b = m_band;
  if (i < 0 || j < 0 || i >= w || j >= h) throw std::logic_error("tile_bands: cell outside the tile");
  if (j < b) return m_top[static_cast<std::size_t>(j * w + i)];
  if (j >= h - b) return m_bottom[static_cast<std::size_t>((j - (h - b)) * w + i)];
  if (i < b) return m_left[static_cast<std::size_t>((j - b) * b + i)];
  if (i >= w - b) return m_right[static_cast<std::size_t>((j - b) * b + (i - (w - b)))];
  throw std::logic_error("tile_bands: cell outside the edge bands");
}

}  // namespace landform::cli
