#pragma once
/// @file
/// The "flow" (flow accumulation) and "wetness" (topographic wetness index)
/// outputs. Both need the whole world (halo -1): water collects from anywhere
/// upslope.

#include "landform/derive/flow.hpp"
#include "landform/outputs/output_kind.hpp"

namespace landform {

/// Options of the "flow" output.
struct flow_output_options {
  enum class scaling { log, linear };
  flow_method method = flow_method::d8;
  scaling scale = scaling::log;  ///< images only: log(1 + a) / log(1 + max) or a / max

  static const param_schema<flow_output_options>& schema();
};

/// Options of the "wetness" output.
struct wetness_output_options {
  flow_method method = flow_method::dinf;
  double min_slope = 0.1;  ///< degrees, (0, 45]: floor of the slope in tan(beta), keeps flats finite

  static const param_schema<wetness_output_options>& schema();
};

/// The "flow" map: flow accumulation (upslope area in cells, the cell
/// itself included) with depressions resolved, by D8 or D-infinity (see
/// flow_accumulation(): D8 fills only the lakes, and its border cells are outlets). r32 stores the accumulation in
/// cells unscaled (whatever `scale`); png8/png16 store log(1 + a) / log(1 + max) (or a / max) at full scale, max taken
/// over the whole world so tiles agree.
output_kind flow_output_kind();

/// The "wetness" map: topographic wetness index ln(a / tan beta), see
/// topographic_wetness(). r32 stores the values; png8/png16 stretch the
/// world's min..max to full scale (the manifest records the range).
output_kind wetness_output_kind();

}  // namespace landform
