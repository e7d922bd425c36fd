// The water outputs: sea, lakes and rivers from derive/water (world scope).

#include "landform/outputs/water_output.hpp"

#include <algorithm>

namespace landform {

const param_schema<water_output_options>& water_output_options::schema() {
  static const auto s = water_parameters(param_schema<water_output_options>());
  return s;
}

std::vector<std::string> water_output_options::layers_read() const {
  if (precipitation_layer.empty()) return {};
  return {precipitation_layer};
}

water_params water_output_options::params(const output_context& ctx) const {
  return params(ctx.sea_level.value_or(0.0),
                precipitation_layer.empty() ? nullptr : ctx.layers.find(precipitation_layer));
}

water_params water_output_options::params(double sea_level, const std::vector<float>* precipitation_factor) const {
  water_params p;
  p.sea_level = sea_level;
  p.min_depth = min_depth;
  p.min_area = min_area;
  p.precipitation = precipitation;
  p.precipitation_layer = precipitation_factor;
  p.evaporation = evaporation;
  p.river_area = river_area * 1e6;
  p.river_discharge = river_discharge;
  p.width_a = width_a;
  p.width_b = width_b;
  p.depth_c = depth_c;
  p.depth_f = depth_f;
  return p;
}

std::shared_ptr<const water_maps> shared_water(const water_output_options& o, const output_context& ctx) {
  auto compute = [&] { return compute_water(ctx.field, ctx.height_scale, o.params(ctx), ctx.nthreads); };
  if (ctx.cache == nullptr) return std::make_shared<const water_maps>(compute());
  return ctx.cache->get<water_maps>("water " + water_output_options::schema().to_json(o).dump(), compute);
}

std::vector<std::uint8_t> wet_lake_cells(const water_maps& w) {
  std::vector<std::uint8_t> wet(w.lake.size(), 0);
  for (std::size_t c = 0; c < wet.size(); ++c) {
    if (w.lake[c] >= 0 && !w.lakes[static_cast<std::size_t>(w.lake[c])].dry && w.depth[c] > 0.0f) wet[c] = 1;
  }
  return wet;
}

namespace {

int whole_world(const water_output_options&, double) {
  return -1;
}

const char* const k_scope =
    " Needs the whole world: lakes and discharge depend on terrain anywhere upstream, so a region build "
    "computes the world's water and writes the region's window.";

// Writes one map of the water: float formats store the values, integer
// formats stretch 0..hi, hi being the world's maximum (or 1 for masks), so
// tiles agree.
encoded_file scalar_map(const std::vector<float>& full, const std::string& format, const output_context& ctx,
                        const std::string& meaning, const char* units, bool mask, const water_maps& w) {
  double hi = 1.0;
  if (!mask && !full.empty()) hi = std::max(1e-6, static_cast<double>(*std::max_element(full.begin(), full.end())));
  encoded_file out =
      encode_scalar(ctx.window(full), ctx.width, ctx.height, format, 0.0, hi, meaning, ctx.write_settings());
  out.extra["units"] = units;
  out.extra["scope"] = "world (computed over the whole world, cropped to the region)";
  out.extra["sea_level"] = ctx.sea_level.value_or(0.0);
  out.extra["lakes"] = w.lakes.size();
  if (!mask) out.extra["max"] = hi;
  return out;
}

encoded_file encode_water_level(const water_output_options& o, const std::string& format, const output_context& ctx) {
  const auto water = shared_water(o, ctx);
  const water_maps& w = *water;
  double lo = 0.0, hi = 1.0;
  if (!w.level.empty()) {
    const auto [mn, mx] = std::minmax_element(w.level.begin(), w.level.end());
    lo = *mn;
    hi = std::max(static_cast<double>(*mx), lo + 1e-6);
  }
  encoded_file out = encode_scalar(ctx.window(w.level), ctx.width, ctx.height, format, lo, hi,
                                   "water surface elevation (height units; the bed where dry)", ctx.write_settings());
  out.extra["units"] = "height units (metres = value * height_scale)";
  out.extra["scope"] = "world (computed over the whole world, cropped to the region)";
  out.extra["sea_level"] = ctx.sea_level.value_or(0.0);
  out.extra["range"] = {lo, hi};
  json lakes = json::array();
  for (const lake_info& l : w.lakes) {
    const auto outlet_x = static_cast<std::int64_t>(l.outlet % static_cast<std::uint32_t>(w.width));
    const auto outlet_y = static_cast<std::int64_t>(l.outlet / static_cast<std::uint32_t>(w.width));
    lakes.push_back({{"outlet", {outlet_x - ctx.x0, outlet_y - ctx.y0}},
                     {"level", l.level},
                     {"cells", l.cells},
                     {"max_depth_m", l.max_depth},
                     {"inflow_m3s", l.inflow},
                     {"dry", l.dry}});
  }
  out.extra["lakes"] = lakes;
  return out;
}

encoded_file encode_water_depth(const water_output_options& o, const std::string& format, const output_context& ctx) {
  const auto water = shared_water(o, ctx);
  const water_maps& w = *water;
  return scalar_map(w.depth, format, ctx, "water depth of sea and lakes", "m", false, w);
}

encoded_file encode_lake(const water_output_options& o, const std::string& format, const output_context& ctx) {
  const auto water = shared_water(o, ctx);
  const water_maps& w = *water;
  const std::vector<std::uint8_t> wet = wet_lake_cells(w);
  const std::vector<float> mask(wet.begin(), wet.end());
  return scalar_map(mask, format, ctx, "lake mask (1 = under a lake)", "0 or 1", true, w);
}

encoded_file encode_river(const water_output_options& o, const std::string& format, const output_context& ctx) {
  const auto water = shared_water(o, ctx);
  const water_maps& w = *water;
  return scalar_map(w.river_mask, format, ctx, "river coverage (anti-aliased to the river's width)", "0..1", true, w);
}

encoded_file encode_river_depth(const water_output_options& o, const std::string& format, const output_context& ctx) {
  const auto water = shared_water(o, ctx);
  const water_maps& w = *water;
  return scalar_map(w.river_depth, format, ctx, "river depth d = c Q^f on river cells", "m", false, w);
}

encoded_file encode_river_network(const water_output_options& o, const std::string&, const output_context& ctx) {
  const auto water = shared_water(o, ctx);
  const water_maps& w = *water;
  const std::string text =
      river_network_geojson(w, ctx.field.placement(), ctx.height_scale, ctx.x0, ctx.y0, ctx.width, ctx.height);
  encoded_file out;
  out.bytes.assign(text.begin(), text.end());
  out.encoding = "GeoJSON (RFC 7946) FeatureCollection of LineStrings";
  out.extra["coordinates"] = "world metres: x east, y = -world y (north up, as the GeoTIFFs), z = water surface in m";
  out.extra["scope"] = "world (computed over the whole world; segments touching the region)";
  out.extra["segments"] = w.network.size();
  return out;
}

}  // namespace

std::vector<output_kind> water_output_kinds() {
  using O = water_output_options;
  const std::vector<std::string> floats = {"r32", "tiff32", "exr", "png16", "png8"};
  std::vector<output_kind> kinds;
  kinds.push_back(make_output_kind<O>(
      "water_level", "water surface elevation: sea level over the sea, the spill height over lakes, else the bed",
      std::string("The sea is every cell below the preset's sea_level connected to the world's border (0 when "
                  "not given); lakes fill depressions to their spill height by Priority-Flood (Barnes et al. "
                  "2014) and are kept by min_depth and min_area; the manifest lists each lake's outlet (spill "
                  "cell), level, inflow and whether evaporation leaves it dry. r32 stores height units.") +
          k_scope,
      floats, &whole_world, &encode_water_level));
  kinds.push_back(make_output_kind<O>(
      "water_depth", "water depth in metres over the sea and lakes (0 on land and rivers)",
      std::string("(water_level - bed) * height_scale. Images stretch 0..the world's deepest.") + k_scope, floats,
      &whole_world, &encode_water_depth));
  kinds.push_back(make_output_kind<O>(
      "lake", "lake mask: 1 under a kept, wet lake",
      std::string("Cells below a kept lake's spill height (not the sea, not dry endorheic basins).") + k_scope,
      {"png8", "png16", "r32"}, &whole_world, &encode_lake));
  kinds.push_back(make_output_kind<O>(
      "river", "river mask, anti-aliased to each river's width",
      std::string("Rivers run where the D8 drainage area reaches river_area (km^2), or the discharge "
                  "precipitation x area reaches river_discharge (m^3/s), outside the sea and lakes. Width w = "
                  "width_a Q^width_b metres (Leopold and Maddock 1953); each D8 piece of the network is drawn as "
                  "a capsule of that width with a one-cell ramp (0.5 at the edge).") +
          k_scope,
      {"png8", "png16", "r32"}, &whole_world, &encode_river));
  kinds.push_back(make_output_kind<O>("river_depth",
                                      "river depth in metres on river cells (hydraulic geometry d = c Q^f)",
                                      std::string("depth_c Q^depth_f metres on river cells, 0 elsewhere.") + k_scope,
                                      floats, &whole_world, &encode_river_depth));
  kinds.push_back(make_output_kind<O>(
      "river_network", "the river network as GeoJSON LineStrings with Strahler order, discharge and width",
      std::string("An RFC 7946 FeatureCollection: one LineString per segment between sources, confluences and "
                  "mouths, upstream first, in world metres (x, -y, water surface z); properties strahler, "
                  "discharge_m3s, width_m, depth_m (at the segment's last cell), widths_m (per vertex) and end "
                  "(sea, lake, edge, confluence). Lines end halfway to a lake or the sea and start on a lake's "
                  "shore at its outlet, so no vertex lies on a lake surface.") +
          k_scope,
      {"geojson"}, &whole_world, &encode_river_network));
  return kinds;
}

}  // namespace landform
