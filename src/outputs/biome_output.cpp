#include "landform/outputs/biome_output.hpp"

#include <algorithm>

#include "landform/core/parallel.hpp"
#include "landform/derive/biome.hpp"
#include "landform/io/encode.hpp"

namespace landform {

const param_schema<biome_output_options>& biome_output_options::schema() {
  using P = biome_output_options;
  static const auto s = param_schema<P>()
                            .number("sea_level", &P::sea_level)
                            .unit("height units")
                            .range(strictly_between(0, 1))
                            .doc(
                                "heights below are water; e = 0 here, -1 at height 0 and 1 at height 1; the preset's "
                                "top-level sea_level replaces it when given")
                            .layer("moisture_layer", &P::moisture_layer)
                            .fallback()
                            .doc(
                                "layer with moisture in [0, 1] (voronoi writes \"moisture\"); when the default layer "
                                "is not written, default_moisture applies")
                            .number("default_moisture", &P::default_moisture)
                            .range(between(0, 1))
                            .doc("moisture where no stage wrote the layer")
                            .number_list("deep_water", &P::deep_water)
                            .count(3, 3)
                            .unit("RGB")
                            .range(between(0, 255))
                            .doc("water colour at height 0")
                            .number_list("shallow_water", &P::shallow_water)
                            .count(3, 3)
                            .unit("RGB")
                            .range(between(0, 255))
                            .doc("water colour at sea level")
                            .number_list("dry_land", &P::dry_land)
                            .count(3, 3)
                            .unit("RGB")
                            .range(between(0, 255))
                            .doc("land colour at moisture 0")
                            .number_list("wet_land", &P::wet_land)
                            .count(3, 3)
                            .unit("RGB")
                            .range(between(0, 255))
                            .doc("land colour at moisture 1")
                            .number_list("snow", &P::snow)
                            .count(3, 3)
                            .unit("RGB")
                            .range(between(0, 255))
                            .doc("colour of the highest land")
                            .number("snow_exponent", &P::snow_exponent)
                            .range(above(0))
                            .doc("land blends toward snow by e^snow_exponent")
                            .choice("ocean", &P::ocean, ocean_rule_choices())
                            .optional()
                            .doc(k_ocean_rule_doc)
                            .effect(k_ocean_rule_effect);
  return s;
}

namespace {

std::array<double, 3> rgb_of(const std::vector<double>& v) {
  return {v[0], v[1], v[2]};
}

biome_palette palette_of(const biome_output_options& o, const output_context& ctx) {
  biome_palette p;
  p.sea_level = ctx.sea_level.value_or(o.sea_level);
  p.default_moisture = o.default_moisture;
  p.deep_water = rgb_of(o.deep_water);
  p.shallow_water = rgb_of(o.shallow_water);
  p.dry_land = rgb_of(o.dry_land);
  p.wet_land = rgb_of(o.wet_land);
  p.snow = rgb_of(o.snow);
  p.snow_exponent = o.snow_exponent;
  return p;
}

// The connected ocean needs the whole world; the local rule is per cell.
int biome_halo(const biome_output_options& o, double) {
  return o.ocean == ocean_rule::connected ? -1 : 0;
}

encoded_file encode_biome(const biome_output_options& o, const std::string&, const output_context& ctx) {
  const std::vector<float> heights = ctx.window(ctx.field.values());
  const std::vector<float>* layer = ctx.layers.find(o.moisture_layer);
  std::vector<float> moisture;
  if (layer) moisture = ctx.window(*layer);
  const auto cells = static_cast<std::size_t>(ctx.width) * static_cast<std::size_t>(ctx.height);
  std::vector<std::uint8_t> rgb(cells * 3);
  const biome_palette palette = palette_of(o, ctx);
  const std::vector<std::uint8_t> ocean = ocean_window(ctx, palette.sea_level, o.ocean);
  parallel_rows(ctx.height, ctx.nthreads, [&](int y0, int y1) {
    for (int j = y0; j < y1; ++j) {
      for (int i = 0; i < ctx.width; ++i) {
        const std::size_t k =
            static_cast<std::size_t>(j) * static_cast<std::size_t>(ctx.width) + static_cast<std::size_t>(i);
        const double m = layer ? moisture[k] : o.default_moisture;
        const auto c = ocean[k] ? biome_color(palette, heights[k], m) : biome_land_color(palette, heights[k], m);
        std::copy(c.begin(), c.end(), rgb.begin() + static_cast<std::ptrdiff_t>(3 * k));
      }
    }
  });
  encoded_file out;
  if (ctx.stream) {
    stream_png(ctx.width, ctx.height, 3, rgb.data(), ctx.stream, {}, ctx.deflate);
    out.streamed = true;
  } else {
    out.bytes = encode_png_rgb8(ctx.width, ctx.height, rgb.data(), ctx.deflate);
  }
  out.encoding = "PNG RGB 8-bit, biome colours from height and moisture (seed document 002)";
  out.extra = {{"moisture_layer", o.moisture_layer},
               {"moisture_found", layer != nullptr},
               {"sea_level", palette.sea_level},
               {"ocean", o.ocean == ocean_rule::connected ? "connected" : "below_sea_level"}};
  return out;
}

}  // namespace

output_kind biome_output_kind() {
  return make_output_kind<biome_output_options>(
      "biome", "biome colours from height and moisture (seed 002)",
      "Seed document 002's biomeColor(): on the ocean, water from shallow_water at the shore to deep_water at "
      "height 0; above sea level, land from dry_land to wet_land by moisture * (1 - e), blended toward snow by "
      "e^snow_exponent, e being the height above sea level as a fraction of the way to 1. Moisture comes from "
      "the layer `moisture_layer` (the voronoi stage writes `moisture`), or default_moisture when no stage wrote "
      "it. Every colour can be overridden as [r, g, b]; channels are truncated to integers as in the seed. The ocean "
      "is, "
      "by `ocean`, the cells below sea level connected to the world's border (connected, the default: the water "
      "outputs' sea; a region build computes the whole world for it) or every cell below sea level "
      "(below_sea_level: local, the behaviour before). A cell below sea level that is not ocean (an inland "
      "basin) takes the lowest land colour, as at sea level (e = 0: dry_land to wet_land by its moisture).",
      {"rgb8"}, &biome_halo, &encode_biome);
}

}  // namespace landform
