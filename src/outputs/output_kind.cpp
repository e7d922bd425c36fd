#include "landform/outputs/output_kind.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace landform {

std::vector<float> output_context::window(const std::vector<float>& full, int channels) const {
  std::vector<float> out(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) *
                         static_cast<std::size_t>(channels));
  const auto stride = static_cast<std::size_t>(field.width()) * static_cast<std::size_t>(channels);
  const auto row_values = static_cast<std::size_t>(width) * static_cast<std::size_t>(channels);
  for (int j = 0; j < height; ++j) {
    const float* src = full.data() + static_cast<std::size_t>(y0 + j) * stride +
                       static_cast<std::size_t>(x0) * static_cast<std::size_t>(channels);
    std::copy(src, src + row_values, out.data() + static_cast<std::size_t>(j) * row_values);
  }
  return out;
}

std::vector<float> output_context::take_window(std::vector<float>&& full, int channels) const {
  if (whole_field()) return std::move(full);
  std::vector<float> out = window(full, channels);
  std::vector<float>().swap(full);
  return out;
}

georeference output_context::placement() const {
  const region& r = field.placement();
  return {r.world_x(x0), r.world_y(y0), r.cell_size};
}

file_settings output_context::write_settings() const {
  return {png_text, placement(), deflate, stream};
}

void output_registry::add(output_kind kind) {
  const std::string name = kind.name;
  if (!m_kinds.emplace(name, std::move(kind)).second) {
    throw std::logic_error("output_registry: duplicate output kind '" + name + "'");
  }
}

const output_kind* output_registry::find(const std::string& name) const {
  auto it = m_kinds.find(name);
  return it == m_kinds.end() ? nullptr : &it->second;
}

std::vector<const output_kind*> output_registry::all() const {
  std::vector<const output_kind*> out;
  for (const auto& [name, kind] : m_kinds) out.push_back(&kind);
  return out;
}

std::vector<std::string> output_registry::names() const {
  std::vector<std::string> out;
  for (const auto& [name, kind] : m_kinds) out.push_back(name);
  return out;
}

const output_registry& builtin_outputs() {
  static const output_registry registry = [] {
    output_registry r;
    register_builtin_outputs(r);
    return r;
  }();
  return registry;
}

namespace {

std::string number_text(double v) {
  std::ostringstream s;
  s.precision(9);
  s << v;
  return s.str();
}

// The scalar format `format`, or std::invalid_argument.
const output_format& scalar_format(const std::string& format) {
  const output_format& f = find_output_format(format);
  if (!f.takes_channels(1))
    throw std::invalid_argument("encode_scalar: format '" + format + "' is not a scalar format");
  return f;
}

// A scalar map in a float format: its file and manifest text.
encoded_file float_file(encoded_raster e, const output_format& f, const std::string& meaning) {
  encoded_file out;
  out.bytes = std::move(e.bytes);
  out.streamed = e.streamed;
  out.clipped = e.clipped;
  // ostringstream rather than operator+: GCC 12 warns falsely (-Wrestrict,
  // PR105329) on some string concatenations.
  std::ostringstream encoding;
  encoding << f.summary << ", " << meaning
           << (f.samples == sample_type::float16 ? ", rounded to the nearest half, clamped to +-65504"
                                                 : ", unquantised");
  out.encoding = encoding.str();
  return out;
}

// A scalar map quantised from [lo, hi]: its file and manifest text.
encoded_file quantised_file(encoded_raster q, const output_format& f, const std::string& meaning, double lo,
                            double hi) {
  encoded_file out;
  out.clipped = q.clipped;
  out.bytes = std::move(q.bytes);
  out.streamed = q.streamed;
  std::ostringstream encoding;
  encoding << f.summary << ", value = round((" << meaning << " - lo) / (hi - lo) * " << ((1 << f.bit_depth()) - 1)
           << ")";
  encoding << ", lo = " << number_text(lo) << ", hi = " << number_text(hi);
  out.encoding = encoding.str();
  out.extra["value_range"] = {lo, hi};
  return out;
}

}  // namespace

encoded_file encode_scalar(std::span<const float> values, int width, int height, const std::string& format, double lo,
                           double hi, const std::string& meaning, const file_settings& settings) {
  const output_format& f = scalar_format(format);
  if (f.is_float()) return float_file(encode_samples_in_place(values, width, height, 1, f, settings), f, meaning);
  // [0, 1] maps to itself bit for bit ((v - 0.0) / 1.0 in double is v).
  if (lo == 0.0 && hi == 1.0) {
    return quantised_file(encode_samples_in_place(values, width, height, 1, f, settings), f, meaning, lo, hi);
  }
  return encode_scalar(std::vector<float>(values.begin(), values.end()), width, height, format, lo, hi, meaning,
                       settings);
}

encoded_file encode_scalar(std::vector<float> values, int width, int height, const std::string& format, double lo,
                           double hi, const std::string& meaning, const file_settings& settings) {
  const output_format& f = scalar_format(format);
  if (f.is_float()) return float_file(encode_samples_in_place(values, width, height, 1, f, settings), f, meaning);
  // Map [lo, hi] to [0, 1] in place; an empty range (flat map) maps
  // everything to 0; NaN stays NaN.
  const double span = hi - lo;
  for (float& v : values) {
    if (!std::isnan(v)) v = span > 0.0 ? static_cast<float>((v - lo) / span) : 0.0f;
  }
  return quantised_file(encode_samples_in_place(values, width, height, 1, f, settings), f, meaning, lo, hi);
}

namespace {

struct layer_options {
  enum class scaling { min_max, fixed };
  scaling range = scaling::min_max;
  double min = 0.0;
  double max = 1.0;
  static const param_schema<layer_options>& schema() {
    using P = layer_options;
    static const auto s =
        param_schema<P>()
            .choice("range", &P::range, {{"min_max", P::scaling::min_max}, {"fixed", P::scaling::fixed}})
            .doc("quantised formats: stretch the layer's own min..max, or use min and max")
            .number("min", &P::min)
            .unit("layer units")
            .doc("fixed range: value written as 0")
            .number("max", &P::max)
            .unit("layer units")
            .doc("fixed range: value written as full scale");
    return s;
  }
  // An empty or inverted fixed range would write every cell as 0.
  void check(std::vector<std::pair<std::string, std::string>>& problems) const {
    if (range == scaling::fixed && !(min < max)) {
      problems.emplace_back("max", json(max).dump() + " must be greater than min " + json(min).dump() +
                                       " (range \"fixed\" stretches min..max to full scale)");
    }
  }
};

int layer_halo(const layer_options&, double) {
  return 0;
}

encoded_file encode_layer(const layer_options& o, const std::string& format, const output_context& ctx) {
  if (!ctx.layer) throw std::logic_error("encode_layer: no layer given");
  const std::vector<float> values = ctx.window(*ctx.layer);
  double lo = o.min, hi = o.max;
  if (o.range == layer_options::scaling::min_max && !values.empty()) {
    const auto [mn, mx] = std::minmax_element(values.begin(), values.end());
    lo = *mn;
    hi = *mx;
  }
  return encode_scalar(values, ctx.width, ctx.height, format, lo, hi, "layer value", ctx.write_settings());
}

}  // namespace

const output_kind& layer_output_kind() {
  static const output_kind kind = make_output_kind<layer_options>(
      "layer", "a side layer written by a stage (e.g. hydraulic erosion's eroded amount)",
      "Writes a named layer that a stage produced. r32 stores the values; quantised formats stretch the "
      "layer's min..max (or the given fixed range) to full scale.",
      {"r32", "png16", "png8", "raw16", "tiff16", "tiff32", "exr", "exr16"}, &layer_halo, &encode_layer);
  return kind;
}

}  // namespace landform
