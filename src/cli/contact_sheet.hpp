#pragma once
// The contact sheet of `landform build --seeds`: every variant's preview,
// shrunk to at most k_sheet_cell pixels a side, in a grid left to right, top
// to bottom in the order of the seeds, each labelled with its seed in small
// digits drawn here (a 3x5 pixel font at twice the size, white on black, in
// the top-left corner).

#include <cstdint>
#include <vector>

namespace landform::cli {

/// Longest side of one variant's picture on the sheet, in pixels.
inline constexpr int k_sheet_cell = 256;

/// One variant's preview: RGB8, row-major, top row first.
struct sheet_picture {
  std::int64_t seed = 0;
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;
};

/// The assembled sheet, RGB8.
struct contact_sheet {
  int columns = 0, rows = 0;
  int cell_width = 0, cell_height = 0;  ///< every picture is shrunk to this size
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;
};

/// Lays out `pictures` (all of one size, at least one) on a grid of
/// ceil(sqrt(n)) columns; each is shrunk by the smallest integer factor that
/// brings its longest side to k_sheet_cell or less (the mean of each factor x
/// factor block) and labelled with its seed.
contact_sheet make_contact_sheet(const std::vector<sheet_picture>& pictures);

}  // namespace landform::cli
