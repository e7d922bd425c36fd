// "splat": texture weight maps from rules, packed RGBA8 (the layout terrain
// splatting in jMonkeyEngine, Unity and Unreal reads).

#include "landform/outputs/splat_output.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include "landform/derive/flow.hpp"
#include "landform/derive/splat.hpp"
#include "landform/derive/surface.hpp"
#include "landform/io/encode.hpp"
#include "landform/outputs/ocean_rule.hpp"
#include "landform/outputs/water_output.hpp"

namespace landform {

namespace {

constexpr std::size_t k_max_layers = 16;     // four RGBA images
constexpr double k_default_sea_level = 0.3;  // above_sea without a preset sea_level: the ramps' coast
const char* const k_channels = "rgba";

// One texture layer rule: a name and the ranges where it applies.
const param_schema<splat_rule>& rule_schema() {
  using R = splat_rule;
  static const auto s =
      param_schema<R>()
          .string("name", &R::name)
          .non_empty()
          .required()
          .doc("texture layer name, written to the manifest")
          .interval("height", &R::height)
          .unit("height units")
          .doc("heights where the layer applies")
          .interval("above_sea", &R::above_sea)
          .unit("height units")
          .doc("heights relative to the preset's sea_level (0.3 when not given), instead of height")
          .interval("slope", &R::slope)
          .unit("degrees")
          .doc("slopes where the layer applies")
          .interval("flow", &R::flow)
          .unit("cells")
          .doc("flow accumulation where the layer applies (compared in log10)")
          .interval("curvature", &R::curvature)
          .unit("1/m")
          .doc("profile curvature where the layer applies")
          .interval("water_depth", &R::water_depth)
          .unit("m")
          .range(at_least(0))
          .doc("water depths of the sea and lakes where the layer applies (0 on land and rivers)")
          .effect("e.g. [0, 2] = shallows and dry land, [5, 1e4] = deep water")
          .interval("river", &R::river)
          .range(between(0, 1))
          .doc("river coverage where the layer applies (the river output's anti-aliased mask)")
          .effect("[0.5, 1] with river_blend = banks along the rivers; [0, 0] = away from rivers")
          .interval("lake", &R::lake)
          .range(between(0, 1))
          .doc("lake mask values where the layer applies (1 under a wet lake, 0 elsewhere)")
          .effect("[1, 1] with lake_blend = lake beds and a shore band; [0, 0] = away from lakes")
          .interval("ocean", &R::ocean)
          .range(between(0, 1))
          .doc(
              "ocean mask values where the layer applies (1 on the ocean by the output's `ocean` "
              "rule, 0 elsewhere, inland basins below sea level included)")
          .effect("[1, 1] with above_sea [-1, 0] = the sea without inland basins; [0, 0] = off the sea")
          .number("noise", &R::noise)
          .range(between(0, 1))
          .doc("breakup noise amplitude")
          .effect("higher = more ragged, patchy borders between textures")
          .number("weight", &R::weight)
          .range(above(0))
          .doc("base strength against the other layers")
          .effect("higher = this texture wins where rules overlap");
  return s;
}

struct splat_options {
  // The classic four: grass on gentle ground, rock on steep, sand low, snow high.
  std::vector<splat_rule> layers = {
      {"grass", std::nullopt, std::array<double, 2>{0.0, 28.0}, std::nullopt, std::nullopt, 0.25, 1.0, std::nullopt,
       std::nullopt, std::nullopt, std::nullopt, std::nullopt},
      {"rock", std::nullopt, std::array<double, 2>{34.0, 90.0}, std::nullopt, std::nullopt, 0.2, 1.0, std::nullopt,
       std::nullopt, std::nullopt, std::nullopt, std::nullopt},
      {"sand", std::array<double, 2>{0.0, 0.3}, std::array<double, 2>{0.0, 20.0}, std::nullopt, std::nullopt, 0.0, 2.0,
       std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt},
      {"snow", std::array<double, 2>{0.82, 1.0}, std::array<double, 2>{0.0, 45.0}, std::nullopt, std::nullopt, 0.3, 3.0,
       std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt}};
  double height_blend = 0.05;
  double slope_blend = 5.0;
  double flow_blend = 0.5;
  double curvature_blend = 0.002;
  double water_depth_blend = 0.5;
  double river_blend = 20.0;
  double lake_blend = 20.0;
  double ocean_blend = 20.0;
  double noise_scale = 40.0;
  flow_method flow = flow_method::d8;
  water_output_options water;
  ocean_rule ocean = ocean_rule::connected;

  [[nodiscard]] bool uses_ocean() const {
    return std::any_of(layers.begin(), layers.end(), [](const splat_rule& r) { return r.ocean.has_value(); });
  }
  [[nodiscard]] bool uses_water() const {
    for (const auto& r : layers)
      if (r.water_depth || r.river || r.lake) return true;
    return false;
  }
  [[nodiscard]] std::vector<std::string> layers_read() const {
    return uses_water() ? water.layers_read() : std::vector<std::string>{};
  }

  static const param_schema<splat_options>& schema() {
    using P = splat_options;
    static const auto s =
        param_schema<P>()
            .list_of("layers", &P::layers, rule_schema())
            .count(1, k_max_layers)
            .doc(
                "texture layers in channel order (R, G, B, A of splat_0, then splat_1...); the first is the base "
                "texture")
            .number("height_blend", &P::height_blend)
            .unit("height units")
            .range(at_least(0))
            .doc("fade width outside height ranges")
            .effect("higher = softer transitions between height bands")
            .number("slope_blend", &P::slope_blend)
            .unit("degrees")
            .range(at_least(0))
            .doc("fade width outside slope ranges")
            .effect("higher = softer transitions between slope bands (e.g. grass into rock)")
            .number("flow_blend", &P::flow_blend)
            .unit("decades")
            .range(at_least(0))
            .doc("fade width outside flow ranges (log10 cells)")
            .number("curvature_blend", &P::curvature_blend)
            .unit("1/m")
            .range(at_least(0))
            .doc("fade width outside curvature ranges")
            .number("water_depth_blend", &P::water_depth_blend)
            .unit("m")
            .range(at_least(0))
            .doc("fade width outside water_depth ranges (metres of depth)")
            .effect("higher = softer transitions from shallows to deep water")
            .number("river_blend", &P::river_blend)
            .unit("m")
            .range(at_least(0))
            .doc("fade distance outside river ranges: the weight eases to 0 this far from the nearest cell in range")
            .effect("higher = wider banks along the rivers")
            .number("lake_blend", &P::lake_blend)
            .unit("m")
            .range(at_least(0))
            .doc("fade distance outside lake rules: the weight eases to 0 this far from the nearest cell meeting it")
            .effect("higher = wider shores around the lakes")
            .number("ocean_blend", &P::ocean_blend)
            .unit("m")
            .range(at_least(0))
            .optional()
            .doc("fade distance outside ocean rules: the weight eases to 0 this far from the nearest cell meeting it")
            .effect("higher = a wider band across the coast")
            .number("noise_scale", &P::noise_scale)
            .unit("world units")
            .range(above(0))
            .doc("feature size of the breakup noise")
            .effect("higher = larger, blotchier breakup patches")
            .choice("flow_method", &P::flow, {{"d8", flow_method::d8}, {"dinf", flow_method::dinf}})
            .doc("flow routing for flow ranges: D8 or D-infinity")
            .object("water", &P::water, water_output_options::schema())
            .doc(
                "the water for water_depth, river and lake rules: the options of the water outputs (the same "
                "values give the same lakes and rivers), at the preset's sea_level (0 when not given)")
            .effect("a lower river_area = more rivers for river rules")
            .choice("ocean", &P::ocean, ocean_rule_choices())
            .optional()
            .doc(std::string(k_ocean_rule_doc) + ", for ocean rules")
            .effect(k_ocean_rule_effect);
    return s;
  }
  void check(std::vector<std::pair<std::string, std::string>>& problems) const {
    for (std::size_t k = 0; k < layers.size(); ++k) {
      if (layers[k].height && layers[k].above_sea) {
        problems.emplace_back("layers[" + std::to_string(k) + "]",
                              "gives both height and above_sea; give one (above_sea is relative to sea_level)");
      }
    }
  }
};

int splat_halo(const splat_options& o, double cell_size) {
  for (const auto& r : o.layers)
    if (r.flow) return -1;                          // flow accumulation needs the whole world
  if (o.uses_water()) return -1;                    // and so do lakes and rivers
  if (!o.uses_ocean()) return 1;                    // Horn's gradient
  if (o.ocean == ocean_rule::connected) return -1;  // and the connected ocean
  // The local ocean is per cell, its blend reaches ocean_blend metres.
  return std::max(1, static_cast<int>(std::ceil(o.ocean_blend / cell_size)));
}

// The per-cell weights of every layer over the whole field (cells x layers,
// row-major), from the maps the rules use: each computed only when used.
std::vector<float> splat_field_weights(const splat_options& o, const output_context& ctx) {
  const heightfield& h = ctx.field;
  bool need_flow = false, need_curvature = false;
  for (const auto& r : o.layers) {
    need_flow |= r.flow.has_value();
    need_curvature |= r.curvature.has_value();
  }
  const surface_gradient g = horn_gradient(h, ctx.height_scale, edge_policy::extrapolate, ctx.nthreads);
  std::vector<float> slope(h.size());
  for (std::size_t k = 0; k < h.size(); ++k) slope[k] = slope_degrees(g.east[k], g.north[k]);
  std::vector<float> flow, curvature;
  if (need_flow) flow = flow_accumulation(h, o.flow, ctx.nthreads);
  if (need_curvature)
    curvature = surface_curvature(h, ctx.height_scale, curvature_kind::profile, edge_policy::extrapolate, ctx.nthreads);
  std::shared_ptr<const water_maps> water;
  std::vector<std::uint8_t> lakes;
  if (o.uses_water()) {
    water = shared_water(o.water, ctx);
    lakes = wet_lake_cells(*water);
  }
  // The same sea level as above_sea, so [1, 1] lies inside above_sea [-1, 0].
  const double sea = ctx.sea_level.value_or(k_default_sea_level);
  std::shared_ptr<const std::vector<std::uint8_t>> ocean;
  if (o.uses_ocean()) ocean = shared_ocean(ctx, sea, o.ocean);
  std::vector<std::vector<float>> noise(o.layers.size());
  splat_inputs in;
  in.grid_width = h.width();
  in.grid_height = h.height();
  in.cell_size = h.placement().cell_size;
  if (water) {
    in.water_depth = water->depth.data();
    in.river = water->river_mask.data();
    in.lake = lakes.data();
  }
  if (ocean) in.ocean = ocean->data();
  in.count = h.size();
  in.height = h.data();
  in.slope = slope.data();
  in.flow = need_flow ? flow.data() : nullptr;
  in.curvature = need_curvature ? curvature.data() : nullptr;
  for (std::size_t r = 0; r < o.layers.size(); ++r) {
    if (o.layers[r].noise > 0.0) noise[r] = splat_breakup_noise(h, o.noise_scale, ctx.seed, r);
    in.noise.push_back(noise[r].empty() ? nullptr : noise[r].data());
  }
  // Rules over heights relative to sea level become height ranges here.
  std::vector<splat_rule> rules = o.layers;
  for (auto& r : rules) {
    if (r.above_sea) r.height = std::array<double, 2>{(*r.above_sea)[0] + sea, (*r.above_sea)[1] + sea};
  }
  return splat_weights(in, rules,
                       splat_blend{o.height_blend, o.slope_blend, o.flow_blend, o.curvature_blend, o.water_depth_blend,
                                   o.river_blend, o.lake_blend, o.ocean_blend});
}

encoded_file encode_splat(const splat_options& o, const std::string& format, const output_context& ctx) {
  const std::vector<float> full = splat_field_weights(o, ctx);
  const std::size_t layers = o.layers.size();
  const output_format& format_entry = find_output_format(format);
  const std::vector<float> weights = ctx.window(full, static_cast<int>(layers));
  std::vector<std::uint8_t> bytes;
  std::vector<std::uint16_t> words;
  if (format_entry.samples == sample_type::uint8) bytes = quantize_splat(weights, layers);
  if (format_entry.samples == sample_type::uint16) words = quantize_splat16(weights, layers);

  const std::size_t images = (layers + 3) / 4, cells = static_cast<std::size_t>(ctx.width) * ctx.height;
  std::vector<encoded_file> files(images);
  json channels = json::array();
  for (std::size_t f = 0; f < images; ++f) {
    raster r;
    r.width = ctx.width;
    r.height = ctx.height;
    r.channels = 4;
    r.deflate = ctx.deflate;
    if (format_entry.is_float()) r.f32.assign(cells * 4, 0.0f);
    if (format_entry.samples == sample_type::uint8) r.u8.assign(cells * 4, 0);
    if (format_entry.samples == sample_type::uint16) r.u16.assign(cells * 4, 0);
    for (std::size_t c = 0; c < 4 && 4 * f + c < layers; ++c) {
      const std::size_t layer = 4 * f + c;
      for (std::size_t k = 0; k < cells; ++k) {
        if (!r.u8.empty()) r.u8[4 * k + c] = bytes[k * layers + layer];
        if (!r.u16.empty()) r.u16[4 * k + c] = words[k * layers + layer];
        if (!r.f32.empty()) r.f32[4 * k + c] = weights[k * layers + layer];
      }
      channels.push_back({{"layer", o.layers[layer].name}, {"image", f}, {"channel", std::string(1, k_channels[c])}});
    }
    files[f].bytes = format_entry.write(r);
    files[f].encoding =
        format_entry.is_float()
            ? format_entry.summary + " texture weights; over all images the channels of a pixel sum to 1 (float)"
        : format_entry.bit_depth() == 16
            ? format_entry.summary + " texture weights; over all images the channels of a pixel sum to 65535"
            : "PNG RGBA 8-bit texture weights; over all images the channels of a pixel sum to 255";
  }
  for (auto& f : files) f.extra["channels"] = channels;
  encoded_file first = std::move(files.front());
  first.numbered = true;
  first.more_files.assign(std::make_move_iterator(files.begin() + 1), std::make_move_iterator(files.end()));
  return first;
}

}  // namespace

output_kind splat_output_kind() {
  output_kind kind = make_output_kind<splat_options>(
      "splat", "texture weight maps from height, slope, flow, curvature and water rules, RGBA8 (or RGBA16, EXR)",
      "Each layer rule multiplies smooth range factors (1 inside, fading to 0 over the blend width) and a noise "
      "breakup; weights are normalised per cell (a cell no rule covers goes to the first layer) and quantised so "
      "the channels of all images sum to exactly 255. Four layers per image: R, G, B, A of splat_0.png, then "
      "splat_1.png. rgba16 sums to 65535 instead; exr stores the float weights (summing to 1). Flow ranges need the "
      "whole world. Water rules (water_depth, river, lake) use the water of the water outputs with the `water` "
      "options at the preset's sea_level (0 when not given), computed once per build; they need the whole world "
      "too. River and lake rules fade with the distance to the nearest cell meeting them (river_blend, "
      "lake_blend, in metres). Ocean rules (`ocean`: [1, 1] on the sea, [0, 0] off it) use the ocean at the "
      "same sea level as above_sea, by the output's `ocean` rule: connected (the default; the water outputs' sea, "
      "an inland basin below sea level is not ocean; needs the whole world) or below_sea_level (every cell below "
      "it; local, halo ceil(ocean_blend / cell_size)); they fade over ocean_blend metres.",
      {"rgba8", "rgba16", "exr"}, &splat_halo, &encode_splat);
  kind.file_count = [](const json& options) {
    return std::max<std::size_t>(1, (splat_options::schema().parse(options).layers.size() + 3) / 4);
  };
  return kind;
}

}  // namespace landform
