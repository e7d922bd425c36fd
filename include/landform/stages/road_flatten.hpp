#pragma once
/// @file
/// `road_flatten`: levels road beds into the terrain (issue 10).

#include <string>
#include <utility>
#include <vector>

#include "landform/outputs/road_output.hpp"
#include "landform/stages/stage.hpp"

namespace landform {

/// Parameters of `road_flatten`: the road fields of the `roads` output, the
/// water the roads avoid, and the embankment.
struct road_flatten_params : road_options {
  water_output_options water;  ///< as the water outputs' options (no precipitation_layer)
  double shoulder_m = 12.0;    ///< m, >= 0: embankment width each side of the bed

  static const param_schema<road_flatten_params>& schema();
  void check(std::vector<std::pair<std::string, std::string>>& problems) const;
};

/// Levels road beds along the roads that compute_roads() finds on the input
/// terrain (with its water from compute_water()).
///
/// Method: the bed along each road is the terrain smoothed over about a road
/// width, then made g-Lipschitz on the road graph (g = 0.995 max_grade) as the
/// mean of its upper and lower envelopes, so cut and fill balance and no step
/// is steeper than max_grade_percent; cells within width_m / 2 of a road take
/// the bed height of the nearest road point, cells up to shoulder_m further
/// blend back to the terrain by a smoothstep. The sea, lakes and river cells
/// (under bridges) are left as they are.
/// - `max_grade_percent`: lower = roads climb in switchbacks.
/// - `width_m`: the flat bed; `shoulder_m`: wider = gentler embankments.
/// @post every step of every road is at most max_grade_percent steep on the
///       result; the side layer `road_bed` holds the bed's 0..1 coverage,
///       `road_sites` is 1 on the sites.
/// Scope: world (a road may run anywhere); serial except the water's receivers,
/// and bit-identical for every thread count.
layer_set apply_road_flatten(heightfield& h, const road_flatten_params& p, const stage_context& ctx);

stage_info road_flatten_stage_info();

}  // namespace landform
