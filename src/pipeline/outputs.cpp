#include "landform/pipeline/outputs.hpp"

#include <algorithm>
#include <set>

#include "landform/io/encode.hpp"
#include "landform/io/quantize.hpp"
#include "landform/io/sha256.hpp"
#include "landform/version.hpp"

namespace landform {

namespace {

const std::vector<std::string> k_output_keys = {"map", "format", "file"};

struct format_info {
  const char* name;
  const char* extension;
  const char* encoding;  // for the manifest
  const char* byte_order;
};

const std::vector<format_info> k_height_formats = {
    {"png16", "png", "PNG greyscale, 16-bit, value = round(height * 65535), no gamma chunk", "big-endian"},
    {"png8", "png", "PNG greyscale, 8-bit, value = round(height * 255)", "n/a"},
    {"raw16", "raw", "headerless uint16, value = round(height * 65535)", "little-endian"},
    {"r32", "r32", "headerless IEEE-754 float32 heights, unquantised", "little-endian"},
};

const format_info* find_format(const std::string& name) {
  for (const auto& f : k_height_formats)
    if (name == f.name) return &f;
  return nullptr;
}

// A file name must stay inside the output directory.
std::string check_file_name(const std::string& file) {
  if (file.empty()) return "must not be empty";
  if (file.front() == '/' || file.front() == '\\') return "\"" + file + "\" must be relative to the output directory";
  if (file.back() == '/') return "\"" + file + "\" names a directory, not a file";
  std::size_t start = 0;
  while (start <= file.size()) {
    const std::size_t end = std::min(file.find('/', start), file.size());
    if (file.compare(start, end - start, "..") == 0 && end - start == 2) {
      return "\"" + file + "\" must not leave the output directory (no \"..\")";
    }
    start = end + 1;
  }
  if (file == "manifest.json") return "\"manifest.json\" is reserved for the build manifest";
  return {};
}

std::string show(const json& v) {
  std::string s = v.dump();
  return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}

}  // namespace

std::vector<std::string> output_maps() { return {"height"}; }

std::vector<std::string> output_formats(const std::string& map) {
  std::vector<std::string> out;
  if (map == "height")
    for (const auto& f : k_height_formats) out.emplace_back(f.name);
  return out;
}

std::string default_output_file(const std::string& map, const std::string& format) {
  const format_info* f = find_format(format);
  return map + "." + (f ? f->extension : format);
}

std::vector<output_spec> check_outputs(const json& outputs, std::vector<preset_issue>& issues) {
  std::vector<output_spec> specs;
  if (!outputs.is_array()) {
    issues.push_back({"outputs", show(outputs) + " must be an array of {\"map\", \"format\", \"file\"}"});
    return specs;
  }
  std::set<std::string> files;
  for (std::size_t k = 0; k < outputs.size(); ++k) {
    const std::string path = "outputs[" + std::to_string(k) + "]";
    const json& o = outputs[k];
    if (!o.is_object()) {
      issues.push_back({path, show(o) + " must be an object with \"map\", \"format\" and \"file\""});
      continue;
    }
    const std::size_t before = issues.size();
    for (const auto& [key, value] : o.items()) {
      if (std::find(k_output_keys.begin(), k_output_keys.end(), key) != k_output_keys.end()) continue;
      std::string message = "unknown key";
      if (auto guess = did_you_mean(key, k_output_keys)) message += "; did you mean \"" + *guess + "\"?";
      issues.push_back({path + "." + key, message});
    }
    output_spec spec;
    spec.map = o.value("map", json("height")).is_string() ? o.value("map", std::string("height")) : "";
    const auto maps = output_maps();
    if (std::find(maps.begin(), maps.end(), spec.map) == maps.end()) {
      std::string message = show(o.value("map", json())) + " is not a map this build writes (height)";
      if (auto guess = did_you_mean(spec.map, maps)) message += "; did you mean \"" + *guess + "\"?";
      issues.push_back({path + ".map", message});
      continue;
    }
    const auto formats = output_formats(spec.map);
    const json format = o.value("format", json(formats.front()));
    spec.format = format.is_string() ? format.get<std::string>() : "";
    if (std::find(formats.begin(), formats.end(), spec.format) == formats.end()) {
      std::string message = show(format) + " is not one of png16 | png8 | raw16 | r32";
      if (auto guess = did_you_mean(spec.format, formats)) message += "; did you mean \"" + *guess + "\"?";
      issues.push_back({path + ".format", message});
      continue;
    }
    const json file = o.value("file", json(default_output_file(spec.map, spec.format)));
    if (!file.is_string()) {
      issues.push_back({path + ".file", show(file) + " must be a file name"});
      continue;
    }
    spec.file = file.get<std::string>();
    if (auto problem = check_file_name(spec.file); !problem.empty()) {
      issues.push_back({path + ".file", problem});
      continue;
    }
    if (!files.insert(spec.file).second) {
      issues.push_back({path + ".file", "\"" + spec.file + "\" is written by an earlier output too"});
      continue;
    }
    if (issues.size() == before) specs.push_back(spec);
  }
  return specs;
}

std::string preset_hash(const json& canonical) {
  const std::string text = canonical.dump();
  return sha256_hex(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
}

std::vector<encoded_output> encode_outputs(const pipeline& p, const heightfield& h) {
  std::vector<encoded_output> out;
  const std::vector<std::pair<std::string, std::string>> text = {
      {"Software", std::string("landform ") + k_version},
      {"Comment", "landform preset sha256 " + preset_hash(p.canonical()) + ", seed " + std::to_string(p.seed())}};
  for (const auto& spec : p.outputs()) {
    encoded_output e;
    e.spec = spec;
    const format_info* f = find_format(spec.format);
    if (spec.format == "png16" || spec.format == "raw16") {
      const quantized16 q = quantize16(h.data(), h.size());
      e.clipped = q.clipped;
      e.bytes = spec.format == "png16" ? encode_png_gray16(h.width(), h.height(), q.values.data(), text)
                                       : encode_raw16_le(q.values.size(), q.values.data());
    } else if (spec.format == "png8") {
      const quantized8 q = quantize8(h.data(), h.size());
      e.clipped = q.clipped;
      e.bytes = encode_png_gray8(h.width(), h.height(), q.values.data());
    } else {
      e.bytes = encode_r32_le(h.size(), h.data());
    }
    e.description = {{"file", spec.file},
                     {"map", spec.map},
                     {"format", spec.format},
                     {"encoding", f->encoding},
                     {"byte_order", f->byte_order},
                     {"row_order", "top row first (row 0 = y 0 = north)"},
                     {"width", h.width()},
                     {"height", h.height()},
                     {"bytes", e.bytes.size()},
                     {"clipped_cells", e.clipped},
                     {"sha256", sha256_hex(e.bytes.data(), e.bytes.size())}};
    out.push_back(std::move(e));
  }
  return out;
}

json make_manifest(const pipeline& p, const heightfield& h, const std::vector<encoded_output>& files) {
  float lo = 0.0f, hi = 0.0f;
  if (h.size() > 0) {
    const auto [mn, mx] = std::minmax_element(h.values().begin(), h.values().end());
    lo = *mn;
    hi = *mx;
  }
  // Counted on the heights themselves, so the figure is there even when only
  // unquantised formats were requested.
  const auto clipped = static_cast<std::size_t>(std::count_if(
      h.values().begin(), h.values().end(), [](float v) { return !(v >= 0.0f && v <= 1.0f); }));
  json file_list = json::array();
  for (const auto& f : files) file_list.push_back(f.description);
  const region& r = p.region();
  return {{"tool", "landform"},
          {"version", k_version},
          {"preset", p.canonical()},
          {"preset_sha256", preset_hash(p.canonical())},
          {"seed", p.seed()},
          {"size", {r.width, r.height}},
          {"origin", {r.origin_x, r.origin_y}},
          {"cell_size", r.cell_size},
          {"height_scale", p.height_scale()},
          {"world", {{"origin", {p.world().origin_x, p.world().origin_y}}, {"size", {p.world().width, p.world().height}}}},
          {"height_range", {lo, hi}},
          {"clipped_cells", clipped},
          {"files", file_list}};
}

}  // namespace landform
