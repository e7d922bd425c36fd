#include "landform/derive/splat.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "landform/core/rng.hpp"
#include "landform/derive/distance.hpp"
#include "landform/noise/open_simplex_legacy.hpp"

namespace landform {

namespace {

// 1 inside [lo, hi]; a smoothstep down to 0 at `width` outside.
double range_factor(double v, const std::array<double, 2>& range, double width) {
  const double lo = range[0], hi = range[1];
  if (v >= lo && v <= hi) return 1.0;
  const double distance = v < lo ? lo - v : v - hi;
  if (width <= 0.0 || distance >= width) return 0.0;
  const double t = 1.0 - distance / width;
  return t * t * (3.0 - 2.0 * t);
}

double log_flow(double cells) {
  return std::log10(std::max(cells, 1.0));
}

// 1 on the cells `meets` flags; a smoothstep down to 0 at `width` metres from
// the nearest of them (0 everywhere when none does).
std::vector<float> distance_factor(const std::vector<std::uint8_t>& meets, const splat_inputs& in, double width) {
  std::vector<float> out(meets.size(), 0.0f);
  if (width <= 0.0) {
    for (std::size_t k = 0; k < meets.size(); ++k) out[k] = meets[k] != 0 ? 1.0f : 0.0f;
    return out;
  }
  if (in.grid_width <= 0 || in.grid_height <= 0 ||
      static_cast<std::size_t>(in.grid_width) * static_cast<std::size_t>(in.grid_height) != in.count) {
    throw std::invalid_argument(
        "splat_weights: river, lake and ocean blends need the grid (grid_width x grid_height = count)");
  }
  const std::vector<double> d = chamfer_distance(meets, in.grid_width, in.grid_height, in.cell_size);
  for (std::size_t k = 0; k < d.size(); ++k) {
    if (d[k] >= width) continue;
    const double t = 1.0 - d[k] / width;
    out[k] = static_cast<float>(t * t * (3.0 - 2.0 * t));
  }
  return out;
}

// The distance factor of a rule over a 0/1 mask (lake, ocean): the cells
// whose mask value (0 or 1) lies in `range` meet it.
std::vector<float> mask_factor(const std::array<double, 2>& range, const std::uint8_t* mask, const splat_inputs& in,
                               double width) {
  std::vector<std::uint8_t> meets(in.count);
  for (std::size_t k = 0; k < in.count; ++k) {
    const double v = mask[k] != 0 ? 1.0 : 0.0;
    meets[k] = v >= range[0] && v <= range[1] ? 1 : 0;
  }
  return distance_factor(meets, in, width);
}

// `factor` times `f` (or `f` when `factor` is still empty: no factor yet).
void multiply_into(std::vector<float>& factor, std::vector<float>&& f) {
  if (factor.empty()) {
    factor = std::move(f);
    return;
  }
  for (std::size_t k = 0; k < factor.size(); ++k) factor[k] *= f[k];
}

// The river, lake and ocean factors of one rule (empty when it gives none).
std::vector<float> water_factor(const splat_rule& rule, const splat_inputs& in, const splat_blend& blend) {
  std::vector<float> factor;
  if (rule.river) {
    if (in.river == nullptr) throw std::invalid_argument("splat_weights: rule " + rule.name + " needs river coverage");
    std::vector<std::uint8_t> meets(in.count);
    const double lo = (*rule.river)[0], hi = (*rule.river)[1];
    for (std::size_t k = 0; k < in.count; ++k) meets[k] = in.river[k] >= lo && in.river[k] <= hi ? 1 : 0;
    factor = distance_factor(meets, in, blend.river);
  }
  if (rule.lake) {
    if (in.lake == nullptr) throw std::invalid_argument("splat_weights: rule " + rule.name + " needs the lake mask");
    multiply_into(factor, mask_factor(*rule.lake, in.lake, in, blend.lake));
  }
  if (rule.ocean) {
    if (in.ocean == nullptr) throw std::invalid_argument("splat_weights: rule " + rule.name + " needs the ocean mask");
    multiply_into(factor, mask_factor(*rule.ocean, in.ocean, in, blend.ocean));
  }
  return factor;
}

}  // namespace

std::vector<float> splat_weights(const splat_inputs& in, const std::vector<splat_rule>& rules,
                                 const splat_blend& blend) {
  const std::size_t layers = rules.size();
  std::vector<float> out(in.count * layers, 0.0f);
  std::vector<std::vector<float>> water(layers);
  for (std::size_t r = 0; r < layers; ++r) {
    if (rules[r].water_depth && in.water_depth == nullptr) {
      throw std::invalid_argument("splat_weights: rule " + rules[r].name + " needs water depths");
    }
    water[r] = water_factor(rules[r], in, blend);
  }
  for (std::size_t k = 0; k < in.count; ++k) {
    double total = 0.0;
    float* w = out.data() + k * layers;
    for (std::size_t r = 0; r < layers; ++r) {
      const splat_rule& rule = rules[r];
      double v = rule.weight;
      if (rule.height) v *= range_factor(in.height[k], *rule.height, blend.height);
      if (rule.slope) v *= range_factor(in.slope[k], *rule.slope, blend.slope);
      if (rule.flow) {
        const std::array<double, 2> decades = {log_flow((*rule.flow)[0]), log_flow((*rule.flow)[1])};
        v *= range_factor(log_flow(in.flow[k]), decades, blend.flow);
      }
      if (rule.curvature) v *= range_factor(in.curvature[k], *rule.curvature, blend.curvature);
      if (rule.water_depth) v *= range_factor(in.water_depth[k], *rule.water_depth, blend.water_depth);
      if (!water[r].empty()) v *= water[r][k];
      if (rule.noise > 0.0 && r < in.noise.size() && in.noise[r]) v *= std::max(0.0, 1.0 + rule.noise * in.noise[r][k]);
      w[r] = static_cast<float>(v);
      total += v;
    }
    if (total > 0.0) {
      for (std::size_t r = 0; r < layers; ++r) w[r] = static_cast<float>(w[r] / total);
    } else if (layers > 0) {
      w[0] = 1.0f;  // nothing claims the cell: the base texture does
    }
  }
  return out;
}

namespace {

// Largest-remainder rounding of every cell's weights to integers summing to
// exactly `full` (255 or 65535).
template <class T>
std::vector<T> quantize_weights(const std::vector<float>& weights, std::size_t layers, int full) {
  std::vector<T> out(weights.size());
  if (layers == 0) return out;
  std::vector<std::size_t> order(layers);
  std::vector<double> remainder(layers);
  for (std::size_t k = 0; k + layers <= weights.size(); k += layers) {
    int given = 0;
    for (std::size_t r = 0; r < layers; ++r) {
      const double exact = static_cast<double>(full) * weights[k + r];
      const double whole = std::floor(exact);
      out[k + r] = static_cast<T>(whole);
      remainder[r] = exact - whole;
      given += static_cast<int>(whole);
    }
    // Hand the missing units to the largest remainders (ties: lower layer).
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return remainder[a] > remainder[b]; });
    for (std::size_t i = 0; given < full && i < layers; ++i, ++given) ++out[k + order[i]];
  }
  return out;
}

}  // namespace

std::vector<std::uint8_t> quantize_splat(const std::vector<float>& weights, std::size_t layers) {
  return quantize_weights<std::uint8_t>(weights, layers, 255);
}

std::vector<std::uint16_t> quantize_splat16(const std::vector<float>& weights, std::size_t layers) {
  return quantize_weights<std::uint16_t>(weights, layers, 65535);
}

std::vector<float> splat_breakup_noise(const heightfield& h, double scale, std::int64_t seed, std::size_t rule) {
  const open_simplex_legacy noise(static_cast<std::int64_t>(hash64(static_cast<std::uint64_t>(seed), 0x5b1a7, rule)));
  std::vector<float> out(h.size());
  const region& r = h.placement();
  for (int j = 0; j < h.height(); ++j)
    for (int i = 0; i < h.width(); ++i)
      out[static_cast<std::size_t>(j) * h.width() + i] =
          static_cast<float>(noise.eval(r.world_x(i) / scale, r.world_y(j) / scale));
  return out;
}

}  // namespace landform
