#pragma once
/// @file
/// Splat (texture weight) maps from rules over height, slope, flow,
/// curvature and water (depth, rivers, lakes).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "landform/core/heightfield.hpp"

namespace landform {

/// One texture layer's rule. A cell's raw weight is `weight` times one factor
/// per given range (1 inside, easing to 0 over the blend width outside), times
/// (1 + noise · n) for a breakup noise n in [-1, 1], at least 0.
struct splat_rule {
  std::string name;
  std::optional<std::array<double, 2>> height;     ///< heights (0..1 after normalize)
  std::optional<std::array<double, 2>> slope;      ///< degrees
  std::optional<std::array<double, 2>> flow;       ///< flow accumulation, cells (compared in log10)
  std::optional<std::array<double, 2>> curvature;  ///< profile curvature, 1/m
  double noise = 0.0;                              ///< breakup amplitude, 0..1
  double weight = 1.0;                             ///< base strength, > 0
  /// Heights relative to sea level (height units); turned into `height` by
  /// the splat output with the preset's sea_level (0.3 when not given).
  std::optional<std::array<double, 2>> above_sea;
  /// Water depth (m) of the sea and lakes, 0 on land and rivers.
  std::optional<std::array<double, 2>> water_depth;
  /// River coverage 0..1 (the `river` output's anti-aliased mask).
  std::optional<std::array<double, 2>> river;
  /// Lake mask values (1 under a wet lake, 0 elsewhere): [1, 1] = on
  /// lakes, [0, 0] = off them.
  std::optional<std::array<double, 2>> lake;
  /// Ocean mask values (1 on the ocean, 0 elsewhere, inland basins below sea
  /// level included): [1, 1] = on the sea, [0, 0] = off it.
  std::optional<std::array<double, 2>> ocean;
};

/// Transition widths: how far outside a range a rule fades to zero.
struct splat_blend {
  double height = 0.05;      ///< height units
  double slope = 5.0;        ///< degrees
  double flow = 0.5;         ///< decades of accumulated cells
  double curvature = 0.002;  ///< 1/m
  double water_depth = 0.5;  ///< m of water depth
  /// m of distance: river and lake rules fade with the distance (m) to the
  /// nearest cell meeting them, not with the value.
  double river = 20.0;
  double lake = 20.0;   ///< m of distance, as river
  double ocean = 20.0;  ///< m of distance, as river
};

/// Per-cell inputs, each `count` values (null when no rule needs it).
struct splat_inputs {
  std::size_t count = 0;
  const float* height = nullptr;
  const float* slope = nullptr;         ///< degrees
  const float* flow = nullptr;          ///< accumulated cells
  const float* curvature = nullptr;     ///< 1/m
  const float* water_depth = nullptr;   ///< m
  const float* river = nullptr;         ///< river coverage 0..1
  const std::uint8_t* lake = nullptr;   ///< 1 = under a wet lake
  const std::uint8_t* ocean = nullptr;  ///< 1 = ocean
  /// The grid of the cells (grid_width x grid_height = count, row-major) and its cell
  /// size in metres: river and lake blends are distances. Needed only when a
  /// river or lake rule has a blend width above 0.
  int grid_width = 0;
  int grid_height = 0;
  double cell_size = 1.0;
  /// Breakup noise per rule, each `count` values in [-1, 1]; may be empty.
  std::vector<const float*> noise;
};

/// Normalised weights: `count` x rules.size() values, cell-major (all layers
/// of cell 0, then cell 1, ...), summing to 1 in every cell. A cell that no
/// rule covers goes entirely to the first layer (the base texture).
/// A rule's factor for `river`, `lake` or `ocean` is 1 on the cells that meet
/// it and eases (smoothstep) to 0 at blend.river / blend.lake / blend.ocean
/// metres from the nearest such cell (chamfer distance over the grid); with
/// no such cell it is 0. Every other factor fades with the value, as range
/// factors do.
/// @throws std::invalid_argument when a rule needs an input that is null, or
///         a river, lake or ocean blend needs a grid (grid_width x
///         grid_height != count)
std::vector<float> splat_weights(const splat_inputs& in, const std::vector<splat_rule>& rules,
                                 const splat_blend& blend);

/// Quantises normalised weights (cell-major, `layers` per cell) to bytes that
/// sum to exactly 255 in every cell (largest-remainder rounding).
std::vector<std::uint8_t> quantize_splat(const std::vector<float>& weights, std::size_t layers);

/// As quantize_splat, to 16-bit samples summing to exactly 65535 (rgba16).
std::vector<std::uint16_t> quantize_splat16(const std::vector<float>& weights, std::size_t layers);

/// Breakup noise for rule `rule` at every cell of `h`, in [-1, 1]: legacy
/// OpenSimplex at world position / `scale`, seeded from hash(seed, rule), so
/// a region's noise equals the same window of the world's.
std::vector<float> splat_breakup_noise(const heightfield& h, double scale, std::int64_t seed, std::size_t rule);

}  // namespace landform
