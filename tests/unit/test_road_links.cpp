// Unit tests for the road links a new user trips over (issue 10, roads):
// points outside the world or in one cell are preset errors at validation
// with the output's or stage's index in the path; a link without an
// admissible road is listed with its barrier (grade, river, sea), warned
// about in the manifest, and an error with require_all; the reachability
// pass that skips such links agrees with the search.

#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <vector>

#include "landform/core/rng.hpp"
#include "landform/derive/roads.hpp"
#include "landform/derive/water.hpp"
#include "landform/pipeline/manifest.hpp"
#include "landform/pipeline/pipeline.hpp"
#include "output_checks.hpp"
#include "stage_checks.hpp"

using namespace landform;
using landform_test::at;
using landform_test::build_outputs;
using landform_test::issues_of;
using landform_test::road_hills;

namespace {

// A flat 32 x 32 world of 10 m cells at height 0.5 (metres x 10): sites at
// (4, 16) and (27, 16) on either side of column 16, which `wall` makes
// impassable in one of three ways.
enum class wall { cliff, river, sea };

road_network parted(wall kind, double max_bridge_m) {
  const int n = 32;
  heightfield h(region{n, n, 0, 0, 10.0}, 0.5f);
  // A cliff: the east half 5 m higher (50 % in one 10 m step).
  if (kind == wall::cliff)
    for (int y = 0; y < n; ++y)
      for (int x = 16; x < n; ++x) h.at(x, y) = 1.0f;
  water_maps w;
  road_params p;
  p.points = {{{40.0, 160.0}}, {{270.0, 160.0}}};
  p.max_bridge_m = max_bridge_m;
  road_grid g = make_road_grid(h, 10.0, w);
  for (int y = 0; y < n; ++y) {
    const std::size_t c = at(n, 16, y);
    if (kind == wall::river) g.river[c] = 1;
    if (kind == wall::sea) g.blocked[c] = 1;
  }
  // compute_roads takes water maps: the same walls as water.
  w.ocean.assign(h.size(), 0);
  w.is_river.assign(h.size(), 0);
  for (std::size_t c = 0; c < h.size(); ++c) {
    w.ocean[c] = g.blocked[c];
    w.is_river[c] = g.river[c];
  }
  return compute_roads(h, 10.0, w, p);
}

}  // namespace

TEST_CASE("road links: a point outside the world is a preset error at validation, with the output's index",
          "[derive][roads][pipeline]") {
  const json outputs = json::array({{{"map", "height"}, {"format", "r32"}},
                                    {{"map", "roads"}, {"format", "geojson"}, {"points", {{10, 10}, {5000, 10}}}}});
  CHECK(issues_of(road_hills(outputs)) ==
        std::vector<std::string>{"outputs[1] (roads).points[1]: [5000, 10] m is outside the world extent [-10, 1270] "
                                 "x [-10, 1270] m (64 x 64 cells of 20 m, centred on x = column x cell_size, y = "
                                 "row x cell_size)"});
  // The edge of the extent is inside (the border cell); just beyond is not.
  json edge =
      road_hills(json::array({{{"map", "roads"}, {"format", "geojson"}, {"points", {{-10, 1270}, {1270, -10}}}}}));
  CHECK_NOTHROW(pipeline::build(edge));
  edge["outputs"][0]["points"][1] = {1270.5, 600};
  REQUIRE(issues_of(edge).size() == 1);
  CHECK(issues_of(edge)[0].starts_with("outputs[0] (roads).points[1]: [1270.5, 600] m is outside"));
  // road_flatten: the stage's path; a tile's world is the world, not the tile.
  json stage = road_hills(json::array(), json::array({{{"type", "road_flatten"}, {"points", {{-30, 10}, {100, 10}}}}}));
  CHECK(issues_of(stage) ==
        std::vector<std::string>{"stages[2] (road_flatten).points[0]: [-30, 10] m is outside the world extent [-10, "
                                 "1270] x [-10, 1270] m (64 x 64 cells of 20 m, centred on x = column x cell_size, "
                                 "y = row x cell_size)"});
  json tile =
      road_hills(json::array({{{"map", "roads"}, {"format", "geojson"}, {"points", {{10, 10}, {1200, 1200}}}}}));
  tile["world"] = {64, 64};
  tile["size"] = {16, 16};
  CHECK_NOTHROW(pipeline::build(tile));
}

TEST_CASE("road links: two points in one cell are a preset error (a LineString needs two positions)",
          "[derive][roads][pipeline]") {
  const json outputs = json::array(
      {{{"map", "roads"}, {"format", "geojson"}, {"points", {{100, 100}, {600, 600}, {105, 95}, {600, 600}}}}});
  CHECK(issues_of(road_hills(outputs)) ==
        std::vector<std::string>{"outputs[0] (roads).points[2]: [105, 95] m is in the same cell (column 5, row 5) as "
                                 "points[0] [100, 100] m; a road needs two different cells",
                                 "outputs[0] (roads).points[3]: [600, 600] m is in the same cell (column 30, row 30) "
                                 "as points[1] [600, 600] m; a road needs two different cells"});
}

TEST_CASE("road links: a point on water is found at build time, named with the output's index",
          "[derive][roads][pipeline]") {
  // (300, 100) m, cell (15, 5), lies 9 m below the hills' sea level.
  const json preset =
      road_hills(json::array({{{"map", "height"}, {"format", "r32"}},
                              {{"map", "road"}, {"format", "r32"}, {"points", {{300, 100}, {600, 600}}}}}));
  CHECK_NOTHROW(pipeline::build(preset));
  CHECK_THROWS_WITH(build_outputs(preset),
                    "outputs[1] (road).points[0]: [300, 100] m lies on water (sea, lake or river)");
}

TEST_CASE("road links: an unreachable link is listed with its barrier", "[derive][roads]") {
  const road_network cliff = parted(wall::cliff, 200);
  CHECK(cliff.roads.empty());
  REQUIRE(cliff.unreachable.size() == 1);
  CHECK(cliff.unreachable[0].from_site == 0);
  CHECK(cliff.unreachable[0].to_site == 1);
  CHECK(cliff.unreachable[0].barrier == road_barrier::grade);
  // A one-cell river: bridged when bridges are allowed, a barrier when not.
  CHECK(parted(wall::river, 200).roads.size() == 1);
  CHECK(parted(wall::river, 200).unreachable.empty());
  const road_network river = parted(wall::river, 0);
  REQUIRE(river.unreachable.size() == 1);
  CHECK(river.unreachable[0].barrier == road_barrier::river);
  const road_network sea = parted(wall::sea, 200);
  REQUIRE(sea.unreachable.size() == 1);
  CHECK(sea.unreachable[0].barrier == road_barrier::water);
  road_params p;
  p.max_bridge_m = 0;
  CHECK(describe_barrier(road_barrier::river, p) == "every route crosses a river, and max_bridge_m is 0 (no bridges)");
  CHECK(describe_barrier(road_barrier::grade, p) == "every route has a step steeper than max_grade_percent (10 %)");
}

TEST_CASE("road links: an unreachable link is a manifest warning, an error with require_all",
          "[derive][roads][pipeline]") {
  // The hills' four road_flatten points (three links, all built at 8 %,
  // see test_roads.cpp); at 1 % some cannot be.
  const json points = {{240.0, 1180.0}, {860.0, 1040.0}, {1220.0, 220.0}, {140.0, 440.0}};
  json preset = road_hills(
      json::array({{{"map", "roads"}, {"format", "geojson"}, {"points", points}, {"max_grade_percent", 1}}}));
  const auto files = build_outputs(preset);
  REQUIRE(files.size() == 1);
  const json& network = files[0].description["network"];
  const std::size_t gaps = network["unreachable"].size();
  CHECK(gaps >= 1);
  CHECK(network["unreachable_links"] == gaps);
  CHECK(network["roads"].get<std::size_t>() + gaps == 3);
  REQUIRE(files[0].description["warnings"].size() == gaps);
  const json& gap = network["unreachable"][0];
  const std::string why = gap["why"].get<std::string>();
  CHECK(why.starts_with("no road from site " + std::to_string(gap["from"].get<int>()) + " ["));
  CHECK(why.ends_with(": every route has a step steeper than max_grade_percent (1 %)"));
  CHECK(files[0].description["warnings"][0] == "outputs[0] (roads): " + why);
  preset["outputs"][0]["require_all"] = true;
  CHECK_THROWS_AS(build_outputs(preset), std::runtime_error);
  CHECK_THROWS_WITH(build_outputs(preset),
                    Catch::StartsWith("outputs[0] (roads): require_all is true and " + std::to_string(gaps) +
                                      " of 3 links have no admissible road; " + why));
  preset["outputs"][0]["max_grade_percent"] = 8;
  // Every link built: no warning, and require_all is satisfied.
  const auto linked = build_outputs(preset);
  CHECK(linked[0].description["network"]["unreachable"].empty());
  CHECK(!linked[0].description.contains("warnings"));
}

TEST_CASE("road links: road_reach joins exactly the sites find_road links", "[derive][roads]") {
  // Random heights (steps up to 40 %), 8 % sea and rivers on two columns,
  // bridged (16 neighbours) or not (8): many parts. For many pairs, the
  // labels agree with the search.
  const int n = 36;
  road_grid g;
  g.width = g.height = n;
  g.cell_size = 10.0;
  g.z.resize(static_cast<std::size_t>(n) * n);
  g.blocked.assign(g.z.size(), 0);
  g.river.assign(g.z.size(), 0);
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      const std::size_t c = at(n, x, y);
      g.z[c] = 4.0 * unit_double(hash64(41, 1, static_cast<std::uint64_t>(x), static_cast<std::uint64_t>(y)));
      g.blocked[c] = hash64(41, 2, c) % 12 == 0 ? 1 : 0;
      g.river[c] = g.blocked[c] == 0 && (x == 11 || x == 24) ? 1 : 0;
    }
  }
  int joined = 0, parted_pairs = 0;
  for (const int neighbours : {8, 16}) {
    road_params p;
    p.neighbours = neighbours;
    p.max_grade_percent = 25;
    p.max_bridge_m = neighbours == 16 ? 10 : 0;
    p.curvature_penalty = 0;  // the cell search: cheap, the same reachability
    const std::vector<std::int32_t> labels = road_reach(g, p);
    for (int trial = 0; trial < 60; ++trial) {
      const auto a = static_cast<std::uint32_t>(hash64(41, 3, static_cast<std::uint64_t>(trial)) % g.z.size());
      const auto b = static_cast<std::uint32_t>(hash64(41, 4, static_cast<std::uint64_t>(trial)) % g.z.size());
      if (a == b || labels[a] < 0 || labels[b] < 0) continue;
      const bool linked = !find_road(g, p, a, b).cells.empty();
      INFO("neighbours " << neighbours << " trial " << trial);
      CHECK(linked == (labels[a] == labels[b]));
      (linked ? joined : parted_pairs) += 1;
    }
  }
  CHECK(joined >= 10);
  CHECK(parted_pairs >= 10);
}
