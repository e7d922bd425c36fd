#pragma once
/// @file
/// Masks: where a stage's effect applies, as a weight in [0, 1] per cell
/// from a layer, a height band and a slope band. The pipeline reads them from
/// a stage's "mask" key (pipeline/composition) and applies them here.

#include <optional>
#include <string>
#include <vector>

#include "landform/core/heightfield.hpp"
#include "landform/core/layer_set.hpp"

namespace landform {

/// Where a stage's effect applies, as a weight in [0, 1] per cell: the value
/// of a layer, a height band and a slope band, multiplied; optionally inverted.
struct mask_spec {
  std::string layer;                ///< empty: no layer factor
  std::optional<double> height_lo;  ///< height band, height units
  std::optional<double> height_hi;
  double falloff = 0.0;            ///< height units over which the band fades out, >= 0
  std::optional<double> slope_lo;  ///< slope band, degrees (Horn's gradient, physical units)
  std::optional<double> slope_hi;
  double slope_falloff = 0.0;  ///< degrees over which the slope band fades out, >= 0
  bool invert = false;
};

/// The mask weights in [0, 1] for `heights` (the current heightfield) and the
/// layers; a layer's values are clamped to [0, 1]. Slope bands use metres:
/// `height_scale` metres per height unit over the heightfield's cell size.
std::vector<float> mask_weights(const mask_spec& m, const heightfield& heights, const layer_set& layers,
                                double height_scale, int nthreads);

/// after[k] = before[k] + w[k]·(after[k] − before[k]).
void apply_mask(std::vector<float>& after, const std::vector<float>& before, const std::vector<float>& weights,
                int width, int nthreads);

/// The smooth step used for mask band edges: 1 inside [lo, hi], fading to 0
/// over `falloff` outside it (smoothstep), 0 beyond.
float band_weight(double h, double lo, double hi, double falloff);

}  // namespace landform
