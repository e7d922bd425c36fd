// The `ocean` option of the colour and texture outputs: the water outputs'
// connected sea, or every cell below sea level.

#include "landform/outputs/ocean_rule.hpp"

#include <algorithm>
#include <sstream>

#include "landform/derive/water.hpp"

namespace landform {

const std::vector<std::pair<std::string, ocean_rule>>& ocean_rule_choices() {
  static const std::vector<std::pair<std::string, ocean_rule>> choices = {
      {"connected", ocean_rule::connected}, {"below_sea_level", ocean_rule::below_sea_level}};
  return choices;
}

namespace {

std::vector<std::uint8_t> below(const heightfield& h, double sea_level) {
  std::vector<std::uint8_t> out(h.size());
  for (std::size_t c = 0; c < h.size(); ++c) out[c] = static_cast<double>(h.values()[c]) < sea_level ? 1 : 0;
  return out;
}

}  // namespace

std::shared_ptr<const std::vector<std::uint8_t>> shared_ocean(const output_context& ctx, double sea_level,
                                                              ocean_rule rule) {
  auto compute = [&] {
    return rule == ocean_rule::connected ? find_ocean(ctx.field, sea_level) : below(ctx.field, sea_level);
  };
  if (ctx.cache == nullptr) return std::make_shared<const std::vector<std::uint8_t>>(compute());
  // The exact bits of the sea level in the key: two values that print alike
  // must not share an ocean.
  std::ostringstream key;
  key << "ocean " << (rule == ocean_rule::connected ? "connected " : "below ") << std::hexfloat << sea_level;
  return ctx.cache->get<std::vector<std::uint8_t>>(key.str(), compute);
}

std::vector<std::uint8_t> ocean_window(const output_context& ctx, double sea_level, ocean_rule rule) {
  const auto full = shared_ocean(ctx, sea_level, rule);
  const auto field_width = static_cast<std::size_t>(ctx.field.width());
  std::vector<std::uint8_t> out(static_cast<std::size_t>(ctx.width) * static_cast<std::size_t>(ctx.height));
  for (int j = 0; j < ctx.height; ++j) {
    const std::size_t from = static_cast<std::size_t>(ctx.y0 + j) * field_width + static_cast<std::size_t>(ctx.x0);
    std::copy_n(
        full->begin() + static_cast<std::ptrdiff_t>(from), ctx.width,
        out.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(j) * static_cast<std::size_t>(ctx.width)));
  }
  return out;
}

}  // namespace landform
