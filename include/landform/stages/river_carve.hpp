#pragma once
/// @file
/// `river_carve`: carves the rivers of derive/water into the terrain, as
/// channels of their hydraulic-geometry width and depth with smooth banks and
/// a bed that never rises downstream.

#include <vector>

#include "landform/derive/water.hpp"
#include "landform/outputs/water_output.hpp"
#include "landform/stages/stage.hpp"

namespace landform {

/// Cross section of a carved channel across its width.
enum class river_carve_profile {
  parabolic,  ///< bed + D (r / half_width)^2: deepest on the centreline, at the water surface at the banks
  flat,       ///< the bed across the whole width, banks from the bed up to the terrain
};

/// Parameters of the `river_carve` filter: the water options of the water
/// outputs (the same keys and meanings: the one declaration of
/// water_parameters(), so a preset that gives both the same values gets the
/// same rivers), plus the shape of the channels. Distances in metres
/// (cell_size), depths in metres (height units x height_scale).
struct river_carve_params : water_output_options {
  double depth_scale = 1.0;  ///< x the river's depth d = depth_c Q^depth_f, 0 to 100 (0 = banks only)
  double width_scale = 1.0;  ///< x the river's width w = width_a Q^width_b, 0 to 100
  double min_width = 3.0;    ///< cells, 1 to 64: channels narrower than this are carved this wide
  double bank_m = 40.0;      ///< m, 0 to 1e5: width over which each bank blends into the terrain
  river_carve_profile profile = river_carve_profile::parabolic;
  int smoothing = 2;  ///< passes of a [1 2 1] / 4 filter over each river's centreline, 0 to 16

  static const param_schema<river_carve_params>& schema();
};

/// What apply_river_carve() did.
struct river_carve_report {
  std::size_t river_cells = 0;   ///< river cells of the water before carving
  std::size_t carved_cells = 0;  ///< cells lowered
  double volume_m3 = 0.0;        ///< material removed
  double max_depth_m = 0.0;      ///< deepest cut below the input
  int settle_passes = 0;         ///< passes of step 6 that lowered cells
};

/// Carves channels along the rivers of compute_water() (World Machine's,
/// Gaea's and Houdini's river tools do the same in spirit: the rivers are
/// found first, then a channel is cut along them).
///
/// Method, in height units (metres = height x ctx.height_scale):
/// 1. Water: compute_water() of the input with the water options (the sea
///    at the preset's sea_level, 0 when not given, lakes, discharge Q,
///    river cells, their width w(Q) and depth d(Q), the network).
/// 2. Bed per river cell: target = filled surface - depth_scale x d(Q);
///    then, upstream first along the D8 receivers of the filled surface (the
///    stack of Braun and Willett 2013), the running minimum over the cell
///    and everything upstream, so the bed never rises downstream; then at
///    least a floor: the level of the lake or sea (or the filled height of
///    the sink) the river ends in, plus 1 mm per cell upstream of its mouth,
///    so a channel never cuts below the water it runs into (no new lake or
///    sea reaches up a channel). Rivers ending at the map edge have no floor.
/// 3. Centreline: the network's lines (river_segment: cell centres, a lake
///    shore or mouth halfway to the water), each smoothed by `smoothing`
///    passes of a [1 2 1] / 4 filter on its interior vertices (ends fixed, so
///    confluences stay joined): no D8 zigzag.
/// 4. Cross section: for each piece of a line, each cell at distance r from
///    it (cells; t the position along the piece, the bed (extrapolated up the piece's slope before its start) and depth
///    D = surface - bed interpolated at t) gets z(r) = bed + D (r / hw)^2
///    (`parabolic`) or bed (`flat`) inside the half-width hw = max(width_scale
///    w / 2, min_width / 2 cells), then from the channel's edge height up to
///    the terrain over `bank_m` by smoothstep. Pieces combine by minimum and
///    the result is min(input, z): carving only lowers.
/// 5. Drainage: upstream first along the river cells, each receiver is
///    lowered to just below its donor (one float step) unless that would
///    cut below the floor: the channel falls strictly downstream, so it
///    holds no flat and no closed depression, and pits on the river path
///    (filled, too small to be lakes) are breached. A pit deeper than the
///    floor (under the level of the lake or sea the river ends in, walled
///    off from it) cannot drain above that level: the path from it to the
///    mouth is cut to just under the level, so the pit joins that water and
///    the river ends at it.
/// 6. Settling: the water of the carved terrain is computed again (what the
///    water outputs will draw) and step 5 runs along its rivers, until a
///    pass lowers nothing (at most 16 passes; `settle_passes` reports them).
///    Its rivers can route through pits step 5 never reached (beside the
///    input's path, or left beside a breach), where the bed fell into the
///    pit and rose out of it.
///
/// Afterwards the water outputs recompute the water of the carved terrain
/// (with the same water options it is the water of step 6's last pass): the
/// rivers follow the channels, the carved heights under every river line
/// never rise downstream, and lakes keep their levels unless a river leaving
/// one lowers its outlet (then the lake's level falls with it).
///
/// Parameters, visually: `depth_scale` deepens the channels (several times
/// d(Q) reads better at map scale than the physical depth of a few metres);
/// `width_scale` and `min_width` widen them; `bank_m` softens the banks
/// (0 = vertical walls, a few cells = a valley floor); `profile` parabolic
/// gives rounded beds, flat box channels with graded banks; `smoothing`
/// rounds the D8 path into curves.
///
/// @pre finite heights; ctx.height_scale > 0; cell size > 0.
/// @post no cell higher than in the input; along every river path of the
///       carved terrain's water (the same water options) the heights never
///       rise downstream, unless 16 settling passes did not suffice.
/// @throws std::invalid_argument when `precipitation_layer` names a layer
///         that no earlier stage wrote.
///
/// Determinism and threading: compute_water() (receivers in rows,
/// independent of the thread count; once plus once per settling pass), the
/// rest serial in fixed orders;
/// bit-identical for every thread count. Scope: world (a river's discharge
/// depends on everything upstream): a region build computes the world and
/// crops it.
void apply_river_carve(heightfield& h, const river_carve_params& p, const stage_context& ctx,
                       river_carve_report* report = nullptr);

stage_info river_carve_stage_info();

}  // namespace landform
