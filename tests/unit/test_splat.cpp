// Splat maps: rules, normalisation, exact 255 sums, packing and naming.

#include <stb_image.h>

#include <catch2/catch.hpp>
#include <numeric>

#include "landform/derive/splat.hpp"
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
  const std::vector<splat_rule> rules = {
      {"all", std::array<double, 2>{0.0, 1.0}, std::nullopt, std::nullopt, std::nullopt, 0.0, 1.0, std::nullopt}};
  const auto w = weights_for(rules, {0.0f, 0.5f, 1.0f}, {0.0f, 10.0f, 80.0f});
  CHECK(w == std::vector<float>{1.0f, 1.0f, 1.0f});
  CHECK(quantize_splat(w, 1) == std::vector<std::uint8_t>{255, 255, 255});
}

TEST_CASE("splat: ranges select, blend widths fade, uncovered cells go to the base layer", "[splat]") {
  const std::vector<splat_rule> rules = {
      {"grass", std::nullopt, std::array<double, 2>{0.0, 30.0}, std::nullopt, std::nullopt, 0.0, 1.0, std::nullopt},
      {"rock", std::nullopt, std::array<double, 2>{40.0, 90.0}, std::nullopt, std::nullopt, 0.0, 1.0, std::nullopt}};
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
