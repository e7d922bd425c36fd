// Unit tests for the roads (issue 10): the least-cost path equals a plain
// exact Dijkstra on the same cost grid; the sea and lakes are never entered;
// bridges only span river cells and are counted; road_flatten leaves no step
// steeper than the maximum grade; the GeoJSON has the RFC 7946 structure;
// bytes are the same on 1, 2 and 8 threads; a tile equals the world's
// window; bad parameters are preset errors.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <numbers>
#include <queue>
#include <string>
#include <vector>

#include "landform/core/rng.hpp"
#include "landform/derive/roads.hpp"
#include "landform/derive/water.hpp"
#include "landform/pipeline/manifest.hpp"
#include "landform/pipeline/pipeline.hpp"
#include "landform/stages/road_flatten.hpp"
#include "output_checks.hpp"

using namespace landform;
using landform_test::at;
using landform_test::build_outputs;
using landform_test::r32_values;
using landform_test::road_hills;

namespace {

json geojson_of(const encoded_output& f) {
  return json::parse(std::string(f.bytes.begin(), f.bytes.end()));
}

// A plain exact Dijkstra (binary heap, no bound) over the same moves and
// rules as find_road(), written independently: cost = run (1 + k (g /
// gmax)^2) plus curvature_penalty x the turn angle between successive moves,
// steeper steps and blocked cells impassable, a diagonal not between two
// blocked cells, a knight move needing its two side cells. Its states are
// (cell, entering move) and one start state (move -1) that turns for free.
double plain_dijkstra(const road_grid& g, const road_params& p, std::size_t from, std::size_t to) {
  const int w = g.width, h = g.height, moves = p.neighbours;
  const int dx[16] = {1, 1, 0, -1, -1, -1, 0, 1, 2, 1, -1, -2, -2, -1, 1, 2};
  const int dy[16] = {0, -1, -1, -1, 0, 1, 1, 1, -1, -2, -2, -1, 1, 2, 2, 1};
  auto open_cell = [&](int x, int y) { return x >= 0 && y >= 0 && x < w && y < h && g.blocked[at(w, x, y)] == 0; };
  auto angle = [&](int a, int b) {  // headings' difference, wrapped to [0, pi]
    const double t = std::abs(std::atan2(dy[b], dx[b]) - std::atan2(dy[a], dx[a]));
    return t > std::numbers::pi ? 2 * std::numbers::pi - t : t;
  };
  const std::size_t states = g.z.size() * static_cast<std::size_t>(moves + 1);  // slot 0: the start
  std::vector<double> dist(states, std::numeric_limits<double>::infinity());
  using item = std::pair<double, std::size_t>;
  std::priority_queue<item, std::vector<item>, std::greater<>> q;
  dist[from * static_cast<std::size_t>(moves + 1)] = 0;
  q.emplace(0.0, from * static_cast<std::size_t>(moves + 1));
  while (!q.empty()) {
    const auto [d, s] = q.top();
    q.pop();
    if (d > dist[s]) continue;
    const std::size_t c = s / static_cast<std::size_t>(moves + 1);
    if (c == to) return d;
    const int in = static_cast<int>(s % static_cast<std::size_t>(moves + 1)) - 1;
    const int x = static_cast<int>(c) % w, y = static_cast<int>(c) / w;
    for (int k = 0; k < moves; ++k) {
      const int nx = x + dx[k], ny = y + dy[k];
      if (!open_cell(nx, ny)) continue;
      if (k < 8 && dx[k] != 0 && dy[k] != 0 && !open_cell(x + dx[k], y) && !open_cell(x, y + dy[k])) continue;
      if (k >= 8) {
        const int hx = dx[k] / 2, hy = dy[k] / 2;  // the half step, rounded to zero
        const bool sides = std::abs(dx[k]) == 2 ? open_cell(x + hx, y) && open_cell(x + hx, y + dy[k])
                                                : open_cell(x, y + hy) && open_cell(x + dx[k], y + hy);
        if (!sides) continue;
      }
      const double run = std::hypot(dx[k], dy[k]) * g.cell_size;
      const std::size_t m = at(w, nx, ny);
      const double grade = std::abs(g.z[m] - g.z[c]) / run, gmax = p.max_grade_percent / 100;
      if (grade > gmax) continue;
      double step = run * (1 + p.grade_penalty * (grade / gmax) * (grade / gmax));
      if (in >= 0) step += p.curvature_penalty * angle(in, k);
      const std::size_t ms = m * static_cast<std::size_t>(moves + 1) + static_cast<std::size_t>(k + 1);
      if (d + step < dist[ms]) {
        dist[ms] = d + step;
        q.emplace(dist[ms], ms);
      }
    }
  }
  return std::numeric_limits<double>::infinity();
}

// An n x n road grid of `cell_size` m cells, all land at height 0.
road_grid land_grid(int n, double cell_size) {
  road_grid g;
  g.width = g.height = n;
  g.cell_size = cell_size;
  g.z.assign(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), 0.0);
  g.blocked.assign(g.z.size(), 0);
  g.river.assign(g.z.size(), 0);
  return g;
}

// The steepest step of `cells` on heights `z` (height units), in percent.
double steepest(const std::vector<std::uint32_t>& cells, const float* z, int w, double cs, double scale) {
  double worst = 0;
  for (std::size_t k = 0; k + 1 < cells.size(); ++k) {
    const int ax = static_cast<int>(cells[k]) % w, ay = static_cast<int>(cells[k]) / w;
    const int bx = static_cast<int>(cells[k + 1]) % w, by = static_cast<int>(cells[k + 1]) / w;
    const double run = std::hypot(bx - ax, by - ay) * cs;
    worst = std::max(worst, std::abs(static_cast<double>(z[cells[k + 1]]) - z[cells[k]]) * scale / run * 100);
  }
  return worst;
}

}  // namespace

TEST_CASE("roads: the path cost equals a plain exact Dijkstra on the same cost grid", "[derive][roads]") {
  const int n = 48;
  heightfield h(region{n, n, 0, 0, 10.0});
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x)
      h.at(x, y) =
          static_cast<float>(unit_double(hash64(17, 3, static_cast<std::uint64_t>(x), static_cast<std::uint64_t>(y))));
  road_grid g;
  g.width = g.height = n;
  g.cell_size = 10.0;
  g.z.resize(h.size());
  g.blocked.assign(h.size(), 0);
  g.river.assign(h.size(), 0);
  for (std::size_t c = 0; c < h.size(); ++c) {
    g.z[c] = static_cast<double>(h.data()[c]) * 3.0;    // rises of up to 3 m a 10 m step: up to 30%
    g.blocked[c] = hash64(17, 4, c) % 10 == 0 ? 1 : 0;  // 10% blocked
  }
  road_params p;
  p.max_grade_percent = 22;
  p.grade_penalty = 3;
  int compared = 0;
  for (const double curvature : {0.0, 15.0}) {
    p.curvature_penalty = curvature;
    for (const int neighbours : {8, 16}) {
      p.neighbours = neighbours;
      for (int trial = 0; trial < 6; ++trial) {
        const auto from = static_cast<std::uint32_t>(at(n, 2 + trial, 3 + 5 * trial));
        const auto to = static_cast<std::uint32_t>(at(n, n - 3 - 4 * trial, n - 2 - trial));
        g.blocked[from] = g.blocked[to] = 0;
        const road_path path = find_road(g, p, from, to);
        const double exact = plain_dijkstra(g, p, from, to);
        INFO("curvature_penalty " << curvature << " neighbours " << neighbours << " trial " << trial);
        if (!std::isfinite(exact)) {
          CHECK(path.cells.empty());
          continue;
        }
        REQUIRE(!path.cells.empty());
        ++compared;
        CHECK(path.cost / exact == Approx(1.0).margin(0.01));
        // The same graph: exact but for the search's float sums (path.cost
        // is the found path's cost in double, so never below the optimum).
        CHECK(path.cost >= exact * (1 - 1e-12));
        CHECK(path.cost <= exact * (1 + 1e-5));
        CHECK(path.max_grade_percent <= p.max_grade_percent + 1e-9);
        CHECK(path.cells.front() == from);
        CHECK(path.cells.back() == to);
        for (const std::uint32_t c : path.cells) CHECK(g.blocked[c] == 0);
      }
    }
  }
  CHECK(compared >= 16);
}

TEST_CASE("roads: the turning search's cost-to-go bound keeps bridges, rivers and a start on water",
          "[derive][roads]") {
  // Random terrain crossed by rivers (every 9th column and row), 5 % sea;
  // some starts on river cells. With a vanishing turning cost the state
  // search must find the cell search's cost and reachability: a bound that
  // missed a bridge or a start on water would lose or lengthen links.
  const int n = 40;
  road_grid g = land_grid(n, 10.0);
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      const std::size_t c = at(n, x, y);
      g.z[c] = 2.0 * unit_double(hash64(29, 1, static_cast<std::uint64_t>(x), static_cast<std::uint64_t>(y)));
      g.blocked[c] = hash64(29, 2, c) % 20 == 0 ? 1 : 0;
      g.river[c] = g.blocked[c] == 0 && (x % 9 == 4 || y % 9 == 4) ? 1 : 0;
    }
  }
  road_params p;
  p.max_grade_percent = 25;
  p.bridge_cost = 40;
  p.max_bridge_m = 20;
  int bridged = 0, compared = 0;
  for (int trial = 0; trial < 8; ++trial) {
    const auto from = static_cast<std::uint32_t>(at(n, 4 + 3 * trial, 1 + trial));  // (4, 1): a river cell
    const auto to = static_cast<std::uint32_t>(at(n, n - 2 - 2 * trial, n - 3 - trial));
    g.blocked[from] = g.blocked[to] = 0;
    g.river[to] = 0;
    p.curvature_penalty = 0;
    const road_path cells = find_road(g, p, from, to);
    p.curvature_penalty = 1e-9;
    const road_path states = find_road(g, p, from, to);
    INFO("trial " << trial);
    REQUIRE(cells.cells.empty() == states.cells.empty());
    if (cells.cells.empty()) continue;
    ++compared;
    bridged += cells.bridges > 0;
    CHECK(states.cost == Approx(cells.cost).epsilon(1e-6));
  }
  CHECK(compared >= 6);
  CHECK(bridged >= 4);
}

TEST_CASE("roads: curvature_penalty straightens the cell-scale zigzag on a noisy slope", "[derive][roads]") {
  // A 3 % plane with +-0.75 m of white noise per 20 m cell: grades up to
  // ~10 % step to step, so the cheapest path without a turning cost zigzags
  // between headings to dodge bumps.
  const int n = 96;
  road_grid g = land_grid(n, 20.0);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x)
      g.z[at(n, x, y)] =
          0.03 * 20.0 * x +
          1.5 * (unit_double(hash64(23, 1, static_cast<std::uint64_t>(x), static_cast<std::uint64_t>(y))) - 0.5);
  road_params p;
  p.max_grade_percent = 10;
  const auto from = static_cast<std::uint32_t>(at(n, 6, 12)), to = static_cast<std::uint32_t>(at(n, 89, 77));
  p.curvature_penalty = 0;
  const road_path loose = find_road(g, p, from, to);
  p.curvature_penalty = 30;
  const road_path curved = find_road(g, p, from, to);
  REQUIRE(!loose.cells.empty());
  REQUIRE(!curved.cells.empty());
  const double straight = std::hypot(83.0, 65.0) * 20.0;
  WARN("turning " << loose.turning_rad << " -> " << curved.turning_rad << " rad, length " << loose.length_m << " -> "
                  << curved.length_m << " m (straight " << straight << " m), steps " << loose.cells.size() - 1 << " -> "
                  << curved.cells.size() - 1);
  CHECK(curved.turning_rad < 0.25 * loose.turning_rad);
  CHECK(curved.length_m <= 1.05 * loose.length_m);
  CHECK(curved.max_grade_percent <= 10.0 + 1e-9);
}

TEST_CASE("roads: the sea and a lake are never entered; the road goes around", "[derive][roads]") {
  // Flat land at 0.5 with a deep square basin (a lake) between the two sites
  // and a strip of sea along the south edge.
  const int n = 64;
  heightfield h(region{n, n, 0, 0, 10.0}, 0.5f);
  for (int y = 16; y <= 48; ++y)
    for (int x = 24; x <= 40; ++x) h.at(x, y) = (x == 24 || x == 40 || y == 16 || y == 48) ? 0.52f : 0.3f;
  for (int y = 58; y < n; ++y)
    for (int x = 0; x < n; ++x) h.at(x, y) = 0.1f;
  water_params wp;
  wp.sea_level = 0.2;
  wp.river_area = 1e12;  // no rivers
  const water_maps w = compute_water(h, 10.0, wp);
  REQUIRE(!w.lakes.empty());
  road_params p;
  p.points = {{{100.0, 320.0}}, {{540.0, 320.0}}};
  const road_network net = compute_roads(h, 10.0, w, p);
  REQUIRE(net.roads.size() == 1);
  const road_path& r = net.roads[0];
  const road_grid g = make_road_grid(h, 10.0, w);
  std::size_t water_cells = 0;
  for (const std::uint8_t b : g.blocked) water_cells += b;
  CHECK(water_cells > 500);
  for (const std::uint32_t c : r.cells) CHECK(g.blocked[c] == 0);
  // Around the lake: longer than the straight 440 m.
  CHECK(r.length_m > 500.0);
  CHECK(r.bridges == 0);
}

TEST_CASE("roads: bridges span only river cells, are counted and cost bridge_cost", "[derive][roads]") {
  // A gentle valley running east down to the map edge: a river along its
  // floor, sites on either side.
  const int n = 64;
  heightfield h(region{n, n, 0, 0, 20.0});
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x)
      h.at(x, y) = 0.3f + 0.004f * static_cast<float>(std::abs(y - 32)) + 0.002f * static_cast<float>(n - x);
  water_params wp;
  wp.river_area = 0.05e6;
  const water_maps w = compute_water(h, 100.0, wp);
  const road_grid g = make_road_grid(h, 100.0, w);
  std::size_t rivers = 0;
  for (const std::uint8_t r : g.river) rivers += r;
  REQUIRE(rivers > 20);
  road_params p;
  p.points = {{{600.0, 300.0}}, {{640.0, 980.0}}};
  p.max_grade_percent = 12;
  p.bridge_cost = 300;
  const road_network net = compute_roads(h, 100.0, w, p);
  REQUIRE(net.roads.size() == 1);
  const road_path& r = net.roads[0];
  CHECK(r.bridges == 1);
  int counted = 0;
  for (std::size_t k = 0; k + 1 < r.cells.size(); ++k) {
    const int ax = static_cast<int>(r.cells[k]) % n, ay = static_cast<int>(r.cells[k]) / n;
    const int bx = static_cast<int>(r.cells[k + 1]) % n, by = static_cast<int>(r.cells[k + 1]) / n;
    const int steps = std::max(std::abs(bx - ax), std::abs(by - ay));
    CHECK(g.river[r.cells[k]] == 0);
    CHECK(g.river[r.cells[k + 1]] == 0);
    if (r.bridge[k] != 0) {
      ++counted;
      // Every cell under the bridge is a river cell.
      REQUIRE(steps >= 2);
      for (int t = 1; t < steps; ++t) {
        const int x = ax + (bx - ax) / steps * t, y = ay + (by - ay) / steps * t;
        CHECK(g.river[at(n, x, y)] == 1);
      }
    }
  }
  CHECK(counted == r.bridges);
  // Without bridges the road must go round the river's source, or cannot pass.
  p.max_bridge_m = 0;
  const road_network none = compute_roads(h, 100.0, w, p);
  if (!none.roads.empty()) {
    CHECK(none.roads[0].bridges == 0);
    CHECK(none.roads[0].length_m > r.length_m);
    for (const std::uint32_t c : none.roads[0].cells) CHECK(g.river[c] == 0);
  }
}

TEST_CASE("road_flatten: no road step is steeper than max_grade_percent afterwards", "[stages][roads]") {
  const json preset = road_hills(json::array({{{"map", "height"}, {"format", "r32"}}}));
  pipeline before = pipeline::build(preset);
  run_options options;
  const auto terrain = before.run_full(options);
  heightfield h = terrain.field;
  const double scale = 150;
  road_flatten_params p;
  p.points = {{{240.0, 1180.0}}, {{860.0, 1040.0}}, {{1220.0, 220.0}}, {{140.0, 440.0}}};
  p.max_grade_percent = 8;
  stage_context ctx;
  ctx.height_scale = scale;
  ctx.sea_level = 0.15;
  ctx.nthreads = 1;
  ctx.wanted = {"road_bed"};
  // The roads the stage levels, found on its input.
  output_context oc(h, terrain.layers);
  oc.sea_level = 0.15;
  const water_maps w = compute_water(h, scale, p.water.params(oc));
  const road_network net = compute_roads(h, scale, w, p.params());
  REQUIRE(net.roads.size() == 3);
  const layer_set side = apply_road_flatten(h, p, ctx);
  REQUIRE(side.find("road_bed") != nullptr);
  double worst = 0, changed = 0;
  for (const road_path& r : net.roads) {
    worst = std::max(worst, steepest(r.cells, h.data(), h.width(), 20.0, scale));
    for (const std::uint32_t c : r.cells) CHECK((*side.find("road_bed"))[c] >= 0.5f);  // 0.5 at the bed edge
  }
  for (std::size_t c = 0; c < h.size(); ++c) changed += h.data()[c] != terrain.field.data()[c];
  WARN("steepest road step after road_flatten: " << worst << " % (max 8 %), cells changed " << changed);
  CHECK(worst <= 8.0);
  CHECK(changed > 100);
  // The same through a preset: the `roads` output after the stage, following
  // its bed, is measured on the written heights.
  json stage = {{"type", "road_flatten"}, {"points", p.points}, {"max_grade_percent", 8}};
  const json flattened = road_hills(json::array({{{"map", "height"}, {"format", "r32"}},
                                                 {{"map", "roads"},
                                                  {"format", "geojson"},
                                                  {"follow_layer", "road_bed"},
                                                  {"max_grade_percent", 8},
                                                  {"points", p.points}},
                                                 {{"map", "road_bed"}, {"format", "r32"}}}),
                                    json::array({stage}));
  const auto files = build_outputs(flattened);
  REQUIRE(files.size() == 3);
  const auto heights = r32_values(files[0].bytes);
  const auto bed = r32_values(files[2].bytes);
  CHECK(heights == std::vector<float>(h.data(), h.data() + h.size()));  // the stage as above
  const json fc = geojson_of(files[1]);
  REQUIRE(fc["features"].size() == 3);
  double worst_output = 0;
  std::size_t vertices = 0, on_bed = 0;
  for (const auto& f : fc["features"]) {
    std::vector<std::uint32_t> cells;
    for (const auto& c : f["geometry"]["coordinates"]) {
      const auto x = static_cast<int>(std::lround(c[0].get<double>() / 20.0));
      const auto y = static_cast<int>(std::lround(-c[1].get<double>() / 20.0));
      cells.push_back(static_cast<std::uint32_t>(at(64, x, y)));
      ++vertices;
      on_bed += bed[cells.back()] >= 0.5f;
    }
    worst_output = std::max(worst_output, steepest(cells, heights.data(), 64, 20.0, scale));
  }
  WARN("roads output after road_flatten: steepest " << worst_output << " %, " << on_bed << " of " << vertices
                                                    << " vertices on the bed");
  CHECK(worst_output <= 8.0);
  CHECK(static_cast<double>(on_bed) >= 0.9 * static_cast<double>(vertices));
}

TEST_CASE("roads output: GeoJSON structure, thread independence and tiles", "[derive][roads][pipeline]") {
  const json outputs = json::array(
      {{{"map", "roads"}, {"format", "geojson"}, {"sites", 5}}, {{"map", "road"}, {"format", "r32"}, {"sites", 5}}});
  const json preset = road_hills(outputs);
  const auto files = build_outputs(preset, 1);
  REQUIRE(files.size() == 2);
  const json fc = geojson_of(files[0]);
  CHECK(fc["type"] == "FeatureCollection");
  REQUIRE(fc["features"].is_array());
  CHECK(fc["features"].size() >= 2);
  for (const auto& f : fc["features"]) {
    CHECK(f["type"] == "Feature");
    CHECK(f["geometry"]["type"] == "LineString");
    const auto& c = f["geometry"]["coordinates"];
    REQUIRE(c.size() >= 2);
    for (const char* key : {"from", "to", "length_m", "max_grade_percent", "bridges", "cost"})
      CHECK(f["properties"].contains(key));
    CHECK(f["properties"]["max_grade_percent"].get<double>() <= 10.0005);
    double length = 0;
    for (std::size_t k = 0; k < c.size(); ++k) {
      CHECK(c[k].size() == 3);
      CHECK(c[k][1].get<double>() <= 0.0);  // y = -world y
      if (k > 0)
        length += std::hypot(c[k][0].get<double>() - c[k - 1][0].get<double>(),
                             c[k][1].get<double>() - c[k - 1][1].get<double>());
    }
    CHECK(length == Approx(f["properties"]["length_m"].get<double>()).epsilon(1e-4));
  }
  const auto mask = r32_values(files[1].bytes);
  CHECK(*std::max_element(mask.begin(), mask.end()) >= 0.5f);  // a 6 m road on 20 m cells: 0.65
  for (const int threads : {2, 8}) {
    const auto again = build_outputs(preset, threads);
    for (std::size_t k = 0; k < files.size(); ++k) CHECK(again[k].bytes == files[k].bytes);
  }
  // A tile: the mask is the world's window, the GeoJSON the world's features
  // that touch the tile.
  json tile = preset;
  tile["world"] = {64, 64};
  tile["size"] = {24, 20};
  tile["origin"] = {30, 22};
  const auto tile_files = build_outputs(tile, 2);
  const auto tv = r32_values(tile_files[1].bytes);
  REQUIRE(tv.size() == 24u * 20u);
  std::size_t mismatches = 0;
  for (int y = 0; y < 20; ++y)
    for (int x = 0; x < 24; ++x) mismatches += tv[at(24, x, y)] != mask[at(64, 30 + x, 22 + y)];
  CHECK(mismatches == 0);
  const json tile_fc = geojson_of(tile_files[0]);
  for (const auto& f : tile_fc["features"]) {
    CHECK(std::find(fc["features"].begin(), fc["features"].end(), f) != fc["features"].end());
  }
}

TEST_CASE("roads: bad parameters are preset errors with JSON paths", "[derive][roads][pipeline]") {
  const json grade = road_hills(json::array({{{"map", "roads"}, {"format", "geojson"}, {"max_grade_percent", 0}}}));
  CHECK_THROWS_WITH(pipeline::build(grade), Catch::Contains("max_grade_percent") && Catch::Contains("0"));
  const json mask = road_hills(json::array(), json::array({{{"type", "road_flatten"}, {"neighbours", 12}}}));
  CHECK_THROWS_WITH(pipeline::build(mask), Catch::Contains("neighbours") && Catch::Contains("must be 8 or 16"));
  // A point outside the world is found when the world is known.
  const json outside =
      road_hills(json::array({{{"map", "roads"}, {"format", "geojson"}, {"points", {{10, 10}, {5000, 10}}}}}));
  CHECK_THROWS_AS(build_outputs(outside), preset_error);
  CHECK_THROWS_WITH(build_outputs(outside), Catch::Contains("points[1]") && Catch::Contains("outside the world"));
}
