// Engine rules: legal sizes, checks of a preset against a target, and the
// values each engine's terrain import asks for.

#include "landform/pipeline/engine_target.hpp"

#include <algorithm>
#include <cmath>

#include "landform/outputs/output_kind.hpp"
#include "landform/pipeline/pipeline.hpp"

namespace landform {

namespace {

constexpr int k_unity_max = 4097;  // sizes 2^n + 1 from 33 (n = 5) up to this
constexpr int k_unreal_min = 127, k_unreal_max = 8161, k_unreal_max_components = 32;
constexpr int k_godot_max = 16384;
constexpr int k_unreal_quads[] = {7, 15, 31, 63, 127, 255};
constexpr int k_terrain3d_region_sizes[] = {64, 128, 256, 512, 1024, 2048};

const std::vector<int>& unity_sides() {
  static const std::vector<int> sides = [] {
    std::vector<int> s;
    for (int n = 32; n + 1 <= k_unity_max; n *= 2) s.push_back(n + 1);
    return s;
  }();
  return sides;
}

const std::vector<int>& unreal_sides() {
  static const std::vector<int> sides = [] {
    std::vector<int> s;
    for (int q : k_unreal_quads)
      for (int sections = 1; sections <= 2; ++sections)
        for (int c = 1; c <= k_unreal_max_components; ++c) {
          const int side = c * sections * q + 1;
          if (side >= k_unreal_min && side <= k_unreal_max) s.push_back(side);
        }
    std::sort(s.begin(), s.end());
    s.erase(std::unique(s.begin(), s.end()), s.end());
    return s;
  }();
  return sides;
}

std::string list(const std::vector<int>& v, const char* separator = ", ") {
  std::string out;
  for (int n : v) out += (out.empty() ? "" : separator) + std::to_string(n);
  return out;
}

std::string size_text(int w, int h) {
  return std::to_string(w) + "x" + std::to_string(h);
}

// Nearest legal sides of the sides that are not legal, e.g. "505 or 577".
std::string nearest_text(engine_target t, int w, int h) {
  std::vector<int> all;
  for (int side : {w, h}) {
    if (is_legal_side(t, side)) continue;
    for (int n : nearest_legal_sides(t, side)) all.push_back(n);
  }
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return list(all, " or ");
}

void check_size(engine_target t, int w, int h, std::vector<preset_issue>& issues) {
  const std::string size = size_text(w, h);
  switch (t) {
    case engine_target::unity:
      if (!is_legal_side(t, w) || !is_legal_side(t, h)) {
        issues.push_back({"size", size + " is not a Unity heightmap resolution (2^n + 1 from 33 to 4097); nearest: " +
                                      nearest_text(t, w, h)});
      } else if (w != h) {
        issues.push_back({"size", size + " is not square; a Unity terrain's heightmap is: use " + size_text(w, w) +
                                      " or " + size_text(h, h)});
      }
      return;
    case engine_target::unreal:
      if (!is_legal_side(t, w) || !is_legal_side(t, h)) {
        issues.push_back({"size", size +
                                      " is not an Unreal landscape size (components x sections x quads + 1, 127 to "
                                      "8161); nearest: " +
                                      nearest_text(t, w, h) + " (recommended: " + list(unreal_recommended_sides()) +
                                      ")"});
      } else if (!unreal_landscape_layout(w, h)) {
        issues.push_back({"size", size + " has no Unreal section size that fits both sides; use " + size_text(w, w) +
                                      " or " + size_text(h, h)});
      }
      return;
    case engine_target::godot:
      if (!is_legal_side(t, w) || !is_legal_side(t, h)) {
        issues.push_back(
            {"size", size + " is larger than Terrain3D's 16384 x 16384 world; nearest: " + nearest_text(t, w, h)});
      }
      return;
  }
}

bool is_height_like(const output_spec& o) {
  return o.map == "height";
}

// Height formats each engine's terrain importer reads.
std::vector<std::string> importable_height_formats(engine_target t) {
  switch (t) {
    case engine_target::unity:
      return {"raw16"};  // Terrain > Import Raw
    case engine_target::unreal:
      return {"png16", "raw16"};  // Landscape > Import from file: 16-bit PNG or .r16 raw
    default:
      return {"exr", "r32", "png16", "raw16"};  // Terrain3D importer: EXR, R16/raw, PNG (and .res)
  }
}

std::string wanted_convention(engine_target t) {
  return t == engine_target::unreal ? "directx" : "opengl";
}

void check_outputs(const pipeline& p, engine_target t, std::vector<preset_issue>& issues) {
  const std::string engine = engine_target_name(t);
  const std::vector<std::string> formats = importable_height_formats(t);
  bool importable = false;
  for (const auto& o : p.outputs())
    if (is_height_like(o) && std::find(formats.begin(), formats.end(), o.format) != formats.end()) importable = true;
  if (!importable) {
    std::string names;
    for (const auto& f : formats) names += (names.empty() ? "" : " or ") + f;
    issues.push_back({"outputs", "no height output " + engine +
                                     " can import; add {\"map\": \"height\", \"format\": \"" + formats.front() +
                                     "\"} (" + engine + " reads " + names + ")"});
  }
  // Normal maps: one in the engine's convention is enough (a preset may write
  // both on purpose); when there is none, the first one is named.
  std::optional<std::size_t> wrong;
  for (std::size_t k = 0; k < p.outputs().size(); ++k) {
    const output_spec& o = p.outputs()[k];
    if (o.map != "normal" || !o.options.contains("convention")) continue;
    if (o.options["convention"].get<std::string>() == wanted_convention(t)) return;
    if (!wrong) wrong = k;
  }
  if (wrong) {
    const std::string convention = p.outputs()[*wrong].options["convention"].get<std::string>();
    issues.push_back({"outputs[" + std::to_string(*wrong) + "] (normal).convention",
                      "\"" + convention + "\" is not " + engine + "'s convention (\"" + wanted_convention(t) +
                          "\"); its green channel will read upside down"});
  }
}

int terrain3d_region_size(int w, int h) {
  const int side = std::max(w, h);
  for (int s : k_terrain3d_region_sizes)
    if (s >= side) return s;
  return k_terrain3d_region_sizes[std::size(k_terrain3d_region_sizes) - 1];
}

}  // namespace

const std::vector<std::string>& engine_target_names() {
  static const std::vector<std::string> names = {"unity", "unreal", "godot"};
  return names;
}

std::optional<engine_target> parse_engine_target(const std::string& name) {
  if (name == "unity") return engine_target::unity;
  if (name == "unreal") return engine_target::unreal;
  if (name == "godot") return engine_target::godot;
  return std::nullopt;
}

std::string engine_target_name(engine_target t) {
  return engine_target_names()[static_cast<std::size_t>(t)];
}

bool is_legal_side(engine_target t, int side) {
  switch (t) {
    case engine_target::unity:
      return std::binary_search(unity_sides().begin(), unity_sides().end(), side);
    case engine_target::unreal:
      return std::binary_search(unreal_sides().begin(), unreal_sides().end(), side);
    default:
      return side >= 1 && side <= k_godot_max;
  }
}

std::vector<int> nearest_legal_sides(engine_target t, int side) {
  if (is_legal_side(t, side)) return {side};
  if (t == engine_target::godot) return {side < 1 ? 1 : k_godot_max};
  const std::vector<int>& sides = t == engine_target::unity ? unity_sides() : unreal_sides();
  std::vector<int> out;
  const auto above = std::upper_bound(sides.begin(), sides.end(), side);
  if (above != sides.begin()) out.push_back(*std::prev(above));
  if (above != sides.end()) out.push_back(*above);
  return out;
}

std::pair<int, int> snapped_size(engine_target t, int width, int height) {
  auto nearest = [t](int side) {
    const std::vector<int> sides = nearest_legal_sides(t, side);
    return sides.size() == 2 && side - sides[0] < sides[1] - side ? sides[0] : sides.back();
  };
  const int square = nearest(std::max(width, height));
  switch (t) {
    case engine_target::unity:
      return {square, square};
    case engine_target::unreal: {
      const int w = nearest(width), h = nearest(height);
      if (unreal_landscape_layout(w, h)) return {w, h};
      return {square, square};
    }
    default:
      return {nearest(width), nearest(height)};
  }
}

const std::vector<int>& unreal_recommended_sides() {
  static const std::vector<int> sides = {127, 253, 505, 1009, 2017, 4033, 8129};
  return sides;
}

std::optional<unreal_layout> unreal_landscape_layout(int width, int height) {
  std::optional<unreal_layout> best;
  if (width < 2 || height < 2) return best;
  for (int q : k_unreal_quads) {
    for (int sections = 1; sections <= 2; ++sections) {
      const int per_component = q * sections;
      if ((width - 1) % per_component != 0 || (height - 1) % per_component != 0) continue;
      const int cx = (width - 1) / per_component, cy = (height - 1) / per_component;
      if (cx > k_unreal_max_components || cy > k_unreal_max_components) continue;
      // Fewest components; on a tie, fewer sections (fewer draw calls).
      const bool better = !best || cx * cy < best->components_x * best->components_y ||
                          (cx * cy == best->components_x * best->components_y &&
                           sections * sections * cx * cy < best->sections_per_component * best->sections_per_component *
                                                               best->components_x * best->components_y);
      if (better) best = unreal_layout{q, sections, cx, cy};
    }
  }
  return best;
}

std::vector<preset_issue> check_engine_target(const pipeline& p, engine_target t) {
  std::vector<preset_issue> issues;
  check_size(t, p.region().width, p.region().height, issues);
  check_outputs(p, t, issues);
  for (auto& issue : issues) issue.message = "target " + engine_target_name(t) + ": " + issue.message;
  return issues;
}

json engine_import_values(const pipeline& p) {
  const region& r = p.region();
  const double c = r.cell_size, range_m = p.height_scale();
  const double x0 = static_cast<double>(r.origin_x) * c, y0 = static_cast<double>(r.origin_y) * c;
  const int w = r.width, h = r.height;

  json unity = {{"terrain_width", (w - 1) * c},
                {"terrain_length", (h - 1) * c},
                {"terrain_height", range_m},
                {"heightmap_resolution", w},
                {"position", {x0, 0.0, y0}},
                {"raw", {{"depth", "Bit 16"}, {"byte_order", "Windows"}, {"flip_vertically", false}}},
                {"size_legal", is_legal_side(engine_target::unity, w) && w == h},
                {"formula",
                 "terrain_width = (N - 1) * cell_size, terrain_length = (M - 1) * cell_size, terrain_height = "
                 "height_scale (metres spanned by 0..65535)"}};

  json unreal = {{"scale", {100.0 * c, 100.0 * c, range_m * 100.0 / 512.0}},
                 {"location", {100.0 * x0, 100.0 * y0, 50.0 * range_m}},
                 {"size_legal", is_legal_side(engine_target::unreal, w) && is_legal_side(engine_target::unreal, h) &&
                                    unreal_landscape_layout(w, h).has_value()},
                 {"recommended_size", std::find(unreal_recommended_sides().begin(), unreal_recommended_sides().end(),
                                                w) != unreal_recommended_sides().end() &&
                                          w == h},
                 {"formula",
                  "scale X = Y = cell_size * 100 (cm), Z = height_scale * 100 / 512; location = first vertex at "
                  "origin * cell_size * 100, Z = height_scale * 50 so height 0 is at Z 0"}};
  if (const auto layout = unreal_landscape_layout(w, h); layout && unreal["size_legal"].get<bool>()) {
    unreal["layout"] = {{"quads_per_section", layout->quads_per_section},
                        {"sections_per_component", std::to_string(layout->sections_per_component) + "x" +
                                                       std::to_string(layout->sections_per_component)},
                        {"components", {layout->components_x, layout->components_y}}};
  }

  const int region_size = terrain3d_region_size(w, h);
  json godot = {{"plugin", "Terrain3D"},
                {"region_size", region_size},
                {"regions", {(w + region_size - 1) / region_size, (h + region_size - 1) / region_size}},
                {"vertex_spacing", c},
                {"height_scale", range_m},
                {"height_offset", 0.0},
                {"position", {x0 + 0.5 * w * c, 0.0, y0 + 0.5 * h * c}},
                {"size_legal", is_legal_side(engine_target::godot, w) && is_legal_side(engine_target::godot, h)},
                {"formula",
                 "height_scale = height_scale (import scale for heights stored as 0..1); vertex_spacing = cell_size; "
                 "position = the map's centre (the importer centres the map there)"}};

  json out = {{"unity", unity}, {"unreal", unreal}, {"godot", godot}};
  if (!p.target().empty()) out["target"] = p.target();
  return out;
}

}  // namespace landform
