#pragma once
/// @file
/// `normalize`: linear remap of heights to an output range.

#include <array>
#include <optional>

#include "landform/stages/stage.hpp"

namespace landform {

/// Parameters of the `normalize` filter.
struct normalize_params {
  enum class kind { range, min_max };
  kind mode = kind::range;
  double input_min = -1.0;  ///< `range` mode: height mapped to output_min
  double input_max = 1.0;   ///< `range` mode: height mapped to output_max; != input_min
  double output_min = 0.0;
  double output_max = 1.0;
  bool clamp = false;  ///< clamp results to the output range
  /// `min_max` mode: the world's [min, max] of the input, when known (a tile
  /// plan's stats pass writes it); absent = measured. Given, the stage is
  /// pointwise.
  std::optional<std::array<double, 2>> world_range;

  static const param_schema<normalize_params>& schema();
  void check(std::vector<std::pair<std::string, std::string>>& problems) const;
  [[nodiscard]] stage_scope scope() const {
    return mode == kind::min_max && !world_range ? stage_scope::stats : stage_scope::pointwise;
  }
  [[nodiscard]] int halo() const { return 0; }
};

/// Maps heights linearly from an input range to [output_min, output_max].
///
/// - `range`: the input range is given, `(h - input_min) / (input_max -
///   input_min)`; the tutorial's Normalize() (seed document 000) is input
///   [-1, 1] to [0, 1], computed in double exactly as written there.
///   Pointwise.
/// - `min_max`: the input range is the heightfield's own minimum and maximum.
///   The range is `world_range` when given, else the world's min and max
///   that a region build's stats pass measured (stage_context::world_range),
///   else the heightfield's own (then it is the world).
///   A flat map, where max = min, maps to the middle of the output range
///   (never 0/0).
/// Rows run in parallel; the result does not depend on the thread count.
void apply_normalize(heightfield& h, const normalize_params& p, const stage_context& ctx);

stage_info normalize_stage_info();

}  // namespace landform
