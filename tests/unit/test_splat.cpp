// Splat maps: rules, normalisation, exact 255 sums, packing and naming.

#include <stb_image.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <numeric>

#include "landform/derive/splat.hpp"
#include "landform/derive/water.hpp"
#include "landform/outputs/derived_cache.hpp"
#include "landform/outputs/output_kind.hpp"
#include "landform/pipeline/manifest.hpp"
#include "landform/pipeline/pipeline.hpp"

namespace {

using namespace landform;

std::vector<float> weights_for(const std::vector<splat_rule>& rules, std::vector<float> height,
                               std::vector<float> slope) {
  splat_inputs in;
  in.count = height.size();
  in.height = height.data();
  in.slope = slope.data();
  return splat_weights(in, rules, splat_blend{});
}

}  // namespace

TEST_CASE("splat: a rule covering everything takes full weight", "[splat]") {
  const std::vector<splat_rule> rules = {{"all", std::array<double, 2>{0.0, 1.0}, std::nullopt, std::nullopt,
                                          std::nullopt, 0.0, 1.0, std::nullopt, std::nullopt, std::nullopt,
                                          std::nullopt, std::nullopt}};
  const auto w = weights_for(rules, {0.0f, 0.5f, 1.0f}, {0.0f, 10.0f, 80.0f});
  CHECK(w == std::vector<float>{1.0f, 1.0f, 1.0f});
  CHECK(quantize_splat(w, 1) == std::vector<std::uint8_t>{255, 255, 255});
}

TEST_CASE("splat: ranges select, blend widths fade, uncovered cells go to the base layer", "[splat]") {
  const std::vector<splat_rule> rules = {
      {"grass", std::nullopt, std::array<double, 2>{0.0, 30.0}, std::nullopt, std::nullopt, 0.0, 1.0, std::nullopt,
       std::nullopt, std::nullopt, std::nullopt, std::nullopt},
      {"rock", std::nullopt, std::array<double, 2>{40.0, 90.0}, std::nullopt, std::nullopt, 0.0, 1.0, std::nullopt,
       std::nullopt, std::nullopt, std::nullopt, std::nullopt}};
  // slope 10: grass only; 60: rock only; 35: both fade to 0 (5 degrees blend) -> base.
  const auto w = weights_for(rules, {0.5f, 0.5f, 0.5f, 0.5f}, {10.0f, 60.0f, 35.0f, 32.5f});
  CHECK(w[0] == 1.0f);
  CHECK(w[1] == 0.0f);
  CHECK(w[2] == 0.0f);
  CHECK(w[3] == 1.0f);
  CHECK(w[4] == 1.0f);  // nothing claims slope 35 (5 degrees from both ranges): base layer
  CHECK(w[5] == 0.0f);
  // 32.5 degrees: grass fades halfway (smoothstep 0.5), rock is 7.5 away: 0.
  CHECK(w[6] == Approx(1.0));
}

TEST_CASE("splat: quantised weights sum to exactly 255 in every cell", "[splat]") {
  std::vector<float> w;
  for (int k = 0; k < 1000; ++k) {
    const float a = static_cast<float>(k % 37) / 37.0f, b = static_cast<float>(k % 11) / 11.0f;
    const float c = 1.0f + a + b;
    for (float v : {1.0f / c, a / c, b / c}) w.push_back(v);
  }
  const auto q = quantize_splat(w, 3);
  for (std::size_t k = 0; k < q.size(); k += 3) REQUIRE(q[k] + q[k + 1] + q[k + 2] == 255);
  // Largest remainder: thirds become 85, 85, 85.
  CHECK(quantize_splat({1.0f / 3, 1.0f / 3, 1.0f / 3}, 3) == std::vector<std::uint8_t>{85, 85, 85});
  CHECK(quantize_splat({0.5f, 0.5f}, 2) == std::vector<std::uint8_t>{128, 127});
}

TEST_CASE("splat: six layers through the pipeline pack into two RGBA images summing to 255", "[splat]") {
  const json preset = json::parse(R"({
    "size": 48, "seed": 3, "cell_size": 10, "height_scale": 600,
    "stages": [{"type": "opensimplex", "feature_size": 300, "octaves": 4}, {"type": "normalize", "mode": "min_max"}],
    "outputs": [{"map": "splat", "file": "splat.png", "layers": [
      {"name": "grass"}, {"name": "rock", "slope": [30, 90]}, {"name": "sand", "height": [0, 0.25]},
      {"name": "snow", "height": [0.8, 1]}, {"name": "river", "flow": [200, 1e9]},
      {"name": "ridge", "curvature": [0.0005, 1], "noise": 0.5}]}]})");
  const pipeline p = pipeline::build(preset);
  CHECK(p.halo() == -1);  // flow needs the whole world
  const auto files = encode_outputs(p, p.run_full({1, {}, {}, {}}), 1);
  REQUIRE(files.size() == 2);
  CHECK(files[0].spec.file == "splat_0.png");
  CHECK(files[1].spec.file == "splat_1.png");
  const auto& channels = files[0].description["channels"];
  REQUIRE(channels.size() == 6);
  CHECK(channels[4] == json{{"layer", "river"}, {"image", 1}, {"channel", "r"}});
  std::vector<unsigned char*> images;
  for (const auto& f : files) {
    int w = 0, h = 0, c = 0;
    images.push_back(stbi_load_from_memory(f.bytes.data(), static_cast<int>(f.bytes.size()), &w, &h, &c, 4));
    REQUIRE(images.back() != nullptr);
    REQUIRE(w == 48);
    REQUIRE(c == 4);
  }
  std::size_t river = 0;
  for (int k = 0; k < 48 * 48; ++k) {
    int sum = 0;
    for (auto* img : images)
      for (int ch = 0; ch < 4; ++ch) sum += img[4 * k + ch];
    REQUIRE(sum == 255);
    river += images[1][4 * k] > 0;
  }
  CHECK(river > 0);                                                      // some cells collect flow from 200+ cells
  for (int k = 0; k < 48 * 48; ++k) REQUIRE(images[1][4 * k + 2] == 0);  // unused channels stay empty
  for (auto* img : images) stbi_image_free(img);
}

TEST_CASE("splat: bad rules are rejected with the output's path", "[splat]") {
  const json preset = json::parse(R"({"size": 8, "stages": [{"type": "opensimplex"}],
    "outputs": [{"map": "splat", "layers": [{"name": "grass"}, {"name": "rock", "slop": [30, 90]}]}]})");
  try {
    (void)pipeline::build(preset);
    FAIL("expected a preset error");
  } catch (const preset_error& e) {
    REQUIRE(e.issues().size() == 1);
    CHECK(e.issues()[0].to_string() == "outputs[0] (splat).layers[1].slop: unknown key; did you mean \"slope\"?");
  }
}

namespace {

// One water rule and nothing else (the other selectors unset).
splat_rule water_rule(std::string name, std::optional<std::array<double, 2>> river,
                      std::optional<std::array<double, 2>> lake) {
  splat_rule r;
  r.name = std::move(name);
  r.river = river;
  r.lake = lake;
  return r;
}

// 64 x 64 cells of 10 m, heights in 0..1 (x 100 m): a V valley along row 48
// falling 0.002 per column to the east edge (a river drains off it), and a
// closed bowl 0.12 deep centred on (20, 18), radius 9 cells (a lake).
heightfield valley_and_bowl() {
  const int n = 64;
  heightfield h(region{n, n, 0, 0, 10.0});
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      double z = 0.4 + 0.004 * std::abs(y - 48) + 0.002 * (n - 1 - x);
      const double r2 = (x - 20.0) * (x - 20.0) + (y - 18.0) * (y - 18.0);
      if (r2 < 81.0) z -= 0.12 * (1.0 - r2 / 81.0);
      h.at(x, y) = static_cast<float>(z);
    }
  }
  return h;
}

// The first channel's bytes (one per cell) of an encoded single-channel PNG,
// or channel `c` of an RGBA one.
std::vector<int> png_channel(const encoded_file& f, int channels, int c) {
  int w = 0, h = 0, ch = 0;
  stbi_uc* img = stbi_load_from_memory(f.bytes.data(), static_cast<int>(f.bytes.size()), &w, &h, &ch, channels);
  REQUIRE(img != nullptr);
  std::vector<int> out(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = img[channels * k + static_cast<std::size_t>(c)];
  stbi_image_free(img);
  return out;
}

}  // namespace

TEST_CASE("splat: river and lake rules fade with the distance to the water over the blend width", "[splat][water]") {
  // A strip of 6 cells of 10 m: a lake on the first two; river coverage 1 on the last.
  const std::vector<float> height(6, 0.5f), slope(6, 0.0f);
  const std::vector<std::uint8_t> lake = {1, 1, 0, 0, 0, 0};
  const std::vector<float> river = {0.0f, 0.0f, 0.0f, 0.0f, 0.3f, 1.0f};
  splat_inputs in;
  in.count = 6;
  in.height = height.data();
  in.slope = slope.data();
  in.lake = lake.data();
  in.river = river.data();
  in.grid_width = 6;
  in.grid_height = 1;
  in.cell_size = 10.0;
  const std::vector<splat_rule> rules = {water_rule("dry", std::nullopt, std::nullopt),
                                         water_rule("shore", std::nullopt, std::array<double, 2>{1.0, 1.0}),
                                         water_rule("bank", std::array<double, 2>{0.5, 1.0}, std::nullopt)};
  splat_blend blend;
  blend.lake = 20.0;
  blend.river = 20.0;
  const auto w = splat_weights(in, rules, blend);
  // Raw weights per cell: dry 1; shore 1, 1, then smoothstep(1 - d / 20 m) at
  // d = 10 m: 0.5, then 0; bank 0.5 at 10 m from the covered cell, 1 on it.
  const std::vector<std::array<double, 3>> raw = {{1, 1, 0}, {1, 1, 0}, {1, 0.5, 0}, {1, 0, 0}, {1, 0, 0.5}, {1, 0, 1}};
  for (std::size_t k = 0; k < 6; ++k) {
    const double total = raw[k][0] + raw[k][1] + raw[k][2];
    for (std::size_t r = 0; r < 3; ++r) {
      INFO("cell " << k << " layer " << r);
      CHECK(w[3 * k + r] == Approx(raw[k][r] / total).margin(1e-6));
    }
  }
  // Without a blend: the cells meeting the rule only.
  const auto crisp = splat_weights(in, rules, splat_blend{0.05, 5.0, 0.5, 0.002, 0.5, 0.0, 0.0, 0.0});
  CHECK(crisp[3 * 2 + 1] == 0.0f);
  CHECK(crisp[3 * 1 + 1] == 0.5f);
  CHECK(crisp[3 * 4 + 2] == 0.0f);
  CHECK(crisp[3 * 5 + 2] == 0.5f);
  // A water rule without its input is a programming error, not a silent 0.
  splat_inputs dry = in;
  dry.lake = nullptr;
  CHECK_THROWS_AS(splat_weights(dry, rules, blend), std::invalid_argument);
}

TEST_CASE("splat: water rules select the lake and river cells of the water outputs", "[splat][water]") {
  const heightfield h = valley_and_bowl();
  const layer_set layers;
  derived_cache cache;
  output_context ctx(h, layers);
  ctx.height_scale = 100.0;
  ctx.cache = &cache;
  ctx.nthreads = 1;
  const json water = {{"river_area", 0.02}, {"width_a", 100}};  // metres-wide rivers on 10 m cells
  const json options = {{"water", water},
                        {"lake_blend", 0},
                        {"river_blend", 0},
                        {"layers", json::array({{{"name", "grass"}, {"lake", {0, 0}}, {"river", {0, 0.49}}},
                                                {{"name", "lakebed"}, {"lake", {1, 1}}},
                                                {{"name", "riverbed"}, {"river", {0.5, 1}}, {"lake", {0, 0}}}})}};
  const output_registry& reg = builtin_outputs();
  json water_options = water;
  const auto lake_png = reg.find("lake")->encode(water_options, "png8", ctx);
  const auto river_png = reg.find("river")->encode(water_options, "png8", ctx);
  const auto splat = reg.find("splat")->encode(reg.find("splat")->canonical(options), "rgba8", ctx);
  CHECK(cache.size() == 1);  // one water for the three outputs
  CHECK(reg.find("splat")->halo(options, {10.0}) == -1);
  const auto lake = png_channel(lake_png, 1, 0), river = png_channel(river_png, 1, 0);
  const auto grass = png_channel(splat, 4, 0), lakebed = png_channel(splat, 4, 1), riverbed = png_channel(splat, 4, 2);
  const auto unused = png_channel(splat, 4, 3);
  int lake_cells = 0, river_cells = 0, dry_cells = 0;
  for (std::size_t k = 0; k < lake.size(); ++k) {
    INFO("cell " << k % 64 << ", " << k / 64);
    REQUIRE(grass[k] + lakebed[k] + riverbed[k] + unused[k] == 255);
    if (lake[k] == 255) {
      ++lake_cells;
      CHECK(lakebed[k] == 255);
    } else if (river[k] >= 129) {  // coverage above 0.5 (128 may round 0.499)
      ++river_cells;
      CHECK(riverbed[k] == 255);
    } else if (river[k] == 0) {
      ++dry_cells;
      CHECK(grass[k] == 255);
    }
  }
  WARN("lake cells " << lake_cells << ", river cells " << river_cells << ", dry cells " << dry_cells);
  CHECK(lake_cells > 100);   // the bowl: about pi 9^2 = 254 cells, less its shallow rim
  CHECK(river_cells >= 63);  // the valley axis to the east edge
  // The valley axis is river (row 48, east half), the bowl's centre lake,
  // the north-west corner dry.
  for (int x = 32; x < 64; ++x) CHECK(riverbed[48 * 64 + static_cast<std::size_t>(x)] == 255);
  CHECK(lakebed[18 * 64 + 20] == 255);
  CHECK(grass[2 * 64 + 60] == 255);

  // The same bytes on 2 and 8 threads, each with its own water.
  for (const int threads : {2, 8}) {
    derived_cache own;
    output_context again(h, layers);
    again.height_scale = 100.0;
    again.cache = &own;
    again.nthreads = threads;
    INFO(threads << " threads");
    CHECK(reg.find("splat")->encode(reg.find("splat")->canonical(options), "rgba8", again).bytes == splat.bytes);
  }
}

TEST_CASE("splat: without a sea_level or water options, water rules use the water outputs' defaults",
          "[splat][water]") {
  const heightfield h = valley_and_bowl();
  const layer_set layers;
  output_context ctx(h, layers);
  ctx.height_scale = 100.0;
  ctx.nthreads = 1;
  const json options = {{"layers", json::array({{{"name", "land"}},
                                                {{"name", "lakebed"}, {"lake", {1, 1}}, {"weight", 1000}},
                                                {{"name", "riverbed"}, {"river", {0.5, 1}}, {"weight", 1000}},
                                                {{"name", "sea"}, {"water_depth", {1, 1e4}}, {"weight", 1000}}})}};
  const output_registry& reg = builtin_outputs();
  const auto splat = reg.find("splat")->encode(reg.find("splat")->canonical(options), "rgba8", ctx);
  const auto lakebed = png_channel(splat, 4, 1), riverbed = png_channel(splat, 4, 2), sea = png_channel(splat, 4, 3);
  // Sea level 0: no sea (every height is above 0); river_area 1 km^2: no river
  // on this 0.41 km^2 map; the lake (min_depth 0.5 m) is there, and it is
  // deep, so water_depth [1, 1e4] m claims its middle too.
  for (std::size_t k = 0; k < riverbed.size(); ++k) REQUIRE(riverbed[k] == 0);
  CHECK(lakebed[18 * 64 + 20] > 120);
  CHECK(sea[18 * 64 + 20] > 120);
  CHECK(sea[48 * 64 + 63] == 0);
  // With sea_level 0.45 the low east end of the valley is sea: water_depth
  // selects it (depth (0.45 - z) x 100 m >= 1 m where z <= 0.44).
  ctx.sea_level = 0.45;
  const auto sea_splat = reg.find("splat")->encode(reg.find("splat")->canonical(options), "rgba8", ctx);
  const auto sea2 = png_channel(sea_splat, 4, 3);
  CHECK(sea2[48 * 64 + 63] == 255);  // 1000 / 1001 of 255 rounds up: the land layer gets 0
  CHECK(sea2[2 * 64 + 2] == 0);
}

TEST_CASE("splat: water rules are checked with their path", "[splat][water]") {
  const json preset = json::parse(R"({"size": 8, "stages": [{"type": "opensimplex"}],
    "outputs": [{"map": "splat", "layers": [{"name": "grass"}, {"name": "mud", "river": [0.5, 2]}]}]})");
  try {
    (void)pipeline::build(preset);
    FAIL("expected a preset error");
  } catch (const preset_error& e) {
    REQUIRE(e.issues().size() == 1);
    CHECK(e.issues()[0].to_string() == "outputs[0] (splat).layers[1].river: 2 is above the maximum 1");
  }
}
