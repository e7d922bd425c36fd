#include "landform/stages/road_flatten.hpp"

namespace landform {

const param_schema<road_flatten_params>& road_flatten_params::schema() {
  using P = road_flatten_params;
  static const auto s = with_road_fields(param_schema<P>())
                            .object("water", &P::water, water_output_options::schema())
                            .doc("the water the roads avoid: the options of the water outputs (lakes, rivers)")
                            .effect("a lower river_area = more rivers to bridge")
                            .number("shoulder_m", &P::shoulder_m)
                            .unit("m")
                            .range(between(0, 1e4))
                            .doc("embankment width each side of the bed, blended to the terrain by a smoothstep")
                            .effect("wider = gentler, broader cuts and fills; 0 = a sharp-edged bed");
  return s;
}

void road_flatten_params::check(std::vector<std::pair<std::string, std::string>>& problems) const {
  check_roads(problems);
  if (!water.precipitation_layer.empty()) {
    problems.emplace_back("water.precipitation_layer", "is not read by road_flatten; leave it empty");
  }
}

layer_set apply_road_flatten(heightfield& h, const road_flatten_params& p, const stage_context& ctx) {
  const layer_set none;
  output_context oc(h, none);
  oc.sea_level = ctx.sea_level;
  const water_maps w = compute_water(h, ctx.height_scale, p.water.params(oc), ctx.nthreads);
  ctx.check_stop();
  const road_params rp = p.params();
  road_network n;
  try {
    n = compute_roads(h, ctx.height_scale, w, rp);
  } catch (const preset_error& e) {
    throw e.within(ctx.where);  // a point on water, found only on the terrain
  }
  p.require_links(n, h.placement(), ctx.where);
  ctx.check_stop();
  std::vector<float> layer = flatten_roads(h, ctx.height_scale, n, rp, p.shoulder_m, w);
  ctx.report("roads", static_cast<double>(n.roads.size()));
  ctx.report("unreachable_links", static_cast<double>(n.unreachable.size()));
  layer_set out;
  if (ctx.wants("road_bed")) out.put("road_bed", std::move(layer));
  if (ctx.wants("road_sites")) {
    std::vector<float> sites(h.size(), 0.0f);
    for (const std::uint32_t c : n.sites) sites[c] = 1.0f;
    out.put("road_sites", std::move(sites));
  }
  return out;
}

stage_info road_flatten_stage_info() {
  stage_info info = make_stage_info<road_flatten_params>(
      "road_flatten", stage_category::filter, stage_scope::world,
      "levels road beds of a given width with smooth embankments along least-cost roads",
      "Finds the roads of the `roads` output on its input terrain (sites, minimum spanning tree, least-cost "
      "paths with a maximum grade and a turning cost, sea and lakes impassable, rivers crossed by bridges: "
      "docs/roads.md), then "
      "builds a bed profile along them (the terrain smoothed over about a road width, made g-Lipschitz on the "
      "road graph with g just below max_grade_percent as the mean of its upper and lower envelopes, so cut and "
      "fill balance), levels a bed of width_m and blends back to the terrain over shoulder_m with a smoothstep. "
      "Water cells are left as they are. Writes the layers road_bed (0..1 bed coverage) and road_sites (1 on the "
      "sites); a `roads` or `road` output after it with follow_layer \"road_bed\" and sites_layer \"road_sites\" "
      "links the same sites along the beds. A link without an admissible road is left out (counted as "
      "unreachable_links in the manifest's report; require_all makes it an error, exit 1). Bit-identical for "
      "every thread count. Needs the "
      "whole world: a region build computes the world and crops it.",
      &apply_road_flatten);
  info.writes = {"road_bed", "road_sites"};
  set_cost<road_flatten_params>(info, [](const road_flatten_params& p, double cells) {
    // Water (~100 ns a cell) plus one Dijkstra per link over much of the map,
    // about 3x dearer over (cell, heading) states with a turning cost.
    const double per_link = p.curvature_penalty > 0.0 ? 450.0 : 150.0;
    return cells * (100.0 + per_link * static_cast<double>(p.points.empty() ? p.sites : p.points.size()));
  });
  info.halo_rule = "whole world (a road may run anywhere; rivers depend on terrain upstream)";
  // Points outside the world or in one cell: found by validate and tiles plan.
  info.check_world = [](const json& params, const world_extent& world, double cell_size, const stage_inputs&) {
    std::vector<std::pair<std::string, std::string>> problems;
    for (auto& issue : road_flatten_params::schema().parse(params).check_world(world, cell_size))
      problems.emplace_back(std::move(issue.path), std::move(issue.message));
    return problems;
  };
  return info;
}

}  // namespace landform
