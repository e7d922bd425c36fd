#include "landform/stages/normalize.hpp"

#include <algorithm>

#include "landform/core/parallel.hpp"

namespace landform {

const param_schema<normalize_params>& normalize_params::schema() {
  using P = normalize_params;
  static const auto s = param_schema<P>()
                            .choice("mode", &P::mode, {{"range", P::kind::range}, {"min_max", P::kind::min_max}})
                            .doc("range: map [input_min, input_max]; min_max: map the map's own lowest..highest cell")
                            .number("input_min", &P::input_min)
                            .unit("height units")
                            .doc("range mode: height that maps to output_min")
                            .number("input_max", &P::input_max)
                            .unit("height units")
                            .doc("range mode: height that maps to output_max")
                            .number("output_min", &P::output_min)
                            .unit("height units")
                            .doc("lower end of the result")
                            .number("output_max", &P::output_max)
                            .unit("height units")
                            .doc("upper end of the result")
                            .boolean("clamp", &P::clamp)
                            .doc("clamp results into [output_min, output_max]")
                            .interval("world_range", &P::world_range)
                            .unit("height units")
                            .doc(
                                "min_max mode: the world's lowest and highest input height, when known (landform "
                                "tiles plan writes it); absent = measured over the world");
  return s;
}

void normalize_params::check(std::vector<std::pair<std::string, std::string>>& problems) const {
  if (mode == kind::range && input_min == input_max) {
    problems.emplace_back("input_max", "must differ from input_min (both are " + format_number(input_min) + ")");
  }
}

void apply_normalize(heightfield& h, const normalize_params& p, const stage_context& ctx) {
  double lo = p.input_min, hi = p.input_max;
  if (p.mode == normalize_params::kind::min_max) {
    // Floats, as measured: a range given in the preset or by the stats pass
    // gives the same result as measuring it on the whole world.
    if (p.world_range) {
      lo = static_cast<float>((*p.world_range)[0]);
      hi = static_cast<float>((*p.world_range)[1]);
    } else if (ctx.world_range) {
      lo = ctx.world_range->first;
      hi = ctx.world_range->second;
    } else {
      const auto [mn, mx] = std::minmax_element(h.values().begin(), h.values().end());
      lo = *mn;
      hi = *mx;
    }
  }
  const double out_lo = std::min(p.output_min, p.output_max), out_hi = std::max(p.output_min, p.output_max);
  if (hi == lo) {
    std::fill(h.values().begin(), h.values().end(), static_cast<float>(0.5 * (p.output_min + p.output_max)));
    return;
  }
  const double span = hi - lo, out_span = p.output_max - p.output_min;
  ctx.parallel_rows(h.height(), [&](int y0, int y1) {
    for (int j = y0; j < y1; ++j) {
      float* row = h.row(j);
      for (int i = 0; i < h.width(); ++i) {
        // (h - lo) / (hi - lo) first, as the tutorial writes it, so [-1, 1] ->
        // [0, 1] is bit-identical to its (h - -1) / (1 - -1).
        double v = (row[i] - lo) / span * out_span + p.output_min;
        if (p.clamp) v = std::clamp(v, out_lo, out_hi);
        row[i] = static_cast<float>(v);
      }
    }
  });
}

stage_info normalize_stage_info() {
  stage_info info = make_stage_info<normalize_params>(
      "normalize", stage_category::filter, stage_scope::pointwise,
      "linear remap from a known range or from the map's min..max",
      "range mode is the tutorial's Normalize() (seed document 000): [-1, 1] to [0, 1]. min_max mode "
      "stretches the world's extremes to the output range (a region build measures them in a stats pass over "
      "the world, or takes world_range); a flat map maps to the middle of the output range.",
      &apply_normalize);
  info.halo_rule = "0 (min_max: the world's min and max from a stats pass, or world_range)";
  return info;
}

}  // namespace landform
