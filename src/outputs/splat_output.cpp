// "splat": texture weight maps from rules, packed RGBA8 (the layout terrain
// splatting in jMonkeyEngine, Unity and Unreal reads).

#include "landform/outputs/splat_output.hpp"

#include <cmath>

#include "landform/derive/flow.hpp"
#include "landform/derive/splat.hpp"
#include "landform/derive/surface.hpp"
#include "landform/io/encode.hpp"

namespace landform {

namespace {

constexpr std::size_t k_max_layers = 16;
const char* const k_channels = "rgba";
const std::vector<std::string> k_rule_keys = {"name", "height", "slope", "flow", "curvature", "noise", "weight"};

std::string show(const json& v) {
  std::string s = v.dump();
  return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}

std::string check_range_pair(const json& v) {
  if (!v.is_array() || v.size() != 2 || !v[0].is_number() || !v[1].is_number()) return show(v) + " must be [low, high]";
  if (!(v[0].get<double>() <= v[1].get<double>())) return show(v) + " must have low <= high";
  return {};
}

std::string check_rule(const json& rule, std::size_t index) {
  std::string where = "layer " + std::to_string(index);
  if (!rule.is_object()) return where + ": " + show(rule) + " must be an object {\"name\", ranges...}";
  if (!rule.contains("name") || !rule["name"].is_string() || rule["name"].get<std::string>().empty()) {
    return where + ": needs a \"name\"";
  }
  where += " (" + rule["name"].get<std::string>() + ")";
  for (const auto& [key, value] : rule.items()) {
    if (key == "name") continue;
    if (key == "height" || key == "slope" || key == "flow" || key == "curvature") {
      if (auto problem = check_range_pair(value); !problem.empty()) return where + "." + key + ": " + problem;
    } else if (key == "noise") {
      if (!value.is_number() || value.get<double>() < 0.0 || value.get<double>() > 1.0) {
        return where + ".noise: " + show(value) + " must be a number from 0 to 1";
      }
    } else if (key == "weight") {
      if (!value.is_number() || !(value.get<double>() > 0.0)) return where + ".weight: " + show(value) + " must be > 0";
    } else {
      std::string message = where + "." + key + ": unknown key";
      if (auto guess = did_you_mean(key, k_rule_keys)) message += "; did you mean \"" + *guess + "\"?";
      return message;
    }
  }
  return {};
}

std::string check_rules(const json& v) {
  if (!v.is_array() || v.empty()) return show(v) + " must be a non-empty list of layer rules";
  if (v.size() > k_max_layers) return "at most 16 layers (four RGBA images)";
  for (std::size_t k = 0; k < v.size(); ++k) {
    if (auto problem = check_rule(v[k], k); !problem.empty()) return problem;
  }
  return {};
}

std::optional<std::array<double, 2>> read_pair(const json& rule, const char* key) {
  if (!rule.contains(key)) return std::nullopt;
  return std::array<double, 2>{rule[key][0].get<double>(), rule[key][1].get<double>()};
}

std::vector<splat_rule> parse_rules(const json& v) {
  std::vector<splat_rule> rules;
  for (const json& r : v) {
    splat_rule rule;
    rule.name = r["name"].get<std::string>();
    rule.height = read_pair(r, "height");
    rule.slope = read_pair(r, "slope");
    rule.flow = read_pair(r, "flow");
    rule.curvature = read_pair(r, "curvature");
    rule.noise = r.value("noise", 0.0);
    rule.weight = r.value("weight", 1.0);
    rules.push_back(rule);
  }
  return rules;
}

json rules_to_json(const std::vector<splat_rule>& rules) {
  json out = json::array();
  for (const auto& r : rules) {
    json j = {{"name", r.name}, {"noise", r.noise}, {"weight", r.weight}};
    if (r.height) j["height"] = *r.height;
    if (r.slope) j["slope"] = *r.slope;
    if (r.flow) j["flow"] = *r.flow;
    if (r.curvature) j["curvature"] = *r.curvature;
    out.push_back(j);
  }
  return out;
}

struct splat_options {
  // The classic four: grass on gentle ground, rock on steep, sand low, snow high.
  std::vector<splat_rule> layers = {
      {"grass", std::nullopt, std::array<double, 2>{0.0, 28.0}, std::nullopt, std::nullopt, 0.25, 1.0},
      {"rock", std::nullopt, std::array<double, 2>{34.0, 90.0}, std::nullopt, std::nullopt, 0.2, 1.0},
      {"sand", std::array<double, 2>{0.0, 0.3}, std::array<double, 2>{0.0, 20.0}, std::nullopt, std::nullopt, 0.0, 2.0},
      {"snow", std::array<double, 2>{0.82, 1.0}, std::array<double, 2>{0.0, 45.0}, std::nullopt, std::nullopt, 0.3,
       3.0}};
  double height_blend = 0.05;
  double slope_blend = 5.0;
  double flow_blend = 0.5;
  double curvature_blend = 0.002;
  double noise_scale = 40.0;
  flow_method flow = flow_method::d8;

  static const param_schema<splat_options>& schema() {
    using P = splat_options;
    static const auto s =
        param_schema<P>()
            .custom<std::vector<splat_rule>>(
                "layers", &P::layers, "list of layer rules",
                "1 to 16 rules {name, height, slope, flow, curvature: [low, high], noise: 0..1, weight: > 0}",
                &check_rules, &parse_rules, &rules_to_json,
                "texture layers in channel order (R, G, B, A of splat_0, then splat_1...); the first is the base "
                "texture")
            .number("height_blend", &P::height_blend, at_least(0), "height units", "fade width outside height ranges")
            .number("slope_blend", &P::slope_blend, at_least(0), "degrees", "fade width outside slope ranges")
            .number("flow_blend", &P::flow_blend, at_least(0), "decades",
                    "fade width outside flow ranges (log10 cells)")
            .number("curvature_blend", &P::curvature_blend, at_least(0), "1/m", "fade width outside curvature ranges")
            .number("noise_scale", &P::noise_scale, above(0), "world units", "feature size of the breakup noise")
            .choice("flow_method", &P::flow, {{"d8", flow_method::d8}, {"dinf", flow_method::dinf}},
                    "flow routing for flow ranges: D8 or D-infinity");
    return s;
  }
};

int splat_halo(const splat_options& o, double) {
  for (const auto& r : o.layers)
    if (r.flow) return -1;  // flow accumulation needs the whole world
  return 1;
}

encoded_file encode_splat(const splat_options& o, const std::string&, const output_context& ctx) {
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
  std::vector<std::vector<float>> noise(o.layers.size());
  splat_inputs in;
  in.count = h.size();
  in.height = h.data();
  in.slope = slope.data();
  in.flow = need_flow ? flow.data() : nullptr;
  in.curvature = need_curvature ? curvature.data() : nullptr;
  for (std::size_t r = 0; r < o.layers.size(); ++r) {
    if (o.layers[r].noise > 0.0) noise[r] = splat_breakup_noise(h, o.noise_scale, ctx.seed, r);
    in.noise.push_back(noise[r].empty() ? nullptr : noise[r].data());
  }
  const std::vector<float> full =
      splat_weights(in, o.layers, splat_blend{o.height_blend, o.slope_blend, o.flow_blend, o.curvature_blend});
  const std::size_t layers = o.layers.size();
  const std::vector<std::uint8_t> bytes = quantize_splat(ctx.window(full, static_cast<int>(layers)), layers);

  const std::size_t images = (layers + 3) / 4, cells = static_cast<std::size_t>(ctx.width) * ctx.height;
  std::vector<encoded_file> files(images);
  json channels = json::array();
  for (std::size_t f = 0; f < images; ++f) {
    std::vector<std::uint8_t> rgba(cells * 4, 0);
    for (std::size_t c = 0; c < 4 && 4 * f + c < layers; ++c) {
      const std::size_t layer = 4 * f + c;
      for (std::size_t k = 0; k < cells; ++k) rgba[4 * k + c] = bytes[k * layers + layer];
      channels.push_back({{"layer", o.layers[layer].name}, {"image", f}, {"channel", std::string(1, k_channels[c])}});
    }
    files[f].bytes = encode_png_rgba8(ctx.width, ctx.height, rgba.data());
    files[f].encoding = "PNG RGBA 8-bit texture weights; over all images the channels of a pixel sum to 255";
  }
  for (auto& f : files) f.extra["channels"] = channels;
  encoded_file first = std::move(files.front());
  first.numbered = true;
  first.more_files.assign(std::make_move_iterator(files.begin() + 1), std::make_move_iterator(files.end()));
  return first;
}

}  // namespace

output_kind splat_output_kind() {
  return make_output_kind<splat_options>(
      "splat", "texture weight maps from height, slope, flow and curvature rules, RGBA8",
      "Each layer rule multiplies smooth range factors (1 inside, fading to 0 over the blend width) and a noise "
      "breakup; weights are normalised per cell (a cell no rule covers goes to the first layer) and quantised so "
      "the channels of all images sum to exactly 255. Four layers per image: R, G, B, A of splat_0.png, then "
      "splat_1.png. Flow ranges need the whole world.",
      {"rgba8"}, &splat_halo, &encode_splat);
}

}  // namespace landform
