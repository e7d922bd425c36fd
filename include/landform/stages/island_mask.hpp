#pragma once
/// @file
/// `island_mask`: a radial or square falloff from the world's centre.

#include "landform/stages/stage.hpp"

namespace landform {

/// Parameters of the `island_mask` generator.
struct island_mask_params {
  enum class shape_kind { radial, square };
  enum class fit_kind { world, circle };
  enum class curve_kind { linear, smoothstep, smootherstep };
  shape_kind shape = shape_kind::radial;
  fit_kind fit = fit_kind::world;
  double inner = 0.5;  ///< normalised distance where the falloff starts (mask 1 inside), >= 0
  double outer = 1.0;  ///< normalised distance where the mask reaches 0, > inner
  curve_kind curve = curve_kind::smoothstep;
  double exponent = 1.0;  ///< t^exponent before the curve: > 1 keeps the coast high longer, < 1 drops it sooner

  static const param_schema<island_mask_params>& schema();
  void check(std::vector<std::pair<std::string, std::string>>& problems) const;
};

/// Fills `h` with an island mask: 1 in the middle of the world, falling to 0
/// toward its edges.
///
/// Method: the normalised distance d from the world's centre is
/// 2 sqrt(dx^2 + dy^2) (`radial`) or 2 max(|dx|, |dy|) (`square`, the island
/// shaping of seed document 002), where (dx, dy) is the cell centre's offset
/// from the centre in world fractions (`fit: world`, an ellipse or rectangle
/// filling the world) or in units of the smaller side (`fit: circle`, round
/// whatever the aspect). So d = 1 at the middle of the edges. With
/// t = clamp((d - inner) / (outer - inner), 0, 1)^exponent the mask is
/// 1 - curve(t), curve being linear, smoothstep (3t^2 - 2t^3) or smootherstep
/// (6t^5 - 15t^4 + 10t^3).
/// Parameters: `inner` the plateau radius (0.3 to 0.7 reads as an island),
/// `outer` where the sea begins (0.8 to 1.2; above 1 the edges are not quite
/// 0); `exponent` 0.5 to 3 shapes the coast; `curve` smoothstep gives a soft
/// shore, linear a cone.
/// @pre 0 <= inner < outer.
/// @post every cell lies in [0, 1].
/// Pointwise: a region equals the same window of the world; rows run in
/// parallel and the result does not depend on the thread count.
void apply_island_mask(heightfield& h, const island_mask_params& p, const stage_context& ctx);

stage_info island_mask_stage_info();

}  // namespace landform
