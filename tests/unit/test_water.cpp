// Unit tests for the water (issue 10): sea level on a ramp shared by preview,
// biome, splat and the water outputs; an inland basin below sea level is not
// sea; a closed basin fills exactly to its spill height, one with a notch
// drains; min_depth / min_area; discharge = precipitation x catchment; the
// river_discharge threshold; precipitation_layer (a dry half adds nothing);
// a river follows a valley axis; widths follow hydraulic geometry; the GeoJSON
// network's structure, monotone surface, ends, no vertex on a lake and IoU
// with the river mask; thread independence and tiles equal to the world;
// the same world at 512^2 and 1024^2: network length and outlets.

#include <stb_image.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "landform/derive/water.hpp"
#include "landform/outputs/water_output.hpp"
#include "landform/pipeline/manifest.hpp"
#include "landform/pipeline/pipeline.hpp"
#include "output_checks.hpp"
#include "water_checks.hpp"

using namespace landform;
using landform_test::at;
using landform_test::build_outputs;
using landform_test::r32_values;

namespace {

// A flat plateau at 0.5 with a square basin: rim of height `rim` around an
// interior at `bed`, one rim cell (the spill) at `spill`.
heightfield basin(int n, float rim, float bed, float spill, double cell_size = 10.0) {
  heightfield h(region{n, n, 0, 0, cell_size}, 0.5f);
  const int a = n / 4, b = 3 * n / 4;
  for (int y = a; y <= b; ++y) {
    for (int x = a; x <= b; ++x) {
      const bool edge = x == a || y == a || x == b || y == b;
      h.at(x, y) = edge ? rim : bed;
    }
  }
  h.at(n / 2, a) = spill;
  return h;
}

}  // namespace

TEST_CASE("water: the sea is below sea level and connected to the border; an inland basin is not", "[derive][water]") {
  // Ramp rising east 0..1; a deep pit inside the high part.
  const int w = 64, h = 16;
  heightfield f(region{w, h, 0, 0, 10.0});
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) f.at(x, y) = static_cast<float>(x) / static_cast<float>(w - 1);
  for (int y = 6; y < 10; ++y)
    for (int x = 48; x < 52; ++x) f.at(x, y) = 0.1f;
  water_params p;
  p.sea_level = 0.4;
  const water_maps m = compute_water(f, 100.0, p);
  for (int x = 0; x < w; ++x) {
    INFO("x " << x);
    const bool below = static_cast<double>(f.at(x, 0)) < 0.4;
    CHECK(m.ocean[at(w, x, 0)] == (below ? 1 : 0));
    if (below) CHECK(m.level[at(w, x, 0)] == 0.4f);
    if (below) CHECK(m.depth[at(w, x, 0)] == Approx((0.4 - static_cast<double>(f.at(x, 0))) * 100.0).epsilon(1e-5));
  }
  for (int y = 6; y < 10; ++y) {
    for (int x = 48; x < 52; ++x) {
      CHECK(m.ocean[at(w, x, y)] == 0);
      CHECK(m.lake[at(w, x, y)] >= 0);  // a lake below sea level, filled to its rim
    }
  }
}

TEST_CASE("water: one sea_level moves the coast of preview, biome, splat and water outputs together",
          "[derive][water][pipeline]") {
  for (const double sea : {0.35, 0.6}) {
    INFO("sea_level " << sea);
    const json preset = {
        {"size", {64, 8}},
        {"cell_size", 10.0},
        {"height_scale", 10.0},
        {"sea_level", sea},
        {"stages", json::array({{{"type", "gradient"}}})},
        {"outputs", json::array({{{"map", "water_depth"}, {"format", "r32"}},
                                 {{"map", "biome"}, {"format", "rgb8"}},
                                 {{"map", "preview"}, {"format", "rgb8"}, {"ramp", "earth"}, {"hillshade", 0}},
                                 {{"map", "splat"},
                                  {"format", "rgba8"},
                                  {"layers", json::array({{{"name", "land"}},
                                                          {{"name", "sea"}, {"above_sea", {-1, 0}}, {"weight", 100}}})},
                                  {"height_blend", 0}}})}};
    const auto files = build_outputs(preset);
    REQUIRE(files.size() == 4);
    const auto depth = r32_values(files[0].bytes);
    int w = 0, h = 0, ch = 0;
    stbi_uc* biome =
        stbi_load_from_memory(files[1].bytes.data(), static_cast<int>(files[1].bytes.size()), &w, &h, &ch, 3);
    stbi_uc* preview =
        stbi_load_from_memory(files[2].bytes.data(), static_cast<int>(files[2].bytes.size()), &w, &h, &ch, 3);
    stbi_uc* splat =
        stbi_load_from_memory(files[3].bytes.data(), static_cast<int>(files[3].bytes.size()), &w, &h, &ch, 4);
    REQUIRE(biome != nullptr);
    REQUIRE(preview != nullptr);
    REQUIRE(splat != nullptr);
    // The coast: one past the last water column of each map (deep biome
    // water fades to black, so only the last water column counts).
    const int y = 4;
    int coast_depth = 0, coast_biome = 0, coast_preview = 0, coast_splat = 0;
    for (int x = 0; x < 64; ++x) {
      const std::size_t c = at(64, x, y);
      if (depth[c] > 0.0f) coast_depth = x + 1;
      if (biome[3 * c + 2] > biome[3 * c]) coast_biome = x + 1;  // blue over red
      if (preview[3 * c + 2] > preview[3 * c]) coast_preview = x + 1;
      if (splat[4 * c + 1] > 127) coast_splat = x + 1;  // the "sea" layer in G
    }
    stbi_image_free(biome);
    stbi_image_free(preview);
    stbi_image_free(splat);
    // The ramp rises 1/64 per column: the coast moves with sea level.
    CHECK(std::abs(coast_depth - sea * 64.0) <= 1.0);
    CHECK(coast_biome == coast_depth);
    CHECK(coast_splat == coast_depth);
    // The ramps blend sea into sand over 0.28..0.30: within one column.
    CHECK(std::abs(coast_preview - coast_depth) <= 1);
  }
}

TEST_CASE("water: a closed basin fills exactly to its spill height; a notch drains it; min_depth, min_area",
          "[derive][water]") {
  const int n = 32;
  const heightfield closed = basin(n, 0.8f, 0.2f, 0.6f);
  water_params p;
  p.min_depth = 1.0;
  const water_maps m = compute_water(closed, 50.0, p);
  REQUIRE(m.lakes.size() == 1);
  CHECK(m.lakes[0].level == static_cast<double>(0.6f));
  CHECK(m.lakes[0].outlet == at(n, n / 2, n / 4));
  const int a = n / 4, b = 3 * n / 4;
  CHECK(m.lakes[0].cells == static_cast<std::uint32_t>((b - a - 1) * (b - a - 1)));
  for (int y = a + 1; y < b; ++y) {
    for (int x = a + 1; x < b; ++x) {
      CHECK(m.level[at(n, x, y)] == 0.6f);
      CHECK(m.depth[at(n, x, y)] == Approx((static_cast<double>(0.6f) - static_cast<double>(0.2f)) * 50.0));
    }
  }
  CHECK(m.level[at(n, 2, 2)] == 0.5f);
  CHECK(m.depth[at(n, 2, 2)] == 0.0f);
  // A notch below the bed: the basin drains, no lake.
  heightfield notched = basin(n, 0.8f, 0.2f, 0.1f);
  for (int y = 0; y < a; ++y) notched.at(n / 2, y) = 0.05f;  // a channel from the notch to the border
  const water_maps drained = compute_water(notched, 50.0, p);
  CHECK(drained.lakes.empty());
  CHECK(std::all_of(drained.depth.begin(), drained.depth.end(), [](float d) { return d == 0.0f; }));
  // min_depth: the lake is 20 m deep.
  water_params deep = p;
  deep.min_depth = 20.5;
  CHECK(compute_water(closed, 50.0, deep).lakes.empty());
  deep.min_depth = 19.5;
  CHECK(compute_water(closed, 50.0, deep).lakes.size() == 1);
  // min_area: 15 x 15 cells of 100 m^2.
  water_params wide = p;
  wide.min_area = 225.0 * 100.0 + 1.0;
  CHECK(compute_water(closed, 50.0, wide).lakes.empty());
  wide.min_area = 225.0 * 100.0;
  CHECK(compute_water(closed, 50.0, wide).lakes.size() == 1);
}

TEST_CASE("water: evaporation leaves a basin dry when its inflow is smaller", "[derive][water]") {
  const int n = 32;
  const heightfield closed = basin(n, 0.8f, 0.2f, 0.6f);
  water_params p;
  p.precipitation = 500.0;
  // On the filled surface the rim drains outwards (0.8 -> 0.5 is steeper than
  // 0.8 -> the 0.6 lake surface): the catchment is the 15 x 15 lake itself,
  // so inflow < evaporation exactly when E > P.
  p.evaporation = 500.0 * 1.01;
  const water_maps dry = compute_water(closed, 50.0, p);
  REQUIRE(dry.lakes.size() == 1);
  CHECK(dry.lakes[0].dry);
  CHECK(dry.depth[at(n, n / 2, n / 2)] == 0.0f);
  p.evaporation = 500.0 * 0.99;
  const water_maps wet = compute_water(closed, 50.0, p);
  REQUIRE(wet.lakes.size() == 1);
  CHECK(!wet.lakes[0].dry);
  CHECK(wet.depth[at(n, n / 2, n / 2)] > 0.0f);
}

namespace {

// A V-shaped valley on a plane falling south, closed by a high wall except
// one outlet at the bottom of the axis.
heightfield valley(int w, int h, int axis, double cell_size) {
  heightfield f(region{w, h, 0, 0, cell_size}, 10.0f);
  for (int y = 1; y < h - 1; ++y)
    for (int x = 1; x < w - 1; ++x)
      f.at(x, y) = static_cast<float>(1.0 + 0.001 * (h - 1 - y) + 0.003 * std::abs(x - axis));
  f.at(axis, h - 1) = 0.0f;
  return f;
}

// m^3/s of rain at `mm_per_year` over `area_m2`.
double rain_m3s(double mm_per_year, double area_m2) {
  return mm_per_year / 1000.0 / (365.25 * 86400.0) * area_m2;
}

// The valley of the river tests: 41 x 60 cells of 25 m, its axis at x = 17;
// the catchment of its outlet is every interior cell and the outlet.
struct valley_case {
  static constexpr int w = 41, h = 60, axis = 17;
  static constexpr double cs = 25.0;
  heightfield f = valley(w, h, axis, cs);
  [[nodiscard]] std::size_t outlet() const { return at(w, axis, h - 1); }
};

}  // namespace

TEST_CASE("water: a river follows the valley axis, discharge = precipitation x catchment, width = a Q^b",
          "[derive][water]") {
  const int w = 41, h = 60, axis = 17;
  const double cs = 25.0;
  const heightfield f = valley(w, h, axis, cs);
  water_params p;
  p.precipitation = 1200.0;
  p.river_area = 30.0 * cs * cs;
  const water_maps m = compute_water(f, 100.0, p);
  const std::size_t outlet = at(w, axis, h - 1);
  const double catchment = (static_cast<double>(w - 2) * (h - 2) + 1.0) * cs * cs;
  const double expected = 1200.0 / 1000.0 / (365.25 * 86400.0) * catchment;
  CHECK(static_cast<double>(m.discharge[outlet]) == Approx(expected).epsilon(1e-3));
  CHECK(static_cast<double>(m.area[outlet]) == Approx(catchment).epsilon(1e-6));
  int river_cells = 0;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const std::size_t c = at(w, x, y);
      if (!m.is_river[c]) continue;
      ++river_cells;
      CHECK(x == axis);
      CHECK(static_cast<double>(m.river_width[c]) ==
            Approx(p.width_a * std::pow(static_cast<double>(m.discharge[c]), p.width_b)).epsilon(1e-5));
      CHECK(static_cast<double>(m.river_depth[c]) ==
            Approx(p.depth_c * std::pow(static_cast<double>(m.discharge[c]), p.depth_f)).epsilon(1e-5));
    }
  }
  CHECK(river_cells > h / 2);
  REQUIRE(m.network.size() == 1);
  CHECK(m.network[0].end == "edge");
  CHECK(m.network[0].strahler == 1);
}

TEST_CASE("water: river_discharge: rivers begin where Q = precipitation x area reaches it; Q at the outlet",
          "[derive][water]") {
  const valley_case v;
  const int w = v.w, axis = v.axis;
  const double cs = v.cs;
  water_params p;
  p.precipitation = 900.0;                               // mm/yr
  p.river_discharge = rain_m3s(900.0, 200.5 * cs * cs);  // m^3/s: about 200 cells of rain
  const water_maps m = compute_water(v.f, 100.0, p);
  std::size_t rivers = 0, dry = 0;
  for (std::size_t c = 0; c < m.is_river.size(); ++c) {
    INFO("cell " << c);
    const bool above = static_cast<double>(m.discharge[c]) >= p.river_discharge;
    CHECK(static_cast<bool>(m.is_river[c]) == (above && !m.ocean[c] && m.lake[c] < 0));
    rivers += m.is_river[c];
    dry += !above;
  }
  CHECK(rivers > 10);
  CHECK(dry > rivers);
  // The network's outlet carries precipitation x catchment (the whole valley).
  const double expected = rain_m3s(900.0, (static_cast<double>(w - 2) * (v.h - 2) + 1.0) * cs * cs);
  const json fc = json::parse(river_network_geojson(m, v.f.placement(), 100.0, 0, 0, w, v.h));
  REQUIRE(fc["features"].size() == 1);
  CHECK(fc["features"][0]["properties"]["end"] == "edge");
  CHECK(fc["features"][0]["properties"]["discharge_m3s"].get<double>() == Approx(expected).epsilon(1e-3));
  // Its first cell is the first on the axis whose discharge reaches the threshold.
  const auto& first = fc["features"][0]["geometry"]["coordinates"][0];
  const int head_y = static_cast<int>(std::lround(-first[1].get<double>() / cs));
  CHECK(static_cast<int>(std::lround(first[0].get<double>() / cs)) == axis);
  CHECK(static_cast<double>(m.discharge[at(w, axis, head_y)]) >= p.river_discharge);
  CHECK(static_cast<double>(m.discharge[at(w, axis, head_y - 1)]) < p.river_discharge);
}

TEST_CASE("water: precipitation_layer scales the rain per cell; a dry half adds nothing to the discharge",
          "[derive][water]") {
  const valley_case v;
  std::vector<float> rain(static_cast<std::size_t>(v.w) * v.h, 1.0f);
  for (int y = 0; y < v.h; ++y)
    for (int x = 0; x < v.axis; ++x) rain[at(v.w, x, y)] = 0.0f;  // no rain west of the axis
  water_params p;
  p.precipitation = 1200.0;
  p.precipitation_layer = &rain;
  const water_maps m = compute_water(v.f, 100.0, p);
  // The wet part of the catchment: interior columns axis .. w - 2, and the outlet.
  const double wet = (static_cast<double>(v.w - 1 - v.axis) * (v.h - 2) + 1.0) * v.cs * v.cs;
  CHECK(static_cast<double>(m.discharge[v.outlet()]) == Approx(rain_m3s(1200.0, wet)).epsilon(1e-3));
  CHECK(static_cast<double>(m.area[v.outlet()]) ==
        Approx((static_cast<double>(v.w - 2) * (v.h - 2) + 1.0) * v.cs * v.cs));
  CHECK(m.discharge[at(v.w, 5, 20)] == 0.0f);  // a dry cell west of the axis
}

TEST_CASE("water outputs: precipitation_layer names a layer an earlier stage wrote with target",
          "[derive][water][pipeline]") {
  // A plane falling south: each interior column drains straight to the
  // bottom border (9 cells of 50 m). Rain only on the east half of the map.
  const json preset = json::parse(R"({
    "size": [16, 10], "cell_size": 50.0, "height_scale": 100,
    "stages": [{"type": "gradient", "angle": 90, "start": 1, "end": 0},
               {"type": "gradient", "angle": 0, "start": -1000, "end": 1000, "target": "rain"},
               {"type": "clamp", "min": 0, "max": 1, "target": "rain"}],
    "outputs": [{"map": "rain", "format": "r32"},
                {"map": "river_network", "format": "geojson", "river_area": 0.01, "precipitation": 1000,
                 "precipitation_layer": "rain"}]
  })");
  const auto files = build_outputs(preset, 1);
  REQUIRE(files.size() == 2);
  const auto rain = r32_values(files[0].bytes);
  const json fc = json::parse(std::string(files[1].bytes.begin(), files[1].bytes.end()));
  const double per_cell = rain_m3s(1000.0, 50.0 * 50.0);  // m^3/s at rain 1
  std::size_t wet_columns = 0;
  for (int x = 1; x < 15; ++x) wet_columns += rain[at(16, x, 5)] > 0.0f;
  CHECK(wet_columns == 7);  // the west half is dry
  REQUIRE(fc["features"].size() == wet_columns);
  for (const auto& feature : fc["features"]) {
    const int x = static_cast<int>(std::lround(feature["geometry"]["coordinates"][0][0].get<double>() / 50.0));
    INFO("column " << x);
    double column_rain = 0.0;
    for (int y = 1; y < 10; ++y) column_rain += static_cast<double>(rain[at(16, x, y)]);
    CHECK(feature["properties"]["end"] == "edge");
    CHECK(feature["properties"]["discharge_m3s"].get<double>() == Approx(per_cell * column_rain).epsilon(1e-3));
  }
}

TEST_CASE("water: the GeoJSON network is RFC 7946, monotone, ends at sea/lake/edge, avoids lakes, matches the mask",
          "[derive][water][pipeline]") {
  const json preset = json::parse(R"({
    "size": [96, 80], "cell_size": 30.0, "height_scale": 400, "seed": 7, "sea_level": 0.25,
    "stages": [{"type": "opensimplex", "feature_size": 1500, "octaves": 5},
               {"type": "normalize"}],
    "outputs": [{"map": "river_network", "format": "geojson", "river_area": 0.2, "min_depth": 1},
                {"map": "river", "format": "r32", "river_area": 0.2, "min_depth": 1},
                {"map": "lake", "format": "r32", "river_area": 0.2, "min_depth": 1},
                {"map": "water_depth", "format": "r32", "river_area": 0.2, "min_depth": 1}]
  })");
  const auto files = build_outputs(preset, 1);
  REQUIRE(files.size() == 4);
  const std::string text(files[0].bytes.begin(), files[0].bytes.end());
  const json fc = json::parse(text);
  REQUIRE(fc["type"] == "FeatureCollection");
  REQUIRE(fc["features"].is_array());
  REQUIRE(fc["features"].size() > 3);
  const auto river = r32_values(files[1].bytes);
  const auto lake = r32_values(files[2].bytes);
  const int w = 96, h = 80;
  const double cs = 30.0;
  int ends_sea = 0;
  for (const auto& f : fc["features"]) {
    CHECK(f["type"] == "Feature");
    CHECK(f["geometry"]["type"] == "LineString");
    const auto& coords = f["geometry"]["coordinates"];
    REQUIRE(coords.size() >= 2);
    for (const char* key : {"strahler", "discharge_m3s", "width_m", "depth_m", "widths_m", "end"})
      CHECK(f["properties"].contains(key));
    CHECK(f["properties"]["widths_m"].size() == coords.size());
    const std::string end = f["properties"]["end"];
    CHECK((end == "sea" || end == "lake" || end == "edge" || end == "confluence"));
    ends_sea += end == "sea";
    for (std::size_t k = 0; k < coords.size(); ++k) {
      CHECK(coords[k].size() == 3);
      if (k > 0) CHECK(coords[k][2].get<double>() <= coords[k - 1][2].get<double>());
      const double gx = coords[k][0].get<double>() / cs, gy = -coords[k][1].get<double>() / cs;
      if (gx == std::floor(gx) && gy == std::floor(gy)) {
        CHECK(lake[at(w, static_cast<int>(gx), static_cast<int>(gy))] == 0.0f);  // no vertex on a lake
      }
    }
  }
  CHECK(ends_sea > 0);
  const double iou = landform_test::mask_iou(landform_test::rasterise(fc, w, h, cs), river);
  WARN("IoU rasterised network vs river mask: " << iou);
  CHECK(iou >= 0.9);
  // Byte-identical on 2 and 8 threads.
  for (const int threads : {2, 8}) {
    const auto again = build_outputs(preset, threads);
    for (std::size_t k = 0; k < files.size(); ++k) CHECK(again[k].bytes == files[k].bytes);
  }
}

TEST_CASE("water: a river that rises on a border cell is a line to the border, not one position",
          "[derive][water][pipeline]") {
  // A plane with a threshold below one cell: every cell is a river, and the
  // border cells (the base level) leave the map at once.
  const json preset = json::parse(R"({
    "size": [12, 9], "cell_size": 10.0, "height_scale": 100,
    "stages": [{"type": "gradient", "start": 0.1, "end": 0.9}],
    "outputs": [{"map": "river_network", "format": "geojson", "river_area": 1e-6}]
  })");
  const auto files = build_outputs(preset, 1);
  const json fc = json::parse(std::string(files[0].bytes.begin(), files[0].bytes.end()));
  int at_border = 0;
  for (const auto& f : fc["features"]) {
    const auto& coords = f["geometry"]["coordinates"];
    REQUIRE(coords.size() >= 2);  // RFC 7946 section 3.1.4
    if (f["properties"]["end"] != "edge") continue;
    // The last position is on the map's border, half a cell out from the
    // border cell before it.
    const double x = coords.back()[0], y = coords.back()[1];
    CHECK((x == -5.0 || x == 115.0 || y == 5.0 || y == -85.0));
    CHECK(std::abs(x - coords[coords.size() - 2][0].get<double>()) <= 5.0);
    CHECK(std::abs(y - coords[coords.size() - 2][1].get<double>()) <= 5.0);
    ++at_border;
  }
  CHECK(at_border == 2 * 12 + 2 * 9 - 4);  // every border cell is an outlet of the base level
}

TEST_CASE("water outputs: a tile's files equal the same window of the world's", "[derive][water][pipeline]") {
  const json world = json::parse(R"({
    "size": [72, 60], "cell_size": 20.0, "height_scale": 300, "sea_level": 0.3,
    "stages": [{"type": "opensimplex", "feature_size": 400, "octaves": 4}, {"type": "normalize"}],
    "outputs": [{"map": "water_level", "format": "r32"}, {"map": "water_depth", "format": "r32"},
                {"map": "lake", "format": "r32"}, {"map": "river", "format": "r32", "river_area": 0.1},
                {"map": "river_depth", "format": "r32", "river_area": 0.1}]
  })");
  const json tile = landform_test::tile_preset(world, 72, 60, 20, 16, 40, 13);
  const auto world_files = build_outputs(world, 2);
  const auto tile_files = build_outputs(tile, 1);
  REQUIRE(world_files.size() == 5);
  REQUIRE(tile_files.size() == 5);
  for (std::size_t k = 0; k < 5; ++k) {
    const auto wv = r32_values(world_files[k].bytes);
    const auto tv = r32_values(tile_files[k].bytes);
    REQUIRE(tv.size() == 20u * 16u);
    INFO("file " << k);
    CHECK(landform_test::window_mismatches(wv, 72, tv, 20, 40, 13) == 0);
  }
}

TEST_CASE("water: sea_level is checked and given once", "[derive][water][pipeline]") {
  const json bad = json::parse(R"({"sea_level": "low", "stages": [{"type": "constant"}]})");
  CHECK_THROWS_WITH(pipeline::build(bad), Catch::Contains("sea_level") && Catch::Contains("must be a number"));
  const json twice = json::parse(R"({"sea_level": 0.4, "stages": [{"type": "constant"}],
    "outputs": [{"map": "biome", "format": "rgb8", "sea_level": 0.5}]})");
  CHECK_THROWS_WITH(pipeline::build(twice), Catch::Contains("outputs[0].sea_level") && Catch::Contains("once"));
}

TEST_CASE("water: the same world at 512^2 and 1024^2 gives networks of similar length and the same outlets",
          "[derive][water][pipeline]") {
  // 10.24 km of fBm land at 20 m and 10 m cells; rivers from 5 km^2 (a
  // physical threshold, so the same rivers at both resolutions). At
  // sea_level 0.2 or 0.15 a sill one cell wide closes the sea at one
  // resolution only (the sea becomes a lake draining at the edge): a
  // discretisation limit, so this world's sea is at 0.25.
  const double threshold_km2 = 5.0, coarse_cell = 20.0;
  const auto network = [&](int size) {
    const json preset = {
        {"size", size},
        {"seed", 3},
        {"cell_size", 10240.0 / size},
        {"height_scale", 800},
        {"sea_level", 0.25},
        {"stages", json::array({{{"type", "opensimplex"}, {"feature_size", 5000}, {"octaves", 6}},
                                {{"type", "normalize"}, {"mode", "min_max"}}})},
        {"outputs",
         json::array(
             {{{"map", "river_network"}, {"format", "geojson"}, {"river_area", threshold_km2}, {"min_depth", 2}}})}};
    const auto files = build_outputs(preset, 2);
    return json::parse(std::string(files[0].bytes.begin(), files[0].bytes.end()));
  };
  struct outlet {
    double x, y, area_km2;
  };
  const double runoff = rain_m3s(800.0, 1.0);  // m^3/s per m^2 at the default 800 mm/yr
  const auto summary = [&](const json& fc, double& length, std::vector<outlet>& outlets) {
    length = 0.0;
    for (const auto& f : fc["features"]) {
      const auto& c = f["geometry"]["coordinates"];
      for (std::size_t k = 0; k + 1 < c.size(); ++k)
        length += std::hypot(c[k + 1][0].get<double>() - c[k][0].get<double>(),
                             c[k + 1][1].get<double>() - c[k][1].get<double>());
      if (f["properties"]["end"] == "confluence") continue;
      outlets.push_back({c.back()[0].get<double>(), c.back()[1].get<double>(),
                         f["properties"]["discharge_m3s"].get<double>() / runoff / 1e6});
    }
  };
  double coarse_length = 0.0, fine_length = 0.0;
  std::vector<outlet> coarse, fine;
  summary(network(512), coarse_length, coarse);
  summary(network(1024), fine_length, fine);
  WARN("network length 512: " << coarse_length << " m, 1024: " << fine_length << " m; outlets " << coarse.size()
                              << " and " << fine.size());
  CHECK(std::abs(fine_length / coarse_length - 1.0) <= 0.10);
  REQUIRE(coarse.size() >= 5);
  // Every outlet of a river well above the threshold (twice it, so a river
  // just at the threshold at one resolution may be missing at the other) has
  // an outlet of the other network within 2 coarse cells, both ways.
  const auto farthest = [&](const std::vector<outlet>& from, const std::vector<outlet>& to) {
    double worst = 0.0;
    std::size_t checked = 0;
    for (const outlet& a : from) {
      if (a.area_km2 < 2.0 * threshold_km2) continue;
      ++checked;
      double nearest = std::numeric_limits<double>::infinity();
      for (const outlet& b : to) nearest = std::min(nearest, std::hypot(a.x - b.x, a.y - b.y));
      worst = std::max(worst, nearest);
    }
    CHECK(checked >= 5);
    return worst;
  };
  const double coarse_to_fine = farthest(coarse, fine), fine_to_coarse = farthest(fine, coarse);
  WARN("farthest outlet without a partner: 512 -> 1024 " << coarse_to_fine << " m, 1024 -> 512 " << fine_to_coarse
                                                         << " m");
  CHECK(coarse_to_fine <= 2.0 * coarse_cell);
  CHECK(fine_to_coarse <= 2.0 * coarse_cell);
}

TEST_CASE("water outputs: built together (one shared computation) they equal each built alone",
          "[derive][water][pipeline]") {
  const json preset = json::parse(R"({
    "size": 48, "cell_size": 25.0, "height_scale": 200, "sea_level": 0.35,
    "stages": [{"type": "opensimplex", "feature_size": 500, "octaves": 3}, {"type": "normalize"}],
    "outputs": [{"map": "water_level", "format": "r32"}, {"map": "water_depth", "format": "r32"},
                {"map": "lake", "format": "r32"}, {"map": "river", "format": "r32", "river_area": 0.05},
                {"map": "river_depth", "format": "r32", "river_area": 0.05},
                {"map": "river_network", "format": "geojson", "river_area": 0.05}]
  })");
  const auto together = build_outputs(preset);
  REQUIRE(together.size() == 6);
  for (std::size_t k = 0; k < together.size(); ++k) {
    json alone = preset;
    alone["outputs"] = json::array({preset["outputs"][k]});
    const auto single = build_outputs(alone);
    REQUIRE(single.size() == 1);
    INFO("output " << k);
    CHECK(single[0].bytes == together[k].bytes);
  }
}

TEST_CASE("derived_cache: computes once per key, shares the result", "[derive][water]") {
  derived_cache cache;
  int calls = 0;
  auto compute = [&] {
    ++calls;
    return std::vector<float>{1.0f, 2.0f};
  };
  const auto a = cache.get<std::vector<float>>("water a", compute);
  const auto b = cache.get<std::vector<float>>("water a", compute);
  const auto c = cache.get<std::vector<float>>("water b", compute);
  CHECK(calls == 2);
  CHECK(a == b);
  CHECK(a != c);
  CHECK(*c == std::vector<float>{1.0f, 2.0f});
  CHECK(cache.size() == 2);
}
