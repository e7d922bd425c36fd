#include "landform/pipeline/pipeline.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>

#include "landform/core/rng.hpp"
#include "landform/core/world_frame.hpp"
#include "landform/io/decode.hpp"
#include "landform/io/sha256.hpp"
#include "landform/outputs/output_kind.hpp"
#include "landform/pipeline/composition.hpp"
#include "landform/pipeline/engine_target.hpp"
#include "landform/pipeline/manifest.hpp"
#include "landform/pipeline/preset_header.hpp"
#include "landform/pipeline/stage_cache.hpp"

namespace landform {

namespace {

constexpr int k_format_version = 1;
constexpr std::int64_t k_max_cells = std::int64_t{1} << 28;  // 1 GiB of float32

std::int64_t cells_of(int width, int height) {
  return std::int64_t{width} * height;
}

const std::vector<std::string> k_stage_keys = {"type", "seed", "id", "enabled"};

// Collects problems instead of stopping at the first.
struct checker {
  std::vector<preset_issue> issues;
  void add(std::string path, std::string message) { issues.push_back({std::move(path), std::move(message)}); }
};

struct top_level {
  region reg;
  world_extent world;
  std::int64_t seed = 0;
  double height_scale = 1.0;
  std::string target;               // "" = none
  std::optional<double> sea_level;  // height units; absent = each consumer's own default
};

// The region must lie inside the world (both in cells; no overflow: origins
// are within 2^40 and sides within 2^21).
void check_region_in_world(const top_level& t, checker& c) {
  const region& r = t.reg;
  const world_extent& w = t.world;
  if (r.origin_x < w.origin_x || r.origin_y < w.origin_y || r.origin_x + r.width > w.origin_x + w.width ||
      r.origin_y + r.height > w.origin_y + w.height) {
    c.add("world", "the region (origin [" + std::to_string(r.origin_x) + ", " + std::to_string(r.origin_y) +
                       "], size " + std::to_string(r.width) + "x" + std::to_string(r.height) +
                       ") must lie inside the world (origin [" + std::to_string(w.origin_x) + ", " +
                       std::to_string(w.origin_y) + "], size " + std::to_string(w.width) + "x" +
                       std::to_string(w.height) + ")");
  }
}

// The top-level keys, checked against preset_header's schema, then the limits
// across keys.
top_level check_top_level(const json& preset, bool one_process, checker& c) {
  top_level t;
  t.reg.width = t.reg.height = 512;
  t.world = {0, 0, 512, 512};
  const std::size_t before = c.issues.size();
  check_top_keys(preset_header::schema().specs(), preset, preset_list_keys(), c.issues);
  if (c.issues.size() != before) return t;
  const preset_header h = preset_header::schema().parse(preset);
  std::vector<std::pair<std::string, std::string>> problems;
  h.check(problems);
  for (auto& [key, message] : problems) c.add(key, message);
  t.reg.width = h.size[0];
  t.reg.height = h.size[1];
  t.reg.origin_x = h.origin[0];
  t.reg.origin_y = h.origin[1];
  t.reg.cell_size = h.cell_size;
  t.seed = h.seed;
  t.height_scale = h.height_scale;
  t.target = h.target;
  t.sea_level = h.sea_level;
  t.world = h.world ? world_extent{h.world->origin[0], h.world->origin[1], h.world->size[0], h.world->size[1]}
                    : world_extent{t.reg.origin_x, t.reg.origin_y, t.reg.width, t.reg.height};
  if (h.world) check_region_in_world(t, c);
  if (one_process && cells_of(t.reg.width, t.reg.height) > k_max_cells) {
    c.add("size", std::to_string(t.reg.width) + "x" + std::to_string(t.reg.height) +
                      " is more than 2^28 cells (1 GiB of heights); the largest square is 16384x16384. A larger "
                      "world builds as tiles: landform tiles plan (docs/tiles.md)");
  }
  return t;
}

// A world larger than one process can hold is fine as long as no stage or
// output needs all of it at once: then every region computes only itself and
// its halo.
void check_world_fits(const pipeline& p) {
  const world_extent& w = p.world();
  if (!p.computes_world() || cells_of(w.width, w.height) <= k_max_cells) return;
  const auto stages = p.world_stages();
  const std::string who = stages.empty() ? "an output" : stages.front()->path;
  throw preset_error("world", std::to_string(w.width) + "x" + std::to_string(w.height) +
                                  " is more than 2^28 cells (1 GiB of heights), and " + who +
                                  " needs the whole world computed in one process; the largest such world is "
                                  "16384x16384");
}

// Reads and decodes the files a stage declares (stage_info::files), so that a
// missing or corrupt file is a preset error before any stage runs. Relative
// paths start at `base_dir` (the preset's folder; empty: the working
// directory). The canonical params keep each path as written plus the file's
// SHA-256 as "<param>_sha256", so the preset hash does not depend on where it
// is built from; a given "<param>_sha256" must match the file.
bool load_stage_files(const stage_info& info, const json& entry, const std::string& path,
                      const std::filesystem::path& base_dir, checker& c, json& canonical, stage_inputs& inputs) {
  bool ok = true;
  for (const auto& f : info.files) {
    const std::string written = canonical.value(f.param, std::string());
    if (f.optional && written.empty()) continue;
    std::filesystem::path file = written;
    if (!base_dir.empty() && !written.empty() && file.is_relative()) file = (base_dir / file).lexically_normal();
    const auto bytes = written.empty() ? std::nullopt : read_file_bytes(file);
    const std::string key = path + "." + f.param;
    if (!bytes) {
      c.add(key, "\"" + written + "\" is not a readable file (relative paths start at " +
                     (base_dir.empty() ? std::string("the working directory")
                                       : "the preset's folder, " + base_dir.string()) +
                     ")");
      ok = false;
      continue;
    }
    const std::string hash = sha256_hex(bytes->data(), bytes->size());
    const std::string hash_key = f.param + "_sha256";
    if (auto it = entry.find(hash_key); it != entry.end() && *it != hash) {
      c.add(path + "." + hash_key, (it->is_string() ? it->dump() : show_value(*it)) + " is not the SHA-256 of \"" +
                                       written + "\" (" + hash + "); the file changed since the preset was written");
      ok = false;
      continue;
    }
    canonical[hash_key] = hash;
    if (f.by_content) canonical[f.param] = std::filesystem::path(written).filename().string();
    heightmap_request request = f.request(canonical);
    request.encoding = resolve_heightmap_encoding(request.encoding, written);
    try {
      inputs.files[f.param] =
          std::make_shared<const heightmap_samples>(decode_heightmap(*bytes, request, "\"" + written + "\""));
    } catch (const heightmap_decode_error& e) {
      using subject = heightmap_decode_error::subject;
      const std::string& param = e.about() == subject::raw_width    ? f.width_param
                                 : e.about() == subject::raw_height ? f.height_param
                                                                    : f.param;
      c.add(path + "." + param, e.what());
      ok = false;
    }
  }
  return ok;
}

// What only the preset's world shows of a configured stage
// (stage_info::check_world), reported at the stage's keys.
void check_stage_world(const stage_info& info, const json& canonical, const stage_inputs& inputs,
                       const std::string& path, const world_extent& world, double cell_size, checker& c) {
  if (!info.check_world || world.width <= 0 || world.height <= 0) return;
  for (const auto& [key, message] : info.check_world(canonical, world, cell_size, inputs))
    c.add(path + "." + key, message);
}

// Checks one stage entry; returns its canonical form (or null if broken).
// `layers` are the layers written by earlier stages (masks may read them).
json check_stage(const json& entry, std::size_t index, const stage_registry& registry, checker& c,
                 const std::vector<std::string>& layers, const std::filesystem::path& base_dir,
                 const stage_info*& info_out, composition& comp, stage_inputs& inputs) {
  const std::string base = "stages[" + std::to_string(index) + "]";
  info_out = nullptr;
  if (!entry.is_object()) {
    c.add(base, show_value(entry) + " must be an object with a \"type\"");
    return nullptr;
  }
  auto type_it = entry.find("type");
  if (type_it == entry.end() || !type_it->is_string()) {
    c.add(base + ".type", type_it == entry.end() ? "missing; every stage needs a \"type\""
                                                 : show_value(*type_it) + " must be a stage name");
    return nullptr;
  }
  const auto type = type_it->get<std::string>();
  const stage_info* info = registry.find(type);
  if (!info) {
    std::string message = "unknown stage \"" + show_key(type) + "\"";
    if (auto guess = did_you_mean(type, registry.names())) message += "; did you mean \"" + *guess + "\"?";
    message += " (landform stages lists them)";
    c.add(base + ".type", message);
    return nullptr;
  }
  const std::string path = base + " (" + type + ")";
  const std::size_t before = c.issues.size();
  std::vector<std::string> extra_keys = k_stage_keys;
  extra_keys.insert(extra_keys.end(), composition_keys().begin(), composition_keys().end());
  for (const auto& f : info->files) extra_keys.push_back(f.param + "_sha256");
  check_params(info->params, entry, path, extra_keys, c.issues, check_scope{&layers});
  comp = check_composition(entry, path, info->category == stage_category::generator, layers, c.issues);
  if (auto it = entry.find("seed"); it != entry.end() && !is_int64(*it) && *it != "preset") {
    c.add(path + ".seed", show_value(*it) + " must be an integer from -2^63 to 2^63-1, or \"preset\"");
  }
  if (auto it = entry.find("id"); it != entry.end() && (!it->is_string() || it->get<std::string>().empty())) {
    c.add(path + ".id", show_value(*it) + " must be a non-empty string");
  }
  if (auto it = entry.find("enabled"); it != entry.end() && !it->is_boolean()) {
    c.add(path + ".enabled", show_value(*it) + " must be true or false");
  }
  if (c.issues.size() != before) return nullptr;
  std::vector<preset_issue> rule_issues;
  info->check_rules(entry, rule_issues);
  for (auto& issue : rule_issues) c.add(path + "." + issue.path, issue.message);
  if (!rule_issues.empty()) return nullptr;
  json canonical = info->canonical(entry);
  if (!load_stage_files(*info, entry, path, base_dir, c, canonical, inputs)) return nullptr;
  info_out = info;
  for (const auto& key : k_stage_keys) {
    if (auto it = entry.find(key); it != entry.end()) canonical[key] = *it;
  }
  canonical.update(composition_to_json(comp));
  return canonical;
}

// The layers a configured stage reads: those its type declares, plus the
// names given to its layer-reference parameters (checked by check_params
// against the layers written so far).
std::vector<std::string> stage_reads(const stage_info& info, const json& canonical) {
  std::vector<std::string> reads = info.reads;
  for (const auto& spec : info.params) {
    if (spec.kind != param_kind::layer) continue;
    auto it = canonical.find(spec.name);
    if (it == canonical.end() || !it->is_string() || it->get<std::string>().empty()) continue;
    if (std::find(reads.begin(), reads.end(), it->get<std::string>()) == reads.end()) reads.push_back(*it);
  }
  return reads;
}

// Whether a layer written by stage `k` is used: requested as an output, read
// by an output (biome's moisture), or read by a later stage's mask, reads or
// target (a target blends into what is there).
bool layer_used(const std::string& name, std::size_t k, const std::vector<pipeline_stage>& stages,
                const std::vector<output_spec>& outputs) {
  for (const auto& o : outputs) {
    if (o.is_layer && o.map == name) return true;
    if (o.kind && o.kind->reads) {
      const auto read = o.kind->reads(o.options);
      if (std::find(read.begin(), read.end(), name) != read.end()) return true;
    }
  }
  for (std::size_t j = k + 1; j < stages.size(); ++j) {
    const pipeline_stage& s = stages[j];
    if (!s.run) continue;
    if (s.comp.target == name || (s.comp.mask && s.comp.mask->layer == name)) return true;
    if (std::find(s.reads.begin(), s.reads.end(), name) != s.reads.end()) return true;
  }
  return false;
}

void mark_wanted_layers(std::vector<pipeline_stage>& stages, const std::vector<output_spec>& outputs) {
  for (std::size_t k = 0; k < stages.size(); ++k) {
    if (!stages[k].run) continue;
    for (const auto& name : stages[k].info->writes) {
      if (layer_used(name, k, stages, outputs)) stages[k].wanted.push_back(name);
    }
  }
}

// A stage whose configuration needs the preset's sea_level (e.g.
// base_level "sea") when the preset gives none: an issue at that parameter.
void check_sea_level_use(const stage_info& info, const json& canonical, const std::string& path, const top_level& top,
                         checker& c) {
  if (top.sea_level || !info.sea_level_param || !canonical.value("enabled", true)) return;
  if (const std::string key = info.sea_level_param(canonical); !key.empty()) {
    c.add(path + "." + key,
          show_value(canonical[key]) + " needs the preset's top-level sea_level (height units), which is not given");
  }
}

// The "outputs" of the canonical preset: every key resolved. A "compression"
// of "default" is left out, so that it and no key are the same preset (and
// hash).
json canonical_outputs(const std::vector<output_spec>& specs) {
  json outputs = json::array();
  for (const auto& o : specs) {
    json entry = o.options;
    entry["map"] = o.map;
    entry["format"] = o.format;
    entry["file"] = o.file;
    if (o.compression != png_compression::standard) entry["compression"] = compression_name(o.compression);
    outputs.push_back(entry);
  }
  return outputs;
}

}  // namespace

std::uint64_t derive_stage_seed(std::int64_t preset_seed, const std::string& key) {
  return hash64(static_cast<std::uint64_t>(preset_seed), hash_string(key));
}

pipeline pipeline::build(const json& preset, const stage_registry& registry) {
  return build(preset, std::filesystem::path{}, registry);
}

pipeline pipeline::build(const json& preset, const std::filesystem::path& base_dir, const stage_registry& registry) {
  pipeline p = build_impl(preset, base_dir, registry, true);
  check_world_fits(p);
  return p;
}

pipeline pipeline::build_tiled_world(const json& preset, const std::filesystem::path& base_dir,
                                     const stage_registry& registry) {
  return build_impl(preset, base_dir, registry, false);
}

pipeline pipeline::build_impl(const json& preset, const std::filesystem::path& base_dir, const stage_registry& registry,
                              bool one_process) {
  checker c;
  if (!preset.is_object()) throw preset_error("", "a preset must be a JSON object, got " + show_value(preset));
  const top_level top = check_top_level(preset, one_process, c);

  pipeline p;
  p.m_region = top.reg;
  p.m_world = top.world;
  p.m_seed = top.seed;
  p.m_height_scale = top.height_scale;
  p.m_target = top.target;
  p.m_sea_level = top.sea_level;

  json stages_canonical = json::array();
  std::vector<std::string> layers;  // written so far: side layers and targets
  auto stages_it = preset.find("stages");
  if (stages_it == preset.end() || !stages_it->is_array() || stages_it->empty()) {
    c.add("stages", stages_it == preset.end() ? "missing; a preset needs a list of stages"
                                              : "must be a non-empty array of stages");
  } else {
    std::map<std::string, int> type_counts;
    for (std::size_t k = 0; k < stages_it->size(); ++k) {
      const stage_info* info = nullptr;
      composition comp;
      stage_inputs inputs;
      json canonical = check_stage((*stages_it)[k], k, registry, c, layers, base_dir, info, comp, inputs);
      stages_canonical.push_back(canonical);
      if (!info) continue;
      pipeline_stage s;
      s.info = info;
      s.path = "stages[" + std::to_string(k) + "] (" + info->name + ")";
      s.comp = comp;
      // Every stage takes its type's next number, with or without an id, so
      // naming one stage does not shift the seeds of the others.
      const int occurrence = type_counts[info->name]++;
      s.key =
          canonical.contains("id") ? canonical["id"].get<std::string>() : info->name + "#" + std::to_string(occurrence);
      s.params = canonical;
      if (auto it = canonical.find("seed"); it != canonical.end()) {
        s.seed = it->is_string() ? static_cast<std::uint64_t>(top.seed)
                                 : static_cast<std::uint64_t>(it->get<std::int64_t>());
      } else {
        s.seed = derive_stage_seed(top.seed, s.key);
      }
      check_sea_level_use(*info, canonical, s.path, top, c);
      check_stage_world(*info, canonical, inputs, s.path, top.world, top.reg.cell_size, c);
      s.scope = info->scope_of(canonical);
      s.halo = s.scope == stage_scope::world ? -1 : std::max(0, info->halo_of(canonical));
      s.coarse_factor = info->coarse_factor_of(canonical);  // 0 unless coarse-scope
      // A slope band reads Horn's gradient: one more cell.
      if (s.halo >= 0 && comp.mask && comp.mask->slope_lo) s.halo += 1;
      if (canonical.value("enabled", true)) {
        for (const auto& name : info->reads) {
          if (std::find(layers.begin(), layers.end(), name) == layers.end()) {
            c.add(s.path, "reads the layer \"" + name + "\", which no earlier stage writes");
          }
        }
        s.reads = stage_reads(*info, canonical);
        s.run = info->create(canonical, inputs);
        auto add_layer = [&layers](const std::string& name) {
          if (std::find(layers.begin(), layers.end(), name) == layers.end()) layers.push_back(name);
        };
        for (const auto& name : info->writes) add_layer(name);
        if (!comp.target.empty()) add_layer(comp.target);
      }
      p.m_stages.push_back(std::move(s));
    }
  }

  const json default_outputs = json::array({{{"map", "height"}, {"format", "png16"}}});
  auto outputs_it = preset.find("outputs");
  const landform::region world_grid{top.world.width, top.world.height, top.world.origin_x, top.world.origin_y,
                                    top.reg.cell_size};
  p.m_outputs =
      check_outputs(outputs_it == preset.end() ? default_outputs : *outputs_it, layers, c.issues, &world_grid);
  // Sea level, once: an output cannot set its own when the preset gives one.
  if (top.sea_level && outputs_it != preset.end() && outputs_it->is_array()) {
    for (std::size_t k = 0; k < outputs_it->size(); ++k) {
      const json& o = (*outputs_it)[k];
      // json(...) default: a "map" of another type is reported by check_outputs, not thrown here.
      if (o.is_object() && o.value("map", json()) == "biome" && !(*top.sea_level > 0.0 && *top.sea_level < 1.0)) {
        c.add("sea_level", show_value(json(*top.sea_level)) +
                               " must be between 0 and 1 (exclusive) for the biome output " + "(outputs[" +
                               std::to_string(k) + "])");
      }
      if (o.is_object() && o.contains("sea_level") && o["sea_level"] != json(*top.sea_level)) {
        c.add("outputs[" + std::to_string(k) + "].sea_level",
              show_value(o["sea_level"]) + " differs from the preset's sea_level " + show_value(json(*top.sea_level)) +
                  "; give the sea level once, at the top level");
      }
    }
  }
  if (!c.issues.empty()) throw preset_error(std::move(c.issues));
  mark_wanted_layers(p.m_stages, p.m_outputs);

  const json outputs = canonical_outputs(p.m_outputs);
  for (const auto& o : p.m_outputs) {
    const int halo = o.kind->halo(o.options, {top.reg.cell_size, top.sea_level.has_value()});
    p.m_halo = (halo < 0 || p.m_halo < 0) ? -1 : std::max(p.m_halo, halo);
  }
  p.m_canonical = {
      {"landform", k_format_version},
      {"size", {top.reg.width, top.reg.height}},
      {"seed", top.seed},
      {"origin", {top.reg.origin_x, top.reg.origin_y}},
      {"cell_size", top.reg.cell_size},
      {"height_scale", top.height_scale},
      {"world", {{"origin", {top.world.origin_x, top.world.origin_y}}, {"size", {top.world.width, top.world.height}}}},
      {"stages", stages_canonical},
      {"outputs", outputs}};
  // Only when given, so presets without a target keep their canonical hash.
  if (!top.target.empty()) p.m_canonical["target"] = top.target;
  if (top.sea_level) p.m_canonical["sea_level"] = *top.sea_level;
  return p;
}

namespace {

bool is_world(const region& r, const world_extent& w) {
  return r.origin_x == w.origin_x && r.origin_y == w.origin_y && r.width == w.width && r.height == w.height;
}

}  // namespace

std::vector<double> pipeline::estimated_stage_seconds() const {
  const landform::region area = computed_area();
  const double cells = static_cast<double>(area.width) * area.height;
  const double world_cells = static_cast<double>(m_world.width) * m_world.height;
  const bool passes = !is_world(area, m_world);
  std::vector<double> seconds;
  seconds.reserve(m_stages.size());
  for (std::size_t k = 0; k < m_stages.size(); ++k) {
    const pipeline_stage& s = m_stages[k];
    double ns = s.run ? s.info->cost(s.params, cells) : 0.0;
    // A region build's pass over the world for a stats- or coarse-scope
    // stage runs the stages before it over the world (and, for a coarse one,
    // its model over the world's coarse grid): counted to the stage.
    if (s.run && passes && (s.scope == stage_scope::stats || s.scope == stage_scope::coarse)) {
      for (std::size_t j = 0; j < k; ++j) {
        if (m_stages[j].run) ns += m_stages[j].info->cost(m_stages[j].params, world_cells);
      }
      if (s.scope == stage_scope::coarse) ns += s.info->cost(s.params, world_cells);
    }
    seconds.push_back(ns * 1e-9);
  }
  return seconds;
}

std::vector<preset_issue> pipeline::advice() const {
  std::vector<preset_issue> out;
  for (const auto& s : m_stages) {
    if (!s.run || !s.info->advise) continue;
    for (auto& [key, message] : s.info->advise(s.params, m_region.cell_size, m_height_scale)) {
      out.push_back({s.path + "." + key, std::move(message)});
    }
  }
  return out;
}

double pipeline::estimated_seconds() const {
  double total = 0.0;
  for (double s : estimated_stage_seconds()) total += s;
  return total;
}

namespace {

// Halos beyond this are the whole world anyway (and stay far from overflow).
constexpr std::int64_t k_max_halo = 2 * std::int64_t{k_max_side};

// Wall seconds from `start` to now (run_options::stage_timed).
double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Sum of the halos of the running stages in [0, end); -1 if one needs the world.
int summed_halo(const std::vector<pipeline_stage>& stages, std::size_t end) {
  std::int64_t total = 0;
  for (std::size_t k = 0; k < end && k < stages.size(); ++k) {
    if (!stages[k].run) continue;
    if (stages[k].halo < 0) return -1;
    total = std::min(k_max_halo, total + stages[k].halo);
  }
  return static_cast<int>(total);
}

}  // namespace

int pipeline::stage_halo() const {
  return summed_halo(m_stages, m_stages.size());
}

std::vector<const pipeline_stage*> pipeline::world_stages() const {
  std::vector<const pipeline_stage*> out;
  for (const pipeline_stage& s : m_stages) {
    if (s.run && s.scope == stage_scope::world) out.push_back(&s);
  }
  return out;
}

bool pipeline::computes_world() const {
  if (is_world(m_region, m_world)) return false;
  return m_halo < 0 || stage_halo() < 0;
}

namespace {

// Runs one stage into its target (the heights or a named layer), blending a
// generator's layer and confining the effect to the mask.
// Keeps the side layers a stage returned: each must be one it declares (a
// logic error otherwise) and of the field's size; only wanted ones are kept.
void keep_side_layers(const pipeline_stage& s, layer_set side, build_result& result) {
  const auto& writes = s.info->writes;
  for (const auto& name : side.names()) {
    if (std::find(writes.begin(), writes.end(), name) == writes.end()) {
      throw std::logic_error(s.path + " returned the layer \"" + name + "\", which it does not declare in writes");
    }
    std::vector<float> values = side.take(name);
    if (values.size() != result.field.size()) {
      throw std::logic_error(s.path + " returned the layer \"" + name + "\" with " + std::to_string(values.size()) +
                             " values for a field of " + std::to_string(result.field.size()) + " cells");
    }
    if (std::find(s.wanted.begin(), s.wanted.end(), name) == s.wanted.end()) continue;
    const auto& acc = s.info->accumulates;
    if (std::find(acc.begin(), acc.end(), name) != acc.end()) {
      result.layers.add(name, values);
    } else {
      result.layers.put(name, std::move(values));
    }
  }
}

void run_composed(const pipeline_stage& s, build_result& result, const stage_context& ctx) {
  heightfield& heights = result.field;
  std::vector<float>& target =
      s.comp.target.empty() ? heights.values() : result.layers.acquire(s.comp.target, heights.size());
  std::vector<float> before, weights;
  if (s.comp.mask) {
    before = target;
    weights = mask_weights(*s.comp.mask, heights, result.layers, ctx.height_scale, ctx.nthreads);
  }
  const bool blended =
      s.info->category == stage_category::generator && !(s.comp.blend == blend_mode::replace && s.comp.weight == 1.0);
  layer_set side;
  if (blended) {
    heightfield layer(heights.placement());
    side = s.run(layer, ctx);
    blend_into(target, layer.values(), s.comp.blend, s.comp.weight, heights.width(), ctx.nthreads);
  } else if (&target == &heights.values()) {
    side = s.run(heights, ctx);
  } else {
    // A layer target: run on a heightfield that borrows the layer's values.
    heightfield view(heights.placement());
    view.values().swap(target);
    side = s.run(view, ctx);
    view.values().swap(target);
  }
  if (s.comp.mask) apply_mask(target, before, weights, heights.width(), ctx.nthreads);
  // NaN or infinity would poison every later stage and quantise to black:
  // stop here and name the stage (its parameters, or the heights it was
  // given, overflowed float32).
  if (!std::all_of(target.begin(), target.end(), [](float v) { return std::isfinite(v); })) {
    throw preset_error(s.path,
                       "produced heights that are not finite (NaN or infinity); its parameters or the heights it "
                       "was given overflow float32 (for example a huge amplitude or weight, or heights near 1e38)");
  }
  keep_side_layers(s, std::move(side), result);
}

}  // namespace

landform::region pipeline::computed_area() const {
  landform::region area = m_region;
  if (computes_world()) {
    area.origin_x = m_world.origin_x;
    area.origin_y = m_world.origin_y;
    area.width = m_world.width;
    area.height = m_world.height;
  } else {
    const std::int64_t halo = std::min(k_max_halo, std::int64_t{m_halo} + stage_halo());
    if (halo > 0) area = grown_within(m_region, m_world, static_cast<int>(halo));
  }
  return area;
}

build_result pipeline::run_full(const run_options& options) const {
  const landform::region area = computed_area();
  world_passes passes;
  if (!is_world(area, m_world)) {
    // A region build: the stats- and coarse-scope stages get what they need
    // of the world from a pass over it, in order (a later pass runs the
    // earlier stages with what their passes measured).
    for (std::size_t k = 0; k < m_stages.size(); ++k) {
      const pipeline_stage& s = m_stages[k];
      if (!s.run || (s.scope != stage_scope::stats && s.scope != stage_scope::coarse)) continue;
      const auto start = std::chrono::steady_clock::now();
      if (s.scope == stage_scope::stats)
        passes.ranges.emplace_back(k, measure_world_range(k, passes, options));
      else
        passes.coarse.emplace_back(k, measure_coarse_input(k, passes, options));
      if (options.stage_timed) options.stage_timed(k, true, seconds_since(start));
    }
  }
  build_result result = run_area(area, m_stages.size(), passes, options, options.cache);
  result.world_ranges = std::move(passes.ranges);
  return result;
}

void pipeline::for_each_world_strip(
    std::size_t k, const world_passes& known, const run_options& options, int row_multiple,
    const std::function<void(const build_result&, const landform::region&, const landform::region&)>& fn) const {
  const int halo = summed_halo(m_stages, k);
  if (halo < 0) throw std::logic_error("world pass: a stage before " + m_stages.at(k).path + " needs the world");
  // Strips of about 4 Mi cells, and at least four halos tall so the halo rows
  // stay a small share of the work.
  int rows =
      std::clamp(static_cast<int>((std::int64_t{1} << 22) / m_world.width), std::max(1, 4 * halo), m_world.height);
  rows = (rows + row_multiple - 1) / row_multiple * row_multiple;
  run_options quiet;
  quiet.nthreads = options.nthreads;
  const std::string label = m_stages.at(k).scope == stage_scope::coarse ? "coarse pass" : "stats pass";
  if (options.progress) {
    quiet.progress = [&](std::string_view, double) { return options.progress(label, 0.0); };
  }
  quiet.stop_requested = options.stop_requested;
  for (int y = 0; y < m_world.height; y += rows) {
    landform::region strip = m_region;
    strip.origin_x = m_world.origin_x;
    strip.origin_y = m_world.origin_y + y;
    strip.width = m_world.width;
    strip.height = std::min(rows, m_world.height - y);
    const landform::region area = grown_within(strip, m_world, halo);
    fn(run_area(area, k, known, quiet), strip, area);
  }
}

std::pair<float, float> pipeline::measure_world_range(std::size_t k, const world_passes& known,
                                                      const run_options& options) const {
  const pipeline_stage& s = m_stages.at(k);
  float lo = 0.0f, hi = 0.0f;
  bool first = true;
  for_each_world_strip(k, known, options, 1,
                       [&](const build_result& part, const landform::region& strip, const landform::region& area) {
                         const std::vector<float>* values = &part.field.values();
                         if (!s.comp.target.empty()) values = part.layers.find(s.comp.target);
                         const auto top = static_cast<std::size_t>(strip.origin_y - area.origin_y);
                         const auto w = static_cast<std::size_t>(area.width);
                         for (std::size_t j = top; j < top + static_cast<std::size_t>(strip.height); ++j) {
                           for (std::size_t i = 0; i < w; ++i) {
                             // A target layer no stage wrote yet is zeros, as the stage would see it.
                             const float v = values ? (*values)[j * w + i] : 0.0f;
                             // As std::minmax_element: the first smallest, the last largest.
                             if (first || v < lo) lo = v;
                             if (first || !(v < hi)) hi = v;
                             first = false;
                           }
                         }
                       });
  return {lo, hi};
}

std::shared_ptr<const coarse_input> pipeline::measure_coarse_input(std::size_t k, const world_passes& known,
                                                                   const run_options& options) const {
  const pipeline_stage& s = m_stages.at(k);
  const coarse_grid g{m_world, s.coarse_factor};
  auto in = std::make_shared<coarse_input>(coarse_input{g, heightfield(g.coarse_region(m_region.cell_size)), {}, {}});
  std::vector<float> zeros;
  for_each_world_strip(
      k, known, options, g.factor,
      [&](const build_result& part, const landform::region& strip, const landform::region& area) {
        // Strips start on whole coarse rows; the last one ends at the world's edge.
        const auto j0 = static_cast<int>((strip.origin_y - m_world.origin_y) / g.factor);
        const auto j1 = static_cast<int>((strip.origin_y - m_world.origin_y + strip.height + g.factor - 1) / g.factor);
        const std::vector<float>* values = &part.field.values();
        if (!s.comp.target.empty()) values = part.layers.find(s.comp.target);
        if (!values) {
          // A target layer no stage wrote yet is zeros, as the stage would see it.
          zeros.assign(area.cell_count(), 0.0f);
          values = &zeros;
        }
        box_mean_rows(g, area, *values, j0, j1, in->heights.values(), options.nthreads);
        for (const std::string& name : s.reads) {
          const std::vector<float>* layer = part.layers.find(name);
          if (!layer) continue;
          box_mean_rows(g, area, *layer, j0, j1, in->layers.acquire(name, in->heights.size()), options.nthreads);
        }
      });
  // The model once, for the region and for later passes' strips.
  if (s.info->coarse_change && s.wanted.empty()) in->change = coarse_change(k, *in, options);
  return in;
}

std::vector<float> pipeline::coarse_change(std::size_t k, const coarse_input& in, const run_options& options) const {
  const pipeline_stage& s = m_stages.at(k);
  if (!s.run || s.scope != stage_scope::coarse || !s.info->coarse_change) {
    throw std::logic_error("coarse_change: " + s.path + " is not a coarse-scope stage");
  }
  stage_context ctx = context_of(s, in.layers, options);
  ctx.wanted.clear();
  try {
    return s.info->coarse_change(s.params, in, ctx);
  } catch (const std::domain_error& e) {
    throw preset_error(s.path, e.what());  // as run_area reports it
  }
}

stage_context pipeline::context_of(const pipeline_stage& s, const layer_set& layers, const run_options& options) const {
  stage_context ctx;
  ctx.seed = s.seed;
  ctx.where = s.path;
  ctx.world = m_world;
  ctx.height_scale = m_height_scale;
  ctx.sea_level = m_sea_level;
  ctx.nthreads = options.nthreads;
  for (const auto& name : s.reads) ctx.read_layers.emplace_back(name, layers.find(name));
  ctx.wanted = s.wanted;
  if (options.stop_requested) ctx.stop_requested = options.stop_requested;
  return ctx;
}

std::vector<std::string> pipeline::cache_keys(const landform::region& area, const world_passes& passes) const {
  // Everything a stage's stage_context and input hold, besides the previous
  // state: the prefix's key, then the stage's own.
  json header = {{"area", {area.origin_x, area.origin_y, area.width, area.height, area.cell_size}},
                 {"region", {m_region.origin_x, m_region.origin_y, m_region.width, m_region.height}},
                 {"world", {m_world.origin_x, m_world.origin_y, m_world.width, m_world.height}},
                 {"height_scale", m_height_scale}};
  if (m_sea_level) header["sea_level"] = *m_sea_level;
  std::vector<std::string> keys;
  std::string key = header.dump();
  for (std::size_t k = 0; k < m_stages.size(); ++k) {
    const pipeline_stage& s = m_stages[k];
    json entry = {{"params", s.params}, {"seed", s.seed}, {"wanted", s.wanted}};
    for (const auto& [index, range] : passes.ranges) {
      if (index == k) entry["world_range"] = {range.first, range.second};
    }
    key += '\n';
    key += entry.dump();
    keys.push_back(key);
  }
  return keys;
}

build_result pipeline::run_area(const landform::region& area, std::size_t stop, const world_passes& passes,
                                const run_options& options, stage_cache* cache) const {
  build_result result{heightfield(area),
                      layer_set{},
                      static_cast<int>(m_region.origin_x - area.origin_x),
                      static_cast<int>(m_region.origin_y - area.origin_y),
                      m_region,
                      {},
                      {}};
  std::vector<std::string> keys;
  std::size_t first = 0;
  if (cache != nullptr && stop == m_stages.size()) {
    keys = cache_keys(area, passes);
    if (const build_result* hit = cache->resume(keys, first)) {
      result = *hit;
      result.stages_cached = first;
    }
  } else {
    cache = nullptr;
  }
  const auto count = static_cast<double>(m_stages.size());
  for (std::size_t k = first; k < stop; ++k) {
    const pipeline_stage& s = m_stages[k];
    if (!s.run) continue;
    stage_context ctx = context_of(s, result.layers, options);
    for (const auto& [index, range] : passes.ranges) {
      if (index == k) ctx.world_range = &range;
    }
    for (const auto& [index, coarse] : passes.coarse) {
      if (index == k) ctx.coarse = coarse.get();
    }
    if (options.progress) {
      ctx.progress = [&, k](double fraction) {
        if (!options.progress(s.info->name, (static_cast<double>(k) + std::clamp(fraction, 0.0, 1.0)) / count)) {
          throw cancelled_error();
        }
      };
    }
    ctx.report = [&result, k](const std::string& key, double value) {
      if (result.stage_reports.empty() || result.stage_reports.back().first != k)
        result.stage_reports.push_back({k, {}});
      result.stage_reports.back().second.emplace_back(key, value);
    };
    ctx.progress(0.0);
    ctx.check_stop();
    const auto start = std::chrono::steady_clock::now();
    try {
      run_composed(s, result, ctx);
    } catch (const std::domain_error& e) {
      // The parameters cannot work at this placement (e.g. noise coordinates
      // out of range): a preset problem, reported with the stage's path.
      throw preset_error(s.path, e.what());
    }
    const double seconds = seconds_since(start);
    if (options.stage_timed) options.stage_timed(k, false, seconds);
    ctx.progress(1.0);
    if (cache != nullptr) cache->store(keys[k], k + 1, result, seconds);
  }
  return result;
}

heightfield pipeline::run(const run_options& options) const {
  return run_full(options).heights();
}

}  // namespace landform
