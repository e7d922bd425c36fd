#include "contact_sheet.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

namespace landform::cli {

namespace {

constexpr int k_glyph_scale = 2;  // screen pixels per font pixel
constexpr int k_label_pad = 2;    // pixels of black around the label

// 3x5 glyphs, one row per 3 bits (bit 2 = left column), for 0-9 and '-'.
constexpr std::array<std::array<std::uint8_t, 5>, 11> k_glyphs = {{
    {7, 5, 5, 5, 7},  // 0
    {2, 6, 2, 2, 7},  // 1
    {7, 1, 7, 4, 7},  // 2
    {7, 1, 7, 1, 7},  // 3
    {5, 5, 7, 1, 1},  // 4
    {7, 4, 7, 1, 7},  // 5
    {7, 4, 7, 5, 7},  // 6
    {7, 1, 1, 1, 1},  // 7
    {7, 5, 7, 5, 7},  // 8
    {7, 5, 7, 1, 7},  // 9
    {0, 0, 7, 0, 0},  // -
}};

const std::array<std::uint8_t, 5>& glyph(char c) {
  return c == '-' ? k_glyphs[10] : k_glyphs[static_cast<std::size_t>(c - '0')];
}

// Sets pixel (x, y) of the sheet when it lies inside the cell at (cx, cy).
void put(contact_sheet& s, int x, int y, int cx, int cy, std::uint8_t v) {
  if (x < cx || y < cy || x >= cx + s.cell_width || y >= cy + s.cell_height) return;
  const std::size_t at =
      3 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(s.width) + static_cast<std::size_t>(x));
  s.rgb[at] = s.rgb[at + 1] = s.rgb[at + 2] = v;
}

// The seed in the top-left corner of the cell at (cx, cy), clipped to it.
void draw_label(contact_sheet& s, std::int64_t seed, int cx, int cy) {
  const std::string text = std::to_string(seed);
  const int advance = 4 * k_glyph_scale;
  const int box_w = static_cast<int>(text.size()) * advance - k_glyph_scale + 2 * k_label_pad;
  const int box_h = 5 * k_glyph_scale + 2 * k_label_pad;
  for (int y = 0; y < box_h; ++y) {
    for (int x = 0; x < box_w; ++x) put(s, cx + x, cy + y, cx, cy, 0);
  }
  for (std::size_t k = 0; k < text.size(); ++k) {
    const auto& rows = glyph(text[k]);
    const int gx = cx + k_label_pad + static_cast<int>(k) * advance;
    for (int y = 0; y < 5 * k_glyph_scale; ++y) {
      for (int x = 0; x < 3 * k_glyph_scale; ++x) {
        if ((rows[static_cast<std::size_t>(y / k_glyph_scale)] >> (2 - x / k_glyph_scale)) & 1) {
          put(s, gx + x, cy + k_label_pad + y, cx, cy, 255);
        }
      }
    }
  }
}

// Copies `p` shrunk by `factor` (block means, rounded) into the cell at (cx, cy).
void draw_picture(contact_sheet& s, const sheet_picture& p, int factor, int cx, int cy) {
  for (int y = 0; y < s.cell_height; ++y) {
    for (int x = 0; x < s.cell_width; ++x) {
      std::array<double, 3> sum{};
      int n = 0;
      for (int j = y * factor; j < std::min(p.height, (y + 1) * factor); ++j) {
        for (int i = x * factor; i < std::min(p.width, (x + 1) * factor); ++i) {
          const std::size_t at =
              3 * (static_cast<std::size_t>(j) * static_cast<std::size_t>(p.width) + static_cast<std::size_t>(i));
          for (std::size_t c = 0; c < 3; ++c) sum[c] += p.rgb[at + c];
          ++n;
        }
      }
      const std::size_t out =
          3 * (static_cast<std::size_t>(cy + y) * static_cast<std::size_t>(s.width) + static_cast<std::size_t>(cx + x));
      for (std::size_t c = 0; c < 3; ++c) s.rgb[out + c] = static_cast<std::uint8_t>(std::lround(sum[c] / n));
    }
  }
}

}  // namespace

contact_sheet make_contact_sheet(const std::vector<sheet_picture>& pictures) {
  if (pictures.empty()) throw std::invalid_argument("make_contact_sheet: no pictures");
  const sheet_picture& first = pictures.front();
  const int longest = std::max(first.width, first.height);
  const int factor = (longest + k_sheet_cell - 1) / k_sheet_cell;
  contact_sheet s;
  s.columns = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(pictures.size()))));
  s.rows = static_cast<int>((pictures.size() + static_cast<std::size_t>(s.columns) - 1) /
                            static_cast<std::size_t>(s.columns));
  s.cell_width = (first.width + factor - 1) / factor;
  s.cell_height = (first.height + factor - 1) / factor;
  s.width = s.columns * s.cell_width;
  s.height = s.rows * s.cell_height;
  s.rgb.assign(3 * static_cast<std::size_t>(s.width) * static_cast<std::size_t>(s.height), 0);
  for (std::size_t k = 0; k < pictures.size(); ++k) {
    const sheet_picture& p = pictures[k];
    if (p.width != first.width || p.height != first.height) {
      throw std::invalid_argument("make_contact_sheet: pictures of different sizes");
    }
    const int cx = static_cast<int>(k % static_cast<std::size_t>(s.columns)) * s.cell_width;
    const int cy = static_cast<int>(k / static_cast<std::size_t>(s.columns)) * s.cell_height;
    draw_picture(s, p, factor, cx, cy);
    draw_label(s, p.seed, cx, cy);
  }
  return s;
}

}  // namespace landform::cli
