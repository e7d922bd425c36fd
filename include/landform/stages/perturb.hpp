#pragma once
/// @file
/// `perturb`: domain warp by a noise displacement field.

#include "landform/stages/stage.hpp"

namespace landform {

/// Parameters of the `perturb` filter.
struct perturb_params {
  enum class sampling_mode { nearest, bilinear };
  double frequency = 16.0;  ///< displacement noise cycles across the world's width; > 0
  double magnitude = 16.0;  ///< largest displacement, cells; >= 0
  sampling_mode sampling = sampling_mode::bilinear;

  static const param_schema<perturb_params>& schema();
  /// ceil(magnitude) + 1: the farthest displacement plus the bilinear
  /// footprint (the noise lies in [-1, 1]).
  [[nodiscard]] int halo() const;
};

/// Displaces the heightfield by a noise vector field (domain warp).
///
/// For the cell at world cell (gx, gy), with W the world width in cells,
/// `a = frequency * (gx - world.origin_x) / W`, `b = frequency * (gy -
/// world.origin_y) / W` and OpenSimplex 3D noise n seeded with the stage seed,
/// the cell takes the height found at `(gx + n(a, b, 0) * magnitude, gy + n(a,
/// b, 1) * magnitude)`, clamped to the map.
/// - `nearest` is the tutorial's Perturb(f, d) (seed document 000) exactly: the
///   offsets are truncated toward zero, as Java's (int) cast does.
/// - `bilinear` keeps the fractional offset and interpolates the four
///   surrounding cells: no stair steps, continuous in the parameters.
/// Scope: local, halo() cells; reads outside the map are clamped to its edge
/// cells. Writes into a separate buffer; rows run in parallel with a
/// result independent of the thread count.
void apply_perturb(heightfield& h, const perturb_params& p, const stage_context& ctx);

stage_info perturb_stage_info();

}  // namespace landform
