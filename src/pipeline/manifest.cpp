#include "landform/pipeline/manifest.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <optional>
#include <span>
#include <stdexcept>

#include "landform/io/sha256.hpp"
#include "landform/outputs/output_kind.hpp"
#include "landform/pipeline/engine_target.hpp"
#include "landform/version.hpp"

namespace landform {

namespace {

const std::vector<std::string> k_output_keys = {"map", "format", "file", "compression"};

// ASCII letters compared without case (file names on case-insensitive
// file systems).
bool same_ignoring_case(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// A file name must stay inside the output directory. Returns the problem, or
// "" and the normalised name ("./a//b.png" -> "a/b.png") in `normal`.
std::string check_file_name(const std::string& file, std::string& normal) {
  if (file.empty()) return "must not be empty";
  if (file.find('\0') != std::string::npos) return "must not contain a NUL character";
  if (file.front() == '/' || file.front() == '\\') return "\"" + file + "\" must be relative to the output directory";
  if (file.back() == '/') return "\"" + file + "\" names a directory, not a file";
  normal = std::filesystem::path(file).lexically_normal().generic_string();
  if (normal == "." || normal.empty()) return "\"" + file + "\" names the output directory itself, not a file";
  if (normal == ".." || normal.rfind("../", 0) == 0)
    return "\"" + file + "\" must not leave the output directory (no \"..\")";
  if (same_ignoring_case(normal, "manifest.json")) {
    return "\"" + normal + "\" is reserved for the build manifest" +
           (normal == "manifest.json" ? "" : " (one file on Windows and macOS)");
  }
  return {};
}

// "splat.png" -> "splat_2.png"; "tiles/{index}.png" -> "tiles/2.png".
std::string numbered_file(std::string pattern, std::size_t index) {
  const std::string number = std::to_string(index);
  if (auto at = pattern.find("{index}"); at != std::string::npos) return pattern.replace(at, 7, number);
  const auto dot = pattern.rfind('.'), slash = pattern.rfind('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return pattern + "_" + number;
  return pattern.insert(dot, "_" + number);
}

// The names an output writes (as encode_outputs names them): splat's
// numbered images, a "{index}" pattern's one file, or the name itself.
std::vector<std::string> written_names(const output_kind& kind, const json& options, const std::string& normal) {
  const std::size_t count = kind.file_count ? kind.file_count(options) : 0;
  if (count == 0) {
    if (normal.find("{index}") == std::string::npos) return {normal};
    return {numbered_file(normal, 0)};
  }
  std::vector<std::string> names;
  for (std::size_t k = 0; k < count; ++k) names.push_back(numbered_file(normal, k));
  return names;
}

// "name", shortened; built piecewise: GCC 12 warns falsely (-Wrestrict,
// PR105329) on "literal" + std::string temporaries.
std::string in_quotes(const std::string& name) {
  std::string text = "\"";
  text += show_key(name);
  text += '"';
  return text;
}

// Portable names: no control characters, no component longer than a file
// system takes (255 bytes, less room for the temporary's ".<name>.tmp-XXXXXX.old"),
// and no extension of another format (height.png written as r32).
std::string portability_problem(const std::string& file, const std::string& format) {
  constexpr std::size_t k_max_component = 200;
  constexpr std::size_t k_max_path = 1024;
  if (std::any_of(file.begin(), file.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
    return in_quotes(file) + " contains a control character";
  if (file.size() > k_max_path) return in_quotes(file) + " is longer than 1024 bytes";
  for (const auto& part : std::filesystem::path(file)) {
    if (part.string().size() > k_max_component)
      return in_quotes(part.string()) + " is longer than 200 bytes (file systems take 255)";
  }
  std::string ext = std::filesystem::path(file).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext.size() > 1) ext.erase(0, 1);
  const std::string wanted = find_output_format(format).extension;
  const bool same = ext == wanted || (wanted == "raw" && ext == "r16") || (wanted == "tif" && ext == "tiff");
  bool other_format = false;
  for (const auto& f : output_formats()) other_format = other_format || f.extension == ext;
  if (!same && (other_format || ext == "r16" || ext == "tiff")) {
    return in_quotes(file) + " has the extension of another format; " + format + " files end in ." + wanted;
  }
  return {};
}

// "a.png" and "a.png/b.png" cannot both exist.
bool is_folder_of(const std::string& folder, const std::string& file) {
  return file.size() > folder.size() && file.compare(0, folder.size(), folder) == 0 && file[folder.size()] == '/';
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& n : names) text += (text.empty() ? "" : " | ") + n;
  return text;
}

// Resolves "map" to a kind: a registered output kind or a stage's side layer.
const output_kind* resolve_map(const json& o, const std::string& path, const std::vector<std::string>& layers,
                               output_spec& spec, std::vector<preset_issue>& issues) {
  const json map = o.value("map", json("height"));
  spec.map = map.is_string() ? map.get<std::string>() : "";
  if (const output_kind* kind = builtin_outputs().find(spec.map)) return kind;
  if (std::find(layers.begin(), layers.end(), spec.map) != layers.end()) {
    spec.is_layer = true;
    return &layer_output_kind();
  }
  std::vector<std::string> known = builtin_outputs().names();
  known.insert(known.end(), layers.begin(), layers.end());
  std::string message = show_value(map) + " is not a map this preset can write (" + joined(known) + ")";
  if (auto guess = did_you_mean(spec.map, known)) message += "; did you mean \"" + *guess + "\"?";
  issues.push_back({path + ".map", message});
  return nullptr;
}

// "compression": a deflate level for the formats that deflate (PNG, OpenEXR);
// elsewhere it would silently do nothing, so it is an error.
void check_compression(const json& o, const std::string& kind_path, output_spec& spec,
                       std::vector<preset_issue>& issues) {
  const auto it = o.find("compression");
  if (it == o.end()) return;
  const std::string path = kind_path + ".compression";
  const std::vector<std::string> names = {"fast", "default", "best"};
  const std::string name = it->is_string() ? it->get<std::string>() : "";
  const auto known = std::find(names.begin(), names.end(), name);
  if (known == names.end()) {
    std::string message = show_value(*it) + " is not one of " + joined(names);
    if (auto guess = did_you_mean(name, names)) message += "; did you mean \"" + *guess + "\"?";
    issues.push_back({path, message});
    return;
  }
  if (!find_output_format(spec.format).deflates()) {
    issues.push_back({path, show_value(*it) + " applies to PNG and OpenEXR formats only; \"" + spec.format +
                                "\" is written uncompressed"});
    return;
  }
  const png_compression levels[] = {png_compression::fast, png_compression::standard, png_compression::best};
  spec.compression = levels[known - names.begin()];
}

// One "outputs" entry; false when it has problems (already reported).
bool check_output(const json& o, const std::string& path, const std::vector<std::string>& layers,
                  std::vector<std::string>& files, output_spec& spec, std::vector<preset_issue>& issues) {
  if (!o.is_object()) {
    issues.push_back({path, show_value(o) + " must be an object with \"map\", \"format\" and \"file\""});
    return false;
  }
  const output_kind* kind = resolve_map(o, path, layers, spec, issues);
  if (!kind) return false;
  spec.kind = kind;
  const std::string kind_path = path + " (" + spec.map + ")";
  const std::size_t before = issues.size();
  check_params(kind->options, o, kind_path, k_output_keys, issues, check_scope{&layers});
  const json format = o.value("format", json(kind->formats.front()));
  spec.format = format.is_string() ? format.get<std::string>() : "";
  if (std::find(kind->formats.begin(), kind->formats.end(), spec.format) == kind->formats.end()) {
    std::string message = show_value(format) + " is not one of " + joined(kind->formats);
    if (auto guess = did_you_mean(spec.format, kind->formats)) message += "; did you mean \"" + *guess + "\"?";
    issues.push_back({kind_path + ".format", message});
  }
  if (issues.size() == before) check_compression(o, kind_path, spec, issues);
  if (issues.size() != before) return false;
  const json file = o.value("file", json(default_output_file(spec.map, spec.format)));
  if (!file.is_string()) {
    issues.push_back({kind_path + ".file", show_value(file) + " must be a file name"});
    return false;
  }
  spec.file = file.get<std::string>();
  std::string normal;
  if (auto problem = check_file_name(spec.file, normal); !problem.empty()) {
    issues.push_back({kind_path + ".file", problem});
    return false;
  }
  if (auto problem = portability_problem(normal, spec.format); !problem.empty()) {
    issues.push_back({kind_path + ".file", problem});
    return false;
  }
  const std::vector<std::string> names = written_names(*kind, o, normal);
  for (const auto& name : names) {
    const std::string shown =
        name == normal ? "\"" + spec.file + "\"" : "\"" + name + "\" (written for \"" + spec.file + "\")";
    for (const auto& earlier : files) {
      if (earlier == name) {
        issues.push_back({kind_path + ".file", shown + " is written by an earlier output too"});
        return false;
      }
      // Windows and macOS name files without regard to case: one file there.
      if (same_ignoring_case(earlier, name)) {
        issues.push_back({kind_path + ".file", shown + " and \"" + earlier +
                                                   "\" differ only in letter case (one file on Windows and macOS)"});
        return false;
      }
      if (is_folder_of(earlier, name) || is_folder_of(name, earlier)) {
        issues.push_back(
            {kind_path + ".file", shown + " and \"" + earlier + "\" cannot both exist (one is the other's folder)"});
        return false;
      }
    }
  }
  files.insert(files.end(), names.begin(), names.end());
  spec.file = normal;
  std::vector<preset_issue> rule_issues;
  kind->check_rules(o, rule_issues);
  for (auto& issue : rule_issues) issues.push_back({kind_path + "." + issue.path, issue.message});
  spec.options = kind->canonical(o);
  return rule_issues.empty();
}

}  // namespace

std::string default_output_file(const std::string& map, const std::string& format) {
  return map + "." + find_output_format(format).extension;
}

std::vector<output_spec> check_outputs(const json& outputs, const std::vector<std::string>& layers,
                                       std::vector<preset_issue>& issues, const region* world) {
  std::vector<output_spec> specs;
  if (!outputs.is_array()) {
    issues.push_back({"outputs", show_value(outputs) + " must be an array of {\"map\", \"format\", \"file\"}"});
    return specs;
  }
  std::vector<std::string> files;  // normalised names so far
  for (std::size_t k = 0; k < outputs.size(); ++k) {
    output_spec spec;
    const std::string path = "outputs[" + std::to_string(k) + "]";
    if (!check_output(outputs[k], path, layers, files, spec, issues)) continue;
    if (world != nullptr && spec.kind != nullptr && spec.kind->check_world) {
      std::vector<preset_issue> found;
      const world_extent extent{world->origin_x, world->origin_y, world->width, world->height};
      spec.kind->check_world(spec.options, extent, world->cell_size, found);
      for (auto& issue : found) issues.push_back({path + " (" + spec.map + ")." + issue.path, issue.message});
      if (!found.empty()) continue;
    }
    specs.push_back(std::move(spec));
  }
  return specs;
}

std::vector<std::string> stale_files(const json& previous_manifest, const std::vector<encoded_output>& files) {
  std::vector<std::string> out;
  if (!previous_manifest.is_object()) return out;
  const auto list = previous_manifest.find("files");
  if (list == previous_manifest.end() || !list->is_array()) return out;
  std::vector<std::string> current;
  current.reserve(files.size());
  for (const auto& f : files) current.push_back(f.spec.file);
  for (const auto& entry : *list) {
    if (!entry.is_object() || !entry.contains("file") || !entry["file"].is_string()) continue;
    std::string normal;
    if (!check_file_name(entry["file"].get<std::string>(), normal).empty()) continue;  // never outside the folder
    if (std::find(current.begin(), current.end(), normal) != current.end()) continue;
    if (std::find(out.begin(), out.end(), normal) == out.end()) out.push_back(normal);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string preset_hash(const json& canonical) {
  const std::string text = canonical.dump();
  return sha256_hex(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
}

namespace {

// What the manifest says of a file's bytes.
struct file_digest {
  std::size_t size = 0;
  std::string sha256;
};

// One output's streamed file: opened at its first piece (an output that does
// not stream opens nothing), counted and hashed as the pieces go by. The
// encoder calls the sink one piece at a time, so no lock is needed.
class streamed_file {
 public:
  streamed_file(const stream_opener& open, std::string name) : m_open(open), m_name(std::move(name)) {}

  [[nodiscard]] png_sink sink() {
    return [this](std::span<const std::uint8_t> piece) {
      if (!m_file) m_file = m_open(m_name);
      m_hash.update(piece);
      m_size += piece.size();
      m_file->write(piece);
    };
  }

  // Completes the file; its size and SHA-256.
  file_digest finish() {
    if (!m_file) throw std::logic_error("encode_outputs: a streamed output sent no bytes");
    m_file->finish();
    return {m_size, m_hash.hex()};
  }

 private:
  const stream_opener& m_open;
  std::string m_name;
  std::optional<file_stream> m_file;
  sha256_stream m_hash;
  std::size_t m_size = 0;
};

// The manifest entry of one written file, of `digest` (the bytes' size and
// SHA-256, taken on the way when the file was streamed).
encoded_output describe(const output_spec& spec, encoded_file file, const file_digest& digest,
                        const build_result& result) {
  encoded_output e;
  e.spec = spec;
  e.clipped = file.clipped;
  e.streamed = file.streamed;
  e.description = {{"file", spec.file},
                   {"map", spec.map},
                   {"format", spec.format},
                   {"encoding", file.encoding},
                   {"byte_order", find_output_format(spec.format).byte_order},
                   {"row_order", "top row first (row 0 = y 0 = north)"},
                   {"width", result.region.width},
                   {"height", result.region.height},
                   {"bytes", digest.size},
                   {"clipped_cells", file.clipped},
                   {"sha256", digest.sha256}};
  if (!spec.options.empty()) e.description["options"] = spec.options;
  if (find_output_format(spec.format).deflates()) e.description["compression"] = compression_name(spec.compression);
  for (const auto& [key, value] : file.extra.items()) e.description[key] = value;
  if (!file.warnings.empty()) e.description["warnings"] = file.warnings;
  e.bytes = std::move(file.bytes);
  return e;
}

file_digest digest_of(const std::vector<std::uint8_t>& bytes) {
  return {bytes.size(), sha256_hex(bytes.data(), bytes.size())};
}

// Runs the output's encoder, naming its errors after the output; with
// `stream` its one PNG file goes there.
encoded_file encode_one(const output_spec& spec, std::size_t index, output_context& ctx, png_sink stream) {
  // The sink belongs to this output's file: no later output may see it.
  class stream_reset {
   public:
    explicit stream_reset(output_context& c) : m_ctx(c) {}
    stream_reset(const stream_reset&) = delete;
    stream_reset& operator=(const stream_reset&) = delete;
    stream_reset(stream_reset&&) = delete;
    stream_reset& operator=(stream_reset&&) = delete;
    ~stream_reset() { m_ctx.stream = nullptr; }

   private:
    output_context& m_ctx;
  } const reset(ctx);
  ctx.stream = std::move(stream);
  const std::string where = "outputs[" + std::to_string(index) + "] (" + spec.map + ")";
  try {
    return spec.kind->encode(spec.options, spec.format, ctx);
  } catch (const non_finite_output_error& e) {
    throw preset_error(where, std::string(e.what()) +
                                  "; the map overflows float32 (a tiny cell_size, a huge height_scale or a huge scale "
                                  "option of this output?)");
  } catch (const output_option_error& e) {
    throw preset_error(where + "." + e.option(), e.what());
  }
}

}  // namespace

output_context output_context_for(const pipeline& p, const build_result& result, int nthreads) {
  output_context ctx(result.field, result.layers);
  ctx.x0 = result.x0;
  ctx.y0 = result.y0;
  ctx.width = result.region.width;
  ctx.height = result.region.height;
  ctx.height_scale = p.height_scale();
  ctx.sea_level = p.sea_level();
  ctx.nthreads = nthreads;
  ctx.deflate.nthreads = nthreads;
  ctx.png_text = {
      {"Software", std::string("landform ") + k_version},
      {"Comment", "landform preset sha256 " + preset_hash(p.canonical()) + ", seed " + std::to_string(p.seed())}};
  ctx.seed = p.seed();
  return ctx;
}

std::vector<encoded_output> encode_outputs(const pipeline& p, const build_result& result, int nthreads,
                                           const std::function<bool()>& stop_requested, const output_timer& timed,
                                           const output_sink& sink, const stream_opener& open) {
  output_context ctx = output_context_for(p, result, nthreads);
  derived_cache shared;  // the water outputs' one computation
  ctx.cache = &shared;
  ctx.stop_requested = stop_requested;
  std::vector<encoded_output> out;
  for (std::size_t index = 0; index < p.outputs().size(); ++index) {
    const output_spec& spec = p.outputs()[index];
    if (stop_requested && stop_requested()) throw cancelled_error();
    const auto start = std::chrono::steady_clock::now();
    ctx.layer = spec.is_layer ? result.layers.find(spec.map) : nullptr;
    ctx.deflate.compression = spec.compression;
    ctx.where = "outputs[" + std::to_string(index) + "] (" + spec.map + ")";
    // A streamed file is named before the output knows it writes one file;
    // an output that numbers its files (splat) never streams.
    const bool pattern = spec.file.find("{index}") != std::string::npos;
    streamed_file streamed(open, pattern ? numbered_file(spec.file, 0) : spec.file);
    encoded_file first = encode_one(spec, index, ctx, open ? streamed.sink() : png_sink());
    const bool numbered = first.numbered || !first.more_files.empty() || pattern;
    if (first.streamed && (first.numbered || !first.more_files.empty())) {
      throw std::logic_error("encode_outputs: " + ctx.where + " streamed a file and wrote more");
    }
    const file_digest streamed_digest = first.streamed ? streamed.finish() : file_digest();
    std::vector<encoded_file> files;
    std::vector<encoded_file> more = std::move(first.more_files);
    files.push_back(std::move(first));
    for (auto& f : more) files.push_back(std::move(f));
    for (std::size_t file = 0; file < files.size(); ++file) {
      output_spec named = spec;
      if (numbered) named.file = numbered_file(spec.file, file);
      const file_digest digest = files[file].streamed ? streamed_digest : digest_of(files[file].bytes);
      out.push_back(describe(named, std::move(files[file]), digest, result));
      if (sink) {
        sink(out.back());
        std::vector<std::uint8_t>().swap(out.back().bytes);
      }
    }
    if (timed) timed(index, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return out;
}

json computed_block(const pipeline& p, const build_result* result) {
  const region area = p.computed_area();
  const region& r = p.region();
  const bool same =
      area.origin_x == r.origin_x && area.origin_y == r.origin_y && area.width == r.width && area.height == r.height;
  const int halo = p.stage_halo() < 0 || p.halo() < 0 ? -1 : p.stage_halo() + p.halo();
  json stages = json::array();
  for (std::size_t k = 0; k < p.stages().size(); ++k) {
    const pipeline_stage& s = p.stages()[k];
    if (!s.run) continue;
    json entry = {{"stage", s.path}, {"scope", to_string(s.scope)}};
    entry["halo"] = s.halo < 0 ? json("world") : json(s.halo);
    // A coarse result given as a file (a tile of a plan): which one.
    if (const auto it = s.params.find("coarse_result"); it != s.params.end() && it->is_string() && !it->empty()) {
      entry["coarse_result"] = {{"file", *it}, {"sha256", s.params.value("coarse_result_sha256", "")}};
    }
    if (s.scope == stage_scope::coarse) {
      const coarse_grid g{p.world(), s.coarse_factor};
      entry["coarse_grid"] = {{"factor", g.factor},
                              {"size", {g.width(), g.height()}},
                              {"cell_size", g.coarse_region(r.cell_size).cell_size}};
    }
    if (result) {
      for (const auto& [index, range] : result->world_ranges) {
        if (index == k) entry["world_range"] = {range.first, range.second};
      }
      for (const auto& [index, figures] : result->stage_reports) {
        if (index != k) continue;
        json report = json::object();
        for (const auto& [key, value] : figures) report[key] = value;
        entry["report"] = report;
      }
    }
    stages.push_back(entry);
  }
  return {{"mode", p.computes_world() ? "world"
                   : same             ? "region"
                                      : "halo"},
          {"area", {{"origin", {area.origin_x, area.origin_y}}, {"size", {area.width, area.height}}}},
          {"halo", halo < 0 ? json(nullptr) : json(halo)},
          {"stages", stages}};
}

json make_manifest(const pipeline& p, const heightfield& h, const std::vector<encoded_output>& files,
                   const build_result* result) {
  float lo = 0.0f, hi = 0.0f;
  if (h.size() > 0) {
    const auto [mn, mx] = std::minmax_element(h.values().begin(), h.values().end());
    lo = *mn;
    hi = *mx;
  }
  // Counted on the heights themselves, so the figure is there even when only
  // unquantised formats were requested.
  const auto clipped = static_cast<std::size_t>(
      std::count_if(h.values().begin(), h.values().end(), [](float v) { return !(v >= 0.0f && v <= 1.0f); }));
  json file_list = json::array();
  for (const auto& f : files) file_list.push_back(f.description);
  const region& r = p.region();
  return {
      {"tool", "landform"},
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
      {"import", engine_import_values(p)},
      {"computed", computed_block(p, result)},
      {"files", file_list}};
}

}  // namespace landform
