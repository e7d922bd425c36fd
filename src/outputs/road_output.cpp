// The road outputs: least-cost roads from derive/roads (world scope).

#include "landform/outputs/road_output.hpp"

#include <memory>
#include <stdexcept>

namespace landform {

void road_options::check_roads(std::vector<std::pair<std::string, std::string>>& problems) const {
  if (neighbours != 8 && neighbours != 16) {
    problems.emplace_back("neighbours", std::to_string(neighbours) + " must be 8 or 16");
  }
}

road_params road_options::params() const {
  road_params p;
  p.points = points;
  p.sites = sites;
  p.max_grade_percent = max_grade_percent;
  p.grade_penalty = grade_penalty;
  p.bridge_cost = bridge_cost;
  p.max_bridge_m = max_bridge_m;
  p.neighbours = neighbours;
  p.curvature_penalty = curvature_penalty;
  p.width_m = width_m;
  return p;
}

std::vector<preset_issue> road_options::check_world(const world_extent& world, double cell_size) const {
  return road_point_issues(points, region{world.width, world.height, world.origin_x, world.origin_y, cell_size});
}

std::vector<std::string> road_options::gap_lines(const road_network& n, const region& grid) const {
  auto site = [&](std::uint32_t k) {
    const auto c = static_cast<int>(n.sites[k]);
    return "site " + std::to_string(k) + " [" + format_number(grid.world_x(c % n.width)) + ", " +
           format_number(grid.world_y(c / n.width)) + "] m";
  };
  std::vector<std::string> out;
  for (const road_gap& gap : n.unreachable) {
    out.push_back("no road from " + site(gap.from_site) + " to " + site(gap.to_site) + ": " +
                  describe_barrier(gap.barrier, params()));
  }
  return out;
}

void road_options::require_links(const road_network& n, const region& grid, const std::string& where) const {
  if (!require_all || n.unreachable.empty()) return;
  std::string text = where + ": require_all is true and " + std::to_string(n.unreachable.size()) + " of " +
                     std::to_string(n.roads.size() + n.unreachable.size()) + " links have no admissible road";
  for (const std::string& line : gap_lines(n, grid)) text += "; " + line;
  throw std::runtime_error(text);
}

const param_schema<road_output_options>& road_output_options::schema() {
  using P = road_output_options;
  static const auto s = with_road_fields(param_schema<P>())
                            .object("water", &P::water, water_output_options::schema())
                            .doc("the water the roads avoid: the options of the water outputs (lakes, rivers)")
                            .effect("a lower river_area = more rivers to bridge")
                            .layer("follow_layer", &P::follow_layer)
                            .doc("layer (0..1) on which roads are cheaper, e.g. \"road_bed\" from road_flatten")
                            .effect("roads after road_flatten keep to its beds")
                            .number("follow_factor", &P::follow_factor)
                            .range(above_to(0, 1))
                            .doc("cost per metre on the follow layer (1 = no preference)")
                            .effect("lower = roads hold to the layer more tightly")
                            .layer("sites_layer", &P::sites_layer)
                            .doc(
                                "layer whose cells >= 0.5 are the sites (e.g. \"road_sites\" from road_flatten); "
                                "overrides points and sites")
                            .effect("roads after road_flatten link the same sites as the stage's");
  return s;
}

void road_output_options::check(std::vector<std::pair<std::string, std::string>>& problems) const {
  check_roads(problems);
}

std::vector<std::string> road_output_options::layers_read() const {
  std::vector<std::string> out = water.layers_read();
  if (!follow_layer.empty()) out.push_back(follow_layer);
  if (!sites_layer.empty()) out.push_back(sites_layer);
  return out;
}

namespace {

int whole_world(const road_output_options&, double) {
  return -1;
}

const char* const k_road_scope =
    " Needs the whole world: a least-cost path may wander anywhere and rivers depend on terrain anywhere "
    "upstream, so a region build computes the world's roads and writes the region's window.";

struct roads_and_water {
  std::shared_ptr<const water_maps> water;
  road_network roads;
};

std::shared_ptr<const roads_and_water> roads_of(const road_output_options& o, const output_context& ctx) {
  auto compute = [&] {
    roads_and_water r;
    r.water = shared_water(o.water, ctx);  // the same water as the water outputs with these options
    road_params p = o.params();
    if (!o.follow_layer.empty()) {
      p.follow = ctx.layers.find(o.follow_layer);
      p.follow_factor = o.follow_factor;
    }
    if (!o.sites_layer.empty()) p.site_layer = ctx.layers.find(o.sites_layer);
    try {
      r.roads = compute_roads(ctx.field, ctx.height_scale, *r.water, p);
    } catch (const preset_error& e) {
      throw e.within(ctx.where);  // a point on water, found only on the terrain
    }
    return r;
  };
  auto r = ctx.cache == nullptr
               ? std::make_shared<const roads_and_water>(compute())
               : ctx.cache->get<roads_and_water>("roads " + road_output_options::schema().to_json(o).dump(), compute);
  o.require_links(r->roads, ctx.field.placement(), ctx.where);
  return r;
}

// The manifest's summary of the network: counts, and each unreachable link
// (sites, their cells in world metres, the barrier in words).
json network_summary(const road_options& o, const road_network& n, const region& grid) {
  int bridges = 0;
  double length = 0.0;
  for (const road_path& r : n.roads) {
    bridges += r.bridges;
    length += r.length_m;
  }
  json gaps = json::array();
  const std::vector<std::string> lines = o.gap_lines(n, grid);
  for (std::size_t k = 0; k < n.unreachable.size(); ++k) {
    const road_gap& gap = n.unreachable[k];
    auto at = [&](std::uint32_t site) {
      const auto c = static_cast<int>(n.sites[site]);
      return json::array({grid.world_x(c % n.width), grid.world_y(c / n.width)});
    };
    gaps.push_back({{"from", gap.from_site},
                    {"to", gap.to_site},
                    {"from_m", at(gap.from_site)},
                    {"to_m", at(gap.to_site)},
                    {"why", lines[k]}});
  }
  return {{"sites", n.sites.size()}, {"roads", n.roads.size()}, {"unreachable_links", n.unreachable.size()},
          {"unreachable", gaps},     {"bridges", bridges},      {"length_m", length}};
}

// The output's warnings: one per unreachable link, naming the output.
std::vector<std::string> gap_warnings(const road_options& o, const road_network& n, const output_context& ctx) {
  std::vector<std::string> out;
  for (const std::string& line : o.gap_lines(n, ctx.field.placement()))
    out.push_back(ctx.where.empty() ? line : ctx.where + ": " + line);
  return out;
}

encoded_file encode_roads(const road_output_options& o, const std::string&, const output_context& ctx) {
  const auto r = roads_of(o, ctx);
  const std::string text =
      road_network_geojson(r->roads, ctx.field, ctx.height_scale, ctx.x0, ctx.y0, ctx.width, ctx.height);
  encoded_file out;
  out.bytes.assign(text.begin(), text.end());
  out.encoding = "GeoJSON (RFC 7946) FeatureCollection of LineStrings";
  out.extra["coordinates"] = "world metres: x east, y = -world y (north up, as the GeoTIFFs), z = ground in m";
  out.extra["scope"] = "world (computed over the whole world; roads touching the region)";
  out.extra["network"] = network_summary(o, r->roads, ctx.field.placement());
  out.warnings = gap_warnings(o, r->roads, ctx);
  return out;
}

encoded_file encode_road(const road_output_options& o, const std::string& format, const output_context& ctx) {
  const auto r = roads_of(o, ctx);
  encoded_file out = encode_scalar(ctx.window(r->roads.mask), ctx.width, ctx.height, format, 0.0, 1.0,
                                   "road coverage (anti-aliased to width_m)", ctx.write_settings());
  out.extra["units"] = "0..1";
  out.extra["scope"] = "world (computed over the whole world, cropped to the region)";
  out.extra["network"] = network_summary(o, r->roads, ctx.field.placement());
  out.warnings = gap_warnings(o, r->roads, ctx);
  return out;
}

}  // namespace

std::vector<output_kind> road_output_kinds() {
  using O = road_output_options;
  const std::string method =
      "Sites (points in world metres, or `sites` chosen as the flattest dry cells near water, spaced apart) are "
      "linked by their Euclidean minimum spanning tree; each link is a least-cost path (exact Dijkstra with an "
      "A* bound on an 8- or 16-neighbour mask, after Galin et al. 2010) costing length x (1 + grade_penalty "
      "(grade / max_grade)^2) plus curvature_penalty x the angle turned between successive steps (the search "
      "runs over (cell, heading) states), steps steeper than max_grade_percent impassable, the sea and lakes "
      "impassable, "
      "rivers (from the `water` options, as the water outputs) crossed only by straight bridges of at most "
      "max_bridge_m, each adding bridge_cost. A link with no admissible road (found by a reachability pass "
      "before any search) is left out, listed in the manifest under network.unreachable with the limit that "
      "parts its sites, and printed as a warning; require_all makes it an error (exit 1). Points outside the "
      "world or two in one cell are preset errors at validation.";
  std::vector<output_kind> kinds;
  kinds.push_back(make_output_kind<O>(
      "roads", "least-cost roads between sites as GeoJSON LineStrings with length, grade and bridges",
      method +
          " An RFC 7946 FeatureCollection, one LineString per link in world metres (x, -y, ground z), as "
          "river_network; properties from, to (site indices), length_m, max_grade_percent, bridges, cost." +
          k_road_scope,
      {"geojson"}, &whole_world, &encode_roads));
  kinds.push_back(make_output_kind<O>(
      "road", "road mask, anti-aliased to width_m",
      method + " Each step is drawn as a capsule of width_m with a one-cell ramp (0.5 at the edge)." + k_road_scope,
      {"png8", "png16", "r32"}, &whole_world, &encode_road));
  return kinds;
}

}  // namespace landform
