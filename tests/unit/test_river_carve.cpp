// Unit tests for `river_carve` (issue 10): on a valley the channel lies on
// the axis with its centre d(Q) deep; carving never raises a cell; the bed
// never rises downstream along any river path; no new closed depression;
// the water of the carved terrain: the carved heights under its GeoJSON
// network never rise downstream, its lines end at sea, lake or edge, off the
// lakes, matching the river mask; thread independence, tiles equal to the
// world, parameter errors.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "landform/core/error.hpp"
#include "landform/derive/water.hpp"
#include "landform/pipeline/manifest.hpp"
#include "landform/pipeline/pipeline.hpp"
#include "landform/stages/river_carve.hpp"
#include "output_checks.hpp"
#include "water_checks.hpp"

using namespace landform;
using landform_test::build_outputs;
using landform_test::cell_at;
using landform_test::r32_values;

namespace {

// The heights a preset's stages make (the whole world).
heightfield heights_of(const json& preset) {
  const pipeline p = pipeline::build(preset);
  run_options options;
  options.nthreads = 1;
  return p.run_full(options).field;
}

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

// fBm terrain with a sea, lakes and rivers (96 x 80 cells of 30 m, 400 m).
const char* const k_terrain = R"({
  "size": [96, 80], "cell_size": 30.0, "height_scale": 400, "seed": 7, "sea_level": 0.25,
  "stages": [{"type": "opensimplex", "feature_size": 1500, "octaves": 5}, {"type": "normalize"}]
})";

}  // namespace

TEST_CASE("river_carve: on a valley the channel lies on the axis and its centre is d(Q) deep", "[river_carve]") {
  const int w = 41, h = 60, axis = 17;
  const double cs = 25.0, scale = 100.0;
  const heightfield before = valley(w, h, axis, cs);
  river_carve_params p;
  p.precipitation = 1200.0;
  p.river_area = 30.0 * cs * cs / 1e6;
  p.depth_scale = 3.0;
  const water_maps water = compute_water(before, scale, p.params(0.0, nullptr));
  heightfield after = before;
  stage_context ctx;
  ctx.height_scale = scale;
  ctx.nthreads = 1;
  apply_river_carve(after, p, ctx);
  int rows = 0;
  for (int y = 2; y < h - 2; ++y) {
    const std::size_t c = cell_at(w, axis, y);
    if (!water.is_river[c]) continue;
    ++rows;
    INFO("row " << y);
    const double depth = (static_cast<double>(before.at(axis, y)) - static_cast<double>(after.at(axis, y))) * scale;
    CHECK(depth == Approx(3.0 * static_cast<double>(water.river_depth[c])).epsilon(0.01));
    // The deepest cell of the row is on the axis; the banks are cut less.
    int lowest = 0;
    for (int x = 1; x < w - 1; ++x)
      if (after.at(x, y) < after.at(lowest, y)) lowest = x;
    CHECK(lowest == axis);
    CHECK(after.at(axis + 1, y) > after.at(axis, y));
    CHECK(after.at(axis + 1, y) <= before.at(axis + 1, y));
    CHECK(after.at(axis + 4, y) == before.at(axis + 4, y));  // beyond the bank (40 m = 1.6 cells)
  }
  CHECK(rows > h / 2);
  // The rivers of the carved valley run in the channel (3 cells wide: a
  // few cells of parallel flow along its banks before they join the axis).
  const water_maps again = compute_water(after, scale, p.params(0.0, nullptr));
  int on_axis = 0, off_axis = 0;
  for (std::size_t c = 0; c < again.is_river.size(); ++c) {
    if (!again.is_river[c]) continue;
    const int x = static_cast<int>(c % static_cast<std::size_t>(w));
    CHECK(std::abs(x - axis) <= 1);
    (x == axis ? on_axis : off_axis) += 1;
  }
  CHECK(off_axis * 5 < on_axis);
}

TEST_CASE("river_carve: never raises a cell, beds never rise downstream, no new closed depression", "[river_carve]") {
  const heightfield before = heights_of(json::parse(k_terrain));
  const int w = before.width(), h = before.height();
  const double scale = 400.0;
  for (const auto profile : {river_carve_profile::parabolic, river_carve_profile::flat}) {
    INFO("profile " << (profile == river_carve_profile::flat ? "flat" : "parabolic"));
    river_carve_params p;
    p.river_area = 0.05;
    p.min_depth = 1.0;
    p.depth_scale = 4.0;
    p.profile = profile;
    const water_params wp = p.params(0.25, nullptr);
    water_routing routing;
    const water_maps water = compute_water(before, scale, wp, 1, &routing);
    heightfield after = before;
    stage_context ctx;
    ctx.height_scale = scale;
    ctx.sea_level = 0.25;
    river_carve_report report;
    apply_river_carve(after, p, ctx, &report);
    CHECK(report.carved_cells > report.river_cells);
    CHECK(report.volume_m3 > 0.0);
    std::size_t raised = 0;
    for (std::size_t c = 0; c < before.size(); ++c) raised += after.data()[c] > before.data()[c];
    CHECK(raised == 0);
    // Along every river path of the input's water, receivers first.
    double max_rise = 0.0;
    std::size_t steps = 0;
    for (std::size_t c = 0; c < before.size(); ++c) {
      const std::uint32_t r = routing.graph.receiver[c];
      if (!water.is_river[c] || r == c || !water.is_river[r]) continue;
      ++steps;
      max_rise =
          std::max(max_rise, (static_cast<double>(after.data()[r]) - static_cast<double>(after.data()[c])) * scale);
    }
    WARN("river steps " << steps << ", max bed rise downstream " << max_rise << " m");
    CHECK(steps > 200);
    CHECK(max_rise <= 0.0);
    // Closed depressions (plain fill depth > 1e-6 m): none new.
    const std::vector<float> zb(before.data(), before.data() + before.size());
    const std::vector<float> za(after.data(), after.data() + after.size());
    const auto fill_before = landform_test::fill_depth(zb, w, h);
    const auto fill_after = landform_test::fill_depth(za, w, h);
    std::size_t pits_before = 0, pits_after = 0, new_on_channels = 0;
    for (std::size_t c = 0; c < before.size(); ++c) {
      const bool was = fill_before[c] * scale > 1e-6, is = fill_after[c] * scale > 1e-6;
      pits_before += was;
      pits_after += is;
      new_on_channels += is && !was && za[c] < zb[c];
    }
    WARN("cells in closed depressions: before " << pits_before << ", after " << pits_after << "; new on channels "
                                                << new_on_channels);
    CHECK(new_on_channels == 0);
    CHECK(pits_after <= pits_before);
  }
}

TEST_CASE("river_carve: the water of the carved terrain: beds under the network never rise, ends, off lakes, IoU",
          "[river_carve][pipeline]") {
  // presets/rivers-and-lakes.json's land on 128 x 128 cells of 20 m, carved
  // as in docs/water.md: rough enough that the rivers of the carved terrain
  // cross small pits (deeper than min_depth but smaller than min_area) that
  // the rivers of the input did not (19 rises of up to 19.5 m before the
  // settling step).
  json preset = json::parse(R"({
    "size": 128, "seed": 21, "cell_size": 20.0, "height_scale": 800, "sea_level": 0.22,
    "stages": [{"type": "opensimplex", "feature_size": 1250, "octaves": 7},
               {"type": "thermal_erosion", "iterations": 20}, {"type": "normalize", "mode": "min_max"}]
  })");
  const json water = {{"min_depth", 8}, {"min_area", 400000}, {"precipitation", 600}, {"river_area", 0.3}};
  json carve = {{"type", "river_carve"}, {"depth_scale", 30}, {"width_scale", 3}, {"bank_m", 60}, {"min_width", 3}};
  carve.update(water);
  preset["stages"].push_back(carve);
  json outputs = json::array();
  for (const char* map : {"river_network", "river", "lake", "height"}) {
    json o = {{"map", map}, {"format", std::string(map) == "river_network" ? "geojson" : "r32"}};
    if (std::string(map) != "height") o.update(water);
    outputs.push_back(o);
  }
  preset["outputs"] = outputs;
  const auto files = build_outputs(preset, 1);
  REQUIRE(files.size() == 4);
  const json fc = json::parse(std::string(files[0].bytes.begin(), files[0].bytes.end()));
  const auto river = r32_values(files[1].bytes);
  const auto lake = r32_values(files[2].bytes);
  const auto height = r32_values(files[3].bytes);
  const int w = 128, h = 128;
  const double cs = 20.0, scale = 800.0;
  REQUIRE(fc["features"].size() > 3);
  // The carved heights under each line's vertices on cell centres (not the
  // halfway vertices of a lake shore or mouth, nor the border's), upstream
  // first: never higher than the vertex before.
  std::size_t steps = 0, rises = 0, on_lake = 0, bad_end = 0;
  double max_rise = 0.0;
  for (const auto& f : fc["features"]) {
    const auto& coords = f["geometry"]["coordinates"];
    const std::string end = f["properties"]["end"];
    bad_end += !(end == "sea" || end == "lake" || end == "edge" || end == "confluence");
    double previous = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t k = 0; k < coords.size(); ++k) {
      const double gx = coords[k][0].get<double>() / cs, gy = -coords[k][1].get<double>() / cs;
      if (gx != std::floor(gx) || gy != std::floor(gy)) {
        previous = std::numeric_limits<double>::quiet_NaN();
        continue;
      }
      const std::size_t c = cell_at(w, static_cast<int>(gx), static_cast<int>(gy));
      on_lake += lake[c] != 0.0f;
      const double bed = static_cast<double>(height[c]) * scale;
      if (!std::isnan(previous)) {
        ++steps;
        rises += bed > previous;
        max_rise = std::max(max_rise, bed - previous);
      }
      previous = bed;
    }
  }
  WARN("carved network: " << steps << " steps, " << rises << " rise downstream, by up to " << max_rise << " m");
  CHECK(steps > 100);
  CHECK(rises == 0);
  CHECK(on_lake == 0);
  CHECK(bad_end == 0);
  const double iou = landform_test::mask_iou(landform_test::rasterise(fc, w, h, cs), river);
  WARN("IoU rasterised network vs river mask after carving: " << iou);
  CHECK(iou >= 0.9);
  // Byte-identical on 2 and 8 threads.
  for (const int threads : {2, 8}) {
    const auto again = build_outputs(preset, threads);
    for (std::size_t k = 0; k < files.size(); ++k) CHECK(again[k].bytes == files[k].bytes);
  }
}

TEST_CASE("river_carve: a tile's heights and rivers equal the same window of the world's", "[river_carve][pipeline]") {
  const json world = json::parse(R"({
    "size": [72, 60], "cell_size": 20.0, "height_scale": 300, "sea_level": 0.3,
    "stages": [{"type": "opensimplex", "feature_size": 400, "octaves": 4}, {"type": "normalize"},
               {"type": "river_carve", "river_area": 0.1, "depth_scale": 5}],
    "outputs": [{"map": "height", "format": "r32"}, {"map": "river", "format": "r32", "river_area": 0.1}]
  })");
  const json tile = landform_test::tile_preset(world, 72, 60, 20, 16, 40, 13);
  const auto world_files = build_outputs(world, 2);
  const auto tile_files = build_outputs(tile, 1);
  REQUIRE(world_files.size() == 2);
  REQUIRE(tile_files.size() == 2);
  for (std::size_t k = 0; k < 2; ++k) {
    const auto wv = r32_values(world_files[k].bytes);
    const auto tv = r32_values(tile_files[k].bytes);
    REQUIRE(tv.size() == 20u * 16u);
    INFO("file " << k);
    CHECK(landform_test::window_mismatches(wv, 72, tv, 20, 40, 13) == 0);
  }
}

TEST_CASE("river_carve: parameters are checked with their path, value and rule; the schema is the water outputs'",
          "[river_carve][pipeline]") {
  json preset = json::parse(k_terrain);
  preset["stages"].push_back({{"type", "river_carve"}, {"bank_m", -5}, {"profile", "round"}});
  try {
    (void)pipeline::build(preset);
    FAIL("no preset error");
  } catch (const preset_error& e) {
    const std::string text = e.what();
    INFO(text);
    CHECK(text.find("stages[2] (river_carve).bank_m: -5 is below the minimum 0") != std::string::npos);
    CHECK(text.find("stages[2] (river_carve).profile: ") != std::string::npos);
  }
  // Every water option is a river_carve parameter with the same spec.
  const auto& carve = river_carve_params::schema().specs();
  for (const param_spec& spec : water_output_options::schema().specs()) {
    INFO(spec.name);
    const auto it = std::find_if(carve.begin(), carve.end(), [&](const param_spec& s) { return s.name == spec.name; });
    REQUIRE(it != carve.end());
    CHECK(it->doc == spec.doc);
    CHECK(it->unit == spec.unit);
    CHECK(it->default_value == spec.default_value);
  }
}
