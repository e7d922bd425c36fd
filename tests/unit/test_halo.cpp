// Halos (issue 12): a region build of local stages computes only the region
// grown by the summed halos, and equals the same window of the whole world
// bit for bit, heights and derived maps, at the world's edges and corners too.

#include <catch2/catch.hpp>

#include "stage_checks.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "landform/pipeline/manifest.hpp"
#include "landform/pipeline/pipeline.hpp"

using landform::build_result;
using landform::heightfield;
using landform::json;
using landform::pipeline;
using landform_test::bit_equal;

namespace {

constexpr int k_world = 64;

struct window {
  const char* name;
  int x, y, w, h;
};

// Interior, every edge and every corner of the 64 x 64 world.
const std::vector<window> k_windows = {
    {"interior", 21, 17, 16, 15},     {"top-left", 0, 0, 13, 11},
    {"top-right", 51, 0, 13, 11},     {"bottom-left", 0, 53, 13, 11},
    {"bottom-right", 51, 53, 13, 11}, {"top", 24, 0, 9, 7},
    {"bottom", 24, 57, 9, 7},         {"left", 0, 24, 5, 9},
    {"right", 59, 24, 5, 9},
};

// `header`: more top-level keys (e.g. sea_level).
json world_preset(const json& stages, const json& outputs = json::array(), const json& header = json::object()) {
  json p = {{"landform", 1}, {"size", k_world}, {"seed", 31}, {"stages", stages}};
  if (!outputs.empty()) p["outputs"] = outputs;
  p.update(header);
  return p;
}

json region_preset(const json& stages, const window& w, const json& outputs = json::array(),
                   const json& header = json::object()) {
  json p = world_preset(stages, outputs, header);
  p["size"] = {w.w, w.h};
  p["origin"] = {w.x, w.y};
  p["world"] = k_world;
  return p;
}

// Every window of the world built on its own equals the window of the whole
// build; returns how many windows computed less than the world.
int check_windows(const json& stages, int threads, const json& header = json::object()) {
  const pipeline whole = pipeline::build(world_preset(stages, json::array(), header));
  const heightfield all = whole.run({threads, {}, {}, {}});
  int smaller = 0;
  for (const window& w : k_windows) {
    INFO(w.name);
    const pipeline part = pipeline::build(region_preset(stages, w, json::array(), header));
    const landform::region area = part.computed_area();
    if (!part.computes_world()) {
      CHECK(area.width <= k_world);
      smaller += static_cast<int>(area.width < k_world || area.height < k_world);
    }
    const heightfield tile = part.run({threads, {}, {}, {}});
    CHECK(bit_equal(tile, all.crop(w.x, w.y, w.w, w.h)));
  }
  return smaller;
}

}  // namespace

TEST_CASE("halo: each stage type declares its halo from its parameters", "[pipeline][halo]") {
  auto halo = [](const json& stage) { return pipeline::build(world_preset(json::array({stage}))).stage_halo(); };
  CHECK(halo({{"type", "opensimplex"}}) == 0);
  CHECK(halo({{"type", "normalize"}}) == 0);
  CHECK(halo({{"type", "perturb"}, {"magnitude", 6}}) == 7);
  CHECK(halo({{"type", "perturb"}, {"magnitude", 2.5}}) == 4);
  CHECK(halo({{"type", "perturb"}, {"magnitude", 0}}) == 1);
  CHECK(halo({{"type", "thermal_erosion"}, {"iterations", 9}}) == 9);
  CHECK(halo({{"type", "smooth"}, {"sigma", 1.2}}) == 4);
  CHECK(halo({{"type", "smooth"}, {"sigma", 0.2}, {"iterations", 3}}) == 3);
  CHECK(halo({{"type", "smooth"}, {"method", "box"}, {"radius", 2}, {"iterations", 3}}) == 6);
  CHECK(halo({{"type", "smooth"}, {"method", "tutorial"}}) == -1);
  CHECK(halo({{"type", "olsen_erosion"}}) == -1);
  CHECK(halo({{"type", "hydraulic_erosion"}, {"droplet_count", 10}}) == -1);
  CHECK(halo({{"type", "normalize"}, {"mode", "min_max"}}) == 0);
  // A slope mask reads Horn's gradient: one more cell.
  CHECK(halo({{"type", "thermal_erosion"}, {"iterations", 2}, {"mask", {{"slope", {10, 60}}}}}) == 3);
  // Halos add up along the pipeline; outputs add theirs once.
  const pipeline p = pipeline::build(
      region_preset(json::array({{{"type", "opensimplex"}},
                                 {{"type", "perturb"}, {"magnitude", 3}},
                                 {{"type", "thermal_erosion"}, {"iterations", 5}}}),
                    k_windows[0], json::array({{{"map", "normal"}, {"format", "rgb8"}, {"file", "n.png"}}})));
  CHECK(p.stage_halo() == 9);
  CHECK(p.halo() == 1);
  CHECK_FALSE(p.computes_world());
  const landform::region area = p.computed_area();
  CHECK(area.origin_x == 21 - 10);
  CHECK(area.origin_y == 17 - 10);
  CHECK(area.width == 16 + 20);
  CHECK(area.height == 15 + 20);
  const json computed = landform::computed_block(p);
  CHECK(computed.at("mode") == "halo");
  CHECK(computed.at("halo") == 10);
  CHECK(computed.at("stages").at(1).at("halo") == 4);
  CHECK(computed.at("stages").at(2).at("scope") == "local");
}

TEST_CASE("halo: every local stage, region == window of the world, edges and corners", "[pipeline][halo]") {
  const json base = {{"type", "opensimplex"}, {"octaves", 4}, {"feature_size", 12}};
  const std::vector<json> locals = {
      {{"type", "perturb"}, {"frequency", 5}, {"magnitude", 6}},
      {{"type", "perturb"}, {"frequency", 9}, {"magnitude", 3.5}, {"sampling", "nearest"}},
      {{"type", "thermal_erosion"}, {"talus_angle", 20}, {"iterations", 7}},
      {{"type", "thermal_erosion"}, {"talus_angle", 10}, {"iterations", 5}, {"neighbourhood", "von_neumann"}},
      {{"type", "smooth"}, {"sigma", 1.7}},
      {{"type", "smooth"}, {"method", "box"}, {"radius", 2}, {"iterations", 2}},
      {{"type", "thermal_erosion"}, {"iterations", 3}, {"mask", {{"slope", {20, 80}}}}},
  };
  for (const json& stage : locals) {
    INFO(stage.dump());
    for (int threads : {1, 2}) {
      CHECK(check_windows(json::array({base, stage}), threads) == static_cast<int>(k_windows.size()));
    }
  }
  SECTION("a chain of local stages") {
    const json chain = json::array({base,
                                    {{"type", "perturb"}, {"magnitude", 4}},
                                    {{"type", "thermal_erosion"}, {"iterations", 4}},
                                    {{"type", "smooth"}, {"method", "box"}, {"radius", 1}},
                                    {{"type", "curve"}}});
    CHECK(check_windows(chain, 2) > 0);
  }
}

TEST_CASE("halo: droplet erosion with tiling overlap is local, region == window of the world",
          "[pipeline][halo][hydraulic_erosion]") {
  const json base = {{"type", "opensimplex"}, {"octaves", 4}, {"feature_size", 12}};
  // Blocks of 16 cells grown by 4: the halo is 24, so every window computes
  // less than the 64 x 64 world, and windows cut through blocks and bands.
  const json droplets = {{"type", "hydraulic_erosion"}, {"tiling", "overlap"},    {"block_size", 16},
                         {"block_overlap", 4},          {"droplets_per_cell", 2}, {"max_lifetime", 12}};
  CHECK(pipeline::build(world_preset(json::array({base, droplets}))).stage_halo() == 24);
  SECTION("an overlap shorter than a quarter of a droplet's path is a warning, not an error") {
    // Per-step values as given: a path of max_lifetime cells.
    json per_step = droplets;
    per_step["units"] = "cells";
    CHECK(pipeline::build(world_preset(json::array({base, per_step}))).advice().empty());  // 4 x 4 >= 12 steps
    json short_overlap = per_step;
    short_overlap["max_lifetime"] = 40;
    const auto advice = pipeline::build(world_preset(json::array({base, short_overlap}))).advice();
    REQUIRE(advice.size() == 1);
    CHECK(advice[0].path == "stages[1] (hydraulic_erosion).block_overlap");
    CHECK(advice[0].message.find("(40 cells on this grid)") != std::string::npos);
  }
  for (int threads : {1, 2, 8}) {
    CHECK(check_windows(json::array({base, droplets}), threads) == static_cast<int>(k_windows.size()));
  }
  SECTION("with a local stage after it and a sea base level") {
    json sea = droplets;
    sea["base_level"] = "sea";
    json stages = json::array({base, sea, {{"type", "thermal_erosion"}, {"iterations", 3}}});
    CHECK(check_windows(stages, 2, {{"sea_level", 0.0}}) > 0);
  }
  SECTION("the side maps too") {
    const json stages = json::array({base, droplets});
    const json outputs = json::array({{{"map", "erosion"}, {"format", "r32"}, {"file", "e.r32"}},
                                      {{"map", "droplet_flow"}, {"format", "r32"}, {"file", "f.r32"}}});
    const pipeline whole = pipeline::build(world_preset(stages, outputs));
    const build_result all = whole.run_full({1, {}, {}, {}});
    for (const window& w : {k_windows[0], k_windows[4]}) {
      INFO(w.name);
      const pipeline part = pipeline::build(region_preset(stages, w, outputs));
      REQUIRE_FALSE(part.computes_world());
      const build_result tile = part.run_full({2, {}, {}, {}});
      for (const char* name : {"erosion", "droplet_flow"}) {
        INFO(name);
        const std::vector<float>* world_map = all.layers.find(name);
        const std::vector<float>* tile_map = tile.layers.find(name);
        REQUIRE(world_map != nullptr);
        REQUIRE(tile_map != nullptr);
        heightfield a(all.field.placement()), b(tile.field.placement());
        a.values() = *world_map;
        b.values() = *tile_map;
        CHECK(std::any_of(a.values().begin(), a.values().end(), [](float v) { return v > 0.0f; }));
        CHECK(bit_equal(b.crop(tile.x0, tile.y0, w.w, w.h), a.crop(w.x, w.y, w.w, w.h)));
      }
    }
  }
}

TEST_CASE("halo: derived maps of a region equal the window of the world's", "[pipeline][halo]") {
  const json stages = json::array({{{"type", "opensimplex"}, {"octaves", 4}, {"feature_size", 12}},
                                   {{"type", "perturb"}, {"magnitude", 5}},
                                   {{"type", "thermal_erosion"}, {"iterations", 6}}});
  const json outputs = json::array({{{"map", "height"}, {"format", "r32"}, {"file", "h.r32"}},
                                    {{"map", "slope"}, {"format", "r32"}, {"file", "s.r32"}},
                                    {{"map", "curvature"}, {"format", "r32"}, {"file", "c.r32"}}});
  const pipeline whole = pipeline::build(world_preset(stages, outputs));
  const build_result all = whole.run_full({1, {}, {}, {}});
  const auto world_files = landform::encode_outputs(whole, all, 1);
  for (const window& w : k_windows) {
    INFO(w.name);
    const pipeline part = pipeline::build(region_preset(stages, w, outputs));
    REQUIRE_FALSE(part.computes_world());
    const auto files = landform::encode_outputs(part, part.run_full({2, {}, {}, {}}), 2);
    REQUIRE(files.size() == world_files.size());
    for (std::size_t f = 0; f < files.size(); ++f) {
      INFO(files[f].spec.file);
      // r32 rows of 4-byte cells: the window's bytes, row by row.
      const std::vector<std::uint8_t>& b = world_files[f].bytes;
      std::vector<std::uint8_t> crop;
      for (int y = w.y; y < w.y + w.h; ++y) {
        const auto start = b.begin() + 4 * (static_cast<std::ptrdiff_t>(y) * k_world + w.x);
        crop.insert(crop.end(), start, start + 4 * w.w);
      }
      CHECK(files[f].bytes == crop);
    }
  }
}

TEST_CASE("halo: whole-world stages still compute the world, and say so", "[pipeline][halo]") {
  const json stages = json::array({{{"type", "opensimplex"}, {"octaves", 3}}, {{"type", "olsen_erosion"}}});
  const pipeline part = pipeline::build(region_preset(stages, k_windows[0]));
  CHECK(part.computes_world());
  CHECK(part.computed_area().width == k_world);
  const json computed = landform::computed_block(part);
  CHECK(computed.at("mode") == "world");
  CHECK(computed.at("halo").is_null());
  CHECK(computed.at("stages").at(1).at("halo") == "world");
  CHECK(bit_equal(part.run({2, {}, {}, {}}),
                  pipeline::build(world_preset(stages)).run({1, {}, {}, {}}).crop(21, 17, 16, 15)));
}

TEST_CASE("halo: min_max normalize gets the world's range from a stats pass", "[pipeline][halo]") {
  const json stages = json::array({{{"type", "opensimplex"}, {"octaves", 4}, {"feature_size", 12}},
                                   {{"type", "perturb"}, {"magnitude", 3}},
                                   {{"type", "normalize"}, {"mode", "min_max"}},
                                   {{"type", "thermal_erosion"}, {"iterations", 3}},
                                   {{"type", "normalize"}, {"mode", "min_max"}, {"output_min", -1}}});
  CHECK(check_windows(stages, 2) == static_cast<int>(k_windows.size()));
  const pipeline whole = pipeline::build(world_preset(stages));
  const heightfield all = whole.run({1, {}, {}, {}});
  // The last normalize spans [-1, 1] over the world, not over the tile.
  const auto [lo, hi] = std::minmax_element(all.values().begin(), all.values().end());
  CHECK(*lo == -1.0f);
  CHECK(*hi == 1.0f);
  const pipeline part = pipeline::build(region_preset(stages, k_windows[0]));
  const build_result r = part.run_full({1, {}, {}, {}});
  REQUIRE(r.world_ranges.size() == 2);
  CHECK(r.world_ranges[0].first == 2);
  CHECK(r.world_ranges[1].first == 4);
  CHECK(r.world_ranges[1].second.first < r.world_ranges[1].second.second);
  const json computed = landform::computed_block(part, &r);
  CHECK(computed.at("stages").at(2).at("scope") == "stats");
  CHECK(computed.at("stages").at(2).at("world_range").size() == 2);
  SECTION("the range given in the preset (as a tile plan writes it) gives the same tile") {
    json given = stages;
    given[2]["world_range"] = {r.world_ranges[0].second.first, r.world_ranges[0].second.second};
    given[4]["world_range"] = {r.world_ranges[1].second.first, r.world_ranges[1].second.second};
    const pipeline planned = pipeline::build(region_preset(given, k_windows[0]));
    const build_result pr = planned.run_full({1, {}, {}, {}});
    CHECK(pr.world_ranges.empty());
    CHECK(bit_equal(pr.heights(), r.heights()));
  }
}

TEST_CASE("halo: stream power erosion with tiling coarse, region == window of the world",
          "[pipeline][halo][stream_power]") {
  const json base = {{"type", "opensimplex"}, {"octaves", 4}, {"feature_size", 12}};
  const json coarse = {{"type", "stream_power_erosion"},
                       {"tiling", "coarse"},
                       {"coarse_factor", 4},
                       {"duration", 2e5},
                       {"time_step", 2e4},
                       {"diffusivity", 0.05}};
  const pipeline p = pipeline::build(region_preset(json::array({base, coarse}), k_windows[0]));
  CHECK(p.stage_halo() == 0);
  CHECK_FALSE(p.computes_world());
  const json computed = landform::computed_block(p);
  CHECK(computed.at("stages").at(1).at("scope") == "coarse");
  CHECK(computed.at("stages").at(1).at("halo") == 0);
  CHECK(computed.at("stages").at(1).at("coarse_grid") == json({{"factor", 4}, {"size", {16, 16}}, {"cell_size", 4.0}}));
  // A region's estimate counts the coarse pass over the world.
  json small = region_preset(json::array({base, coarse}), k_windows[0]);
  small["world"] = 2048;
  const double region_seconds = pipeline::build(small).estimated_seconds();
  json big = world_preset(json::array({base}));
  big["size"] = 2048;
  CHECK(region_seconds > pipeline::build(big).estimated_seconds());
  // Windows start and end inside coarse cells (factor 4): 21, 17, 51, 53 ...
  for (int threads : {1, 2, 8}) {
    INFO(threads);
    CHECK(check_windows(json::array({base,
                                     {{"type", "perturb"}, {"magnitude", 3}},
                                     coarse,
                                     {{"type", "thermal_erosion"}, {"iterations", 2}}}),
                        threads) == static_cast<int>(k_windows.size()));
  }
  SECTION("a stats pass after it runs the coarse stage on strips") {
    CHECK(check_windows(json::array({base, coarse, {{"type", "normalize"}, {"mode", "min_max"}}}), 2) ==
          static_cast<int>(k_windows.size()));
  }
  SECTION("with an uplift layer, a sea base level and a factor that does not divide the world") {
    json sea = coarse;
    sea["base_level"] = "sea";
    sea["uplift_layer"] = "rock";
    sea["coarse_factor"] = 5;
    const json stages = json::array({base, {{"type", "gradient"}, {"target", "rock"}}, sea});
    CHECK(check_windows(stages, 2, {{"sea_level", 0.0}}) == static_cast<int>(k_windows.size()));
    // Cells below sea level keep their heights; land stays at or above it.
    const pipeline before = pipeline::build(world_preset(json::array({base})));
    const pipeline after = pipeline::build(world_preset(stages, json::array(), {{"sea_level", 0.0}}));
    const heightfield a = before.run({1, {}, {}, {}}), b = after.run({1, {}, {}, {}});
    int sea_cells = 0, changed = 0;
    for (std::size_t c = 0; c < a.size(); ++c) {
      if (a.values()[c] < 0.0f) {
        ++sea_cells;
        CHECK(b.values()[c] == a.values()[c]);
      } else {
        CHECK(b.values()[c] >= 0.0f);
        changed += static_cast<int>(b.values()[c] != a.values()[c]);
      }
    }
    CHECK(sea_cells > 0);
    CHECK(changed > 0);
  }
  SECTION("the side maps too") {
    const json stages = json::array({base, coarse});
    const json outputs = json::array({{{"map", "drainage_area"}, {"format", "r32"}, {"file", "a.r32"}}});
    const pipeline whole = pipeline::build(world_preset(stages, outputs));
    const build_result all = whole.run_full({1, {}, {}, {}});
    for (const window& w : {k_windows[0], k_windows[4]}) {
      INFO(w.name);
      const pipeline part = pipeline::build(region_preset(stages, w, outputs));
      const build_result tile = part.run_full({2, {}, {}, {}});
      const std::vector<float>* world_map = all.layers.find("drainage_area");
      const std::vector<float>* tile_map = tile.layers.find("drainage_area");
      REQUIRE(world_map != nullptr);
      REQUIRE(tile_map != nullptr);
      heightfield a(all.field.placement()), b(tile.field.placement());
      a.values() = *world_map;
      b.values() = *tile_map;
      // The coarse cells' area: at least one coarse cell (4 x 4 cells of 1 m).
      CHECK(*std::max_element(a.values().begin(), a.values().end()) > 16.0f * 10);
      CHECK(bit_equal(b.crop(tile.x0, tile.y0, w.w, w.h), a.crop(w.x, w.y, w.w, w.h)));
    }
  }
}
