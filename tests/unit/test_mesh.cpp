// The "mesh" output: a glb parsed here byte by byte (header, JSON chunk, BIN
// chunk, accessors), its vertex count against max_error, its vertical error
// measured against the heightfield at every cell centre, tiles that meet at
// shared vertices, the skirt, the max_triangles cap, identical bytes on 1, 2
// and 8 threads, the simplifier on grids of any shape (within the bound,
// conforming, border kept) and the option errors. tests/mesh/check_glb.py
// checks the same with Python's json and struct.

#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "landform/derive/mesh_simplify.hpp"
#include "landform/derive/terrain_mesh.hpp"
#include "landform/pipeline/manifest.hpp"
#include "landform/pipeline/pipeline.hpp"

namespace {

using namespace landform;
using json = nlohmann::json;

constexpr double k_cell = 2.0, k_scale = 40.0;

json mesh_preset(int size, const json& outputs) {
  return {
      {"landform", 1},
      {"size", size},
      {"seed", 9},
      {"cell_size", k_cell},
      {"height_scale", k_scale},
      {"stages",
       {{{"type", "opensimplex"}, {"feature_size", 40}, {"octaves", 3}}, {{"type", "normalize"}, {"mode", "min_max"}}}},
      {"outputs", outputs}};
}

struct built {
  std::map<std::string, encoded_output> files;
  std::vector<float> heights;  // the region's, row-major
};

built build(const json& preset, int nthreads = 1) {
  const pipeline p = pipeline::build(preset);
  const build_result r = p.run_full();
  built b;
  for (auto& f : encode_outputs(p, r, nthreads)) b.files.emplace(f.spec.file, std::move(f));
  b.heights = r.heights().values();
  return b;
}

std::uint32_t u32(const std::vector<std::uint8_t>& b, std::size_t at) {
  return std::uint32_t{b[at]} | std::uint32_t{b[at + 1]} << 8 | std::uint32_t{b[at + 2]} << 16 |
         std::uint32_t{b[at + 3]} << 24;
}

// A glb read with nothing but the byte layout of the specification.
struct glb {
  json doc;
  std::vector<std::uint8_t> bin;
  std::vector<float> positions, normals, uvs;
  std::vector<std::uint32_t> indices;
};

template <class T>
std::vector<T> accessor_data(const glb& g, int index) {
  const json& a = g.doc["accessors"][static_cast<std::size_t>(index)];
  const json& view = g.doc["bufferViews"][a["bufferView"].get<std::size_t>()];
  const std::size_t width = a["type"] == "VEC3" ? 3 : a["type"] == "VEC2" ? 2 : 1;
  std::vector<T> out(a["count"].get<std::size_t>() * width);
  REQUIRE(view["byteLength"].get<std::size_t>() == out.size() * 4);
  const std::size_t offset = view["byteOffset"].get<std::size_t>();
  REQUIRE(offset + out.size() * 4 <= g.bin.size());
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = std::bit_cast<T>(u32(g.bin, offset + 4 * k));
  // min and max are the extremes of the data, component by component.
  for (std::size_t c = 0; c < width; ++c) {
    T lo = out[c], hi = out[c];
    for (std::size_t k = c; k < out.size(); k += width) lo = std::min(lo, out[k]), hi = std::max(hi, out[k]);
    CHECK(a["min"][c].get<T>() == lo);
    CHECK(a["max"][c].get<T>() == hi);
  }
  return out;
}

glb parse_glb(const std::vector<std::uint8_t>& b) {
  REQUIRE(b.size() >= 28);
  CHECK(u32(b, 0) == 0x46546C67);  // "glTF"
  CHECK(u32(b, 4) == 2);
  REQUIRE(u32(b, 8) == b.size());
  const std::uint32_t json_length = u32(b, 12);
  CHECK(u32(b, 16) == 0x4E4F534A);  // "JSON"
  CHECK(json_length % 4 == 0);
  glb g;
  g.doc = json::parse(b.begin() + 20, b.begin() + 20 + json_length);
  const std::size_t at = 20 + json_length;
  const std::uint32_t bin_length = u32(b, at);
  CHECK(u32(b, at + 4) == 0x004E4942);  // "BIN\0"
  REQUIRE(at + 8 + bin_length == b.size());
  g.bin.assign(b.begin() + static_cast<std::ptrdiff_t>(at + 8), b.end());
  CHECK(g.doc["asset"]["version"] == "2.0");
  const json& prim = g.doc["meshes"][0]["primitives"][0];
  CHECK(prim["mode"] == 4);
  g.positions = accessor_data<float>(g, prim["attributes"]["POSITION"].get<int>());
  g.normals = accessor_data<float>(g, prim["attributes"]["NORMAL"].get<int>());
  g.uvs = accessor_data<float>(g, prim["attributes"]["TEXCOORD_0"].get<int>());
  g.indices = accessor_data<std::uint32_t>(g, prim["indices"].get<int>());
  return g;
}

// The glb's vertical error at every cell centre of a region at world origin
// (0, 0): vertices mapped back to grid points, then max_vertical_error.
double measured_error(const glb& g, const std::vector<float>& heights, int size) {
  std::vector<double> y(heights.size());
  for (std::size_t k = 0; k < y.size(); ++k) y[k] = static_cast<double>(heights[k]) * k_scale;
  std::vector<std::uint32_t> grid(g.indices.size());
  for (std::size_t k = 0; k < grid.size(); ++k) {
    const std::size_t v = g.indices[k];
    const auto c = static_cast<std::uint32_t>(std::lround(g.positions[3 * v] / k_cell));
    const auto r = static_cast<std::uint32_t>(std::lround(g.positions[3 * v + 2] / k_cell));
    CHECK(static_cast<double>(g.positions[3 * v + 1]) ==
          Approx(y[r * static_cast<std::uint32_t>(size) + c]).margin(1e-3));
    grid[k] = r * static_cast<std::uint32_t>(size) + c;
  }
  return max_vertical_error(grid, y, size, size);
}

// "m<e>.glb", built piecewise: GCC 12 warns falsely (-Wrestrict,
// -Wstringop-overflow, PR105329) on "literal" + std::string temporaries.
std::string file_for(double max_error) {
  std::string name = "m";
  name += std::to_string(max_error);
  name += ".glb";
  return name;
}

}  // namespace

TEST_CASE("mesh: a glb whose structure and accessor bounds a plain reader accepts", "[mesh]") {
  const built b = build(mesh_preset(33, {{{"map", "mesh"}}}));
  const encoded_output& f = b.files.at("mesh.glb");
  const glb g = parse_glb(f.bytes);
  CHECK(g.positions.size() == 33u * 33u * 3u);  // max_error 0: the full grid
  CHECK(g.indices.size() == 32u * 32u * 2u * 3u);
  CHECK(g.uvs[0] == Approx(0.5 / 33));                // texel-exact UVs
  CHECK(g.positions[0] == 0.0f);                      // world column 0, row 0
  CHECK(g.positions[3 * 32] == Approx(32 * k_cell));  // x east
  CHECK(g.positions[3 * 33 + 2] == Approx(k_cell));   // z south: the second row
  for (std::size_t v = 0; v < g.normals.size() / 3; ++v) {
    const double n = std::hypot(g.normals[3 * v], g.normals[3 * v + 1], g.normals[3 * v + 2]);
    CHECK(n == Approx(1.0).margin(1e-6));
    CHECK(g.normals[3 * v + 1] > 0.0f);
  }
  CHECK(f.description.at("format") == "glb");
  CHECK(f.description.at("vertices") == 33 * 33);
  CHECK(f.description.at("measured_error_m") == 0.0);
  CHECK(measured_error(g, b.heights, 33) == 0.0);
}

TEST_CASE("mesh: fewer vertices as max_error rises, each within its bound at every cell centre", "[mesh]") {
  const std::vector<double> errors = {0.0, 0.05, 0.25, 1.0, 4.0};
  json outputs = json::array();
  for (double e : errors) outputs.push_back({{"map", "mesh"}, {"file", file_for(e)}, {"max_error", e}});
  const built b = build(mesh_preset(129, outputs));
  std::size_t previous = SIZE_MAX;
  for (double e : errors) {
    INFO("max_error " << e);
    const encoded_output& f = b.files.at(file_for(e));
    const glb g = parse_glb(f.bytes);
    const double error = measured_error(g, b.heights, 129);
    CHECK(error <= e);
    CHECK(f.description.at("measured_error_m").get<double>() == Approx(error).margin(1e-9));
    CHECK(f.description.at("limited_by") == "max_error");
    CHECK(f.description.at("folded_triangles") == 0);
    const std::size_t vertices = g.positions.size() / 3;
    CHECK(vertices < previous);
    previous = vertices;
  }
}

TEST_CASE("mesh: two tiles meet at shared vertices with equal normals", "[mesh]") {
  // A 64 x 40 world in two 32 x 40 tiles; the west tile reaches column 32.
  auto tile = [](int origin) {
    json p = mesh_preset(32, {{{"map", "mesh"}, {"max_error", 0.5}}});
    p["size"] = {32, 40};
    p["world"] = {{"origin", {0, 0}}, {"size", {64, 40}}};
    p["origin"] = {origin, 0};
    return parse_glb(build(p).files.at("mesh.glb").bytes);
  };
  const glb west = tile(0), east = tile(32);
  auto seam = [](const glb& g) {
    std::map<float, std::vector<float>> by_z;  // z -> y, nx, ny, nz
    for (std::size_t v = 0; v < g.positions.size() / 3; ++v) {
      if (g.positions[3 * v] != static_cast<float>(32 * k_cell)) continue;
      by_z[g.positions[3 * v + 2]] = {g.positions[3 * v + 1], g.normals[3 * v], g.normals[3 * v + 1],
                                      g.normals[3 * v + 2]};
    }
    return by_z;
  };
  const auto a = seam(west), b = seam(east);
  CHECK(a.size() == 40);  // every seam vertex kept (border locked)
  CHECK(a == b);
  float west_max = 0.0f;
  for (std::size_t v = 0; v < west.positions.size() / 3; ++v) west_max = std::max(west_max, west.positions[3 * v]);
  CHECK(west_max == static_cast<float>(32 * k_cell));
}

TEST_CASE("mesh: a skirt hangs below every border edge", "[mesh]") {
  const built b = build(mesh_preset(33, {{{"map", "mesh"}, {"max_error", 1.0}, {"skirt", 25.0}, {"file", "s.glb"}},
                                         {{"map", "mesh"}, {"max_error", 1.0}, {"file", "n.glb"}}}));
  const glb s = parse_glb(b.files.at("s.glb").bytes), n = parse_glb(b.files.at("n.glb").bytes);
  CHECK(s.indices.size() == n.indices.size() + 4u * 32u * 6u);  // two triangles per border edge
  CHECK(s.positions.size() == n.positions.size() + 4u * 32u * 3u);
  float lowest_border = 1e9f;
  for (int k = 0; k < 33; ++k) {
    for (int cell : {k, 32 * 33 + k, 33 * k, 33 * k + 32})
      lowest_border = std::min(lowest_border, static_cast<float>(b.heights[static_cast<std::size_t>(cell)] * k_scale));
  }
  float lowest = 1e9f;
  for (std::size_t v = 0; v < s.positions.size() / 3; ++v) lowest = std::min(lowest, s.positions[3 * v + 1]);
  CHECK(lowest == Approx(lowest_border - 25.0).margin(1e-3));
  CHECK(b.files.at("s.glb").description.at("surface_triangles") == n.indices.size() / 3);
}

TEST_CASE("mesh: bytes do not depend on the thread count", "[mesh]") {
  // A field of 2 x 2 row blocks or more per thread, the full grid and a
  // simplified one with a skirt and a cap.
  const json preset =
      mesh_preset(97, {{{"map", "mesh"}, {"file", "full.glb"}},
                       {{"map", "mesh"}, {"file", "simple.glb"}, {"max_error", 0.5}, {"skirt", 5.0}},
                       {{"map", "mesh"}, {"file", "capped.glb"}, {"max_error", 0.1}, {"max_triangles", 1500}}});
  const built one = build(preset, 1);
  for (int threads : {2, 8}) {
    INFO(threads << " threads");
    const built many = build(preset, threads);
    for (const char* file : {"full.glb", "simple.glb", "capped.glb"}) {
      INFO(file);
      CHECK(one.files.at(file).bytes == many.files.at(file).bytes);
    }
  }
}

TEST_CASE("mesh: max_triangles caps the surface and the manifest gives the error reached", "[mesh]") {
  const json preset =
      mesh_preset(129, {{{"map", "mesh"}, {"file", "bound.glb"}, {"max_error", 0.1}},
                        {{"map", "mesh"}, {"file", "loose.glb"}, {"max_error", 0.1}, {"max_triangles", 2000000}},
                        {{"map", "mesh"}, {"file", "cap.glb"}, {"max_error", 0.1}, {"max_triangles", 3000}},
                        {{"map", "mesh"}, {"file", "tight.glb"}, {"max_error", 0.1}, {"max_triangles", 2200}},
                        {{"map", "mesh"}, {"file", "alone.glb"}, {"max_triangles", 3000}, {"skirt", 5.0}}});
  const built b = build(preset);
  const glb bound = parse_glb(b.files.at("bound.glb").bytes);
  REQUIRE(bound.indices.size() / 3 > 3000);  // the cap bites below
  // A cap the bound does not reach changes nothing.
  CHECK(b.files.at("loose.glb").bytes == b.files.at("bound.glb").bytes);
  CHECK(b.files.at("loose.glb").description.at("limited_by") == "max_error");
  double previous = measured_error(bound, b.heights, 129);
  CHECK(previous <= 0.1);
  for (const auto& [file, cap] :
       std::vector<std::pair<std::string, std::size_t>>{{"cap.glb", 3000}, {"tight.glb", 2200}}) {
    INFO(file);
    const encoded_output& f = b.files.at(file);
    const glb g = parse_glb(f.bytes);
    CHECK(g.indices.size() / 3 <= cap);
    CHECK(g.indices.size() / 3 > cap * 8 / 10);  // the most accurate mesh within it, not a much coarser one
    CHECK(f.description.at("limited_by") == "max_triangles");
    CHECK(f.description.at("max_triangles") == cap);
    const double error = measured_error(g, b.heights, 129);
    CHECK(f.description.at("measured_error_m").get<double>() == Approx(error).margin(1e-9));
    CHECK(error > previous);  // the bound given up, by more as the cap tightens
    previous = error;
  }
  // max_error 0 with a cap: the cap alone decides; the skirt is not counted.
  const encoded_output& alone = b.files.at("alone.glb");
  CHECK(alone.description.at("surface_triangles").get<std::size_t>() <= 3000);
  CHECK(alone.description.at("triangles").get<std::size_t>() > 3000);
}

TEST_CASE("mesh: a cap below the coarsest mesh is a preset error naming the output", "[mesh]") {
  const json preset = mesh_preset(33, {{{"map", "mesh"}, {"max_error", 1.0}, {"max_triangles", 10}}});
  const pipeline p = pipeline::build(preset);
  const build_result r = p.run_full();
  try {
    (void)encode_outputs(p, r, 1);
    FAIL("accepted");
  } catch (const preset_error& e) {
    REQUIRE(e.issues().size() == 1);
    CHECK(e.issues()[0].path == "outputs[0] (mesh).max_triangles");
    CHECK(e.issues()[0].message.find("value 10, must be at least ") == 0);
    CHECK(e.issues()[0].message.find("for a 33 x 33 vertex grid") != std::string::npos);
  }
}

TEST_CASE("mesh: simplified grids of any shape are within the bound, conforming and border-locked", "[mesh]") {
  // Rough hashed heights on grids that are not 2^k + 1 square, so triangles
  // reach past the grid and must be split to fit.
  for (const auto& [columns, rows] : std::vector<std::pair<int, int>>{{2, 2}, {37, 23}, {17, 65}, {64, 64}, {3, 40}}) {
    std::vector<double> y(static_cast<std::size_t>(columns) * static_cast<std::size_t>(rows));
    for (std::size_t k = 0; k < y.size(); ++k) {
      const double c = static_cast<double>(k % static_cast<std::size_t>(columns));
      const double r = static_cast<double>(k / static_cast<std::size_t>(columns));
      y[k] = 20.0 * std::sin(c * 0.3) * std::cos(r * 0.21) + 3.0 * std::sin(c * r * 0.7);
    }
    const mesh_grid grid{0, 0, columns, rows, columns, rows};
    std::size_t previous = SIZE_MAX;
    for (double bound : {0.01, 0.5, 2.0, 8.0, 1e6}) {
      INFO(columns << " x " << rows << " at " << bound << " m");
      const simplify_result s = simplify_to_error(grid, y, bound);
      const double error = max_vertical_error(s.indices, y, columns, rows);  // +inf when a point is uncovered
      CHECK(error <= bound);
      CHECK(s.error == error);
      CHECK(s.folded == 0);
      CHECK(s.indices.size() <= previous);
      previous = s.indices.size();
      // Conforming: every directed edge once; an interior edge's reverse
      // is used too, and the unmatched ones are the border's unit edges.
      std::set<std::pair<std::uint32_t, std::uint32_t>> edges;
      for (std::size_t t = 0; t < s.indices.size(); t += 3) {
        for (std::size_t k = 0; k < 3; ++k) CHECK(edges.emplace(s.indices[t + k], s.indices[t + (k + 1) % 3]).second);
      }
      std::size_t border = 0;
      for (const auto& [a, b] : edges) {
        if (edges.count({b, a}) != 0) continue;
        ++border;
        const int ac = static_cast<int>(a) % columns, ar = static_cast<int>(a) / columns;
        const int bc = static_cast<int>(b) % columns, br = static_cast<int>(b) / columns;
        CHECK(std::abs(ac - bc) + std::abs(ar - br) == 1);
        CHECK(((ac == bc && (ac == 0 || ac == columns - 1)) || (ar == br && (ar == 0 || ar == rows - 1))));
      }
      CHECK(border == static_cast<std::size_t>(2 * (columns - 1 + rows - 1)));
    }
  }
}

TEST_CASE("mesh: bad options name the JSON path", "[mesh]") {
  for (const auto& [key, value, rule] :
       std::vector<std::tuple<std::string, json, std::string>>{{"max_error", -1.0, "is below the minimum 0"},
                                                               {"skirt", "deep", "must be a number"},
                                                               {"max_triangles", -1, "is below the minimum 0"},
                                                               {"max_triangles", 2.5, "must be an integer"},
                                                               {"max_triangles", "many", "must be an integer"},
                                                               {"format", "obj", "is not one of glb"}}) {
    INFO(key);
    json o = {{"map", "mesh"}};
    o[key] = value;
    try {
      (void)pipeline::build(mesh_preset(16, json::array({o})));
      FAIL("accepted");
    } catch (const preset_error& e) {
      std::string text;
      for (const auto& issue : e.issues()) text += issue.path + ": " + issue.message + "\n";
      std::string path = "outputs[0] (mesh).";
      path += key;
      INFO(text);
      CHECK(text.find(path) != std::string::npos);
      CHECK(text.find(rule) != std::string::npos);
    }
  }
}
