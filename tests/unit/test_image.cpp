// Unit tests for the `image` generator: 8- and 16-bit PNG, raw16 and r32 read
// back exactly at the world's size, bilinear and nearest resampling on tiny
// known images, region consistency, and the errors for missing, empty,
// mis-sized and corrupt files.

#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "landform/core/error.hpp"
#include "landform/io/encode.hpp"
#include "landform/io/sha256.hpp"
#include "landform/stages/image.hpp"
#include "unit/stage_checks.hpp"

namespace {

namespace fs = std::filesystem;
using namespace landform;
using namespace landform_test;

// A scratch directory removed at the end of the test.
struct scratch {
  fs::path dir;
  scratch() {
    dir = fs::temp_directory_path() / ("landform_image_test_" + std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    fs::create_directories(dir);
  }
  ~scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string write(const std::string& name, const std::vector<std::uint8_t>& bytes) const {
    const fs::path p = dir / name;
    std::ofstream(p, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return p.string();
  }
};

heightfield run_image(const json& stage, int w, int h) {
  return run_preset(preset_of(json::array({stage}), json::array({w, h})));
}

}  // namespace

TEST_CASE("image: a file of the world's size is copied exactly", "[stages][image]") {
  const scratch s;
  const int w = 7, h = 5;
  std::vector<std::uint16_t> v16(w * h);
  std::vector<std::uint8_t> v8(w * h);
  std::vector<float> f32(w * h);
  for (int k = 0; k < w * h; ++k) {
    v16[static_cast<std::size_t>(k)] = static_cast<std::uint16_t>(k * 1871 + 3);
    v8[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(k * 7);
    f32[static_cast<std::size_t>(k)] = -3.5f + 0.25f * static_cast<float>(k);
  }
  const std::string png16 = s.write("a.png", encode_png_gray16(w, h, v16.data()));
  const std::string png8 = s.write("b.PNG", encode_png_gray8(w, h, v8.data()));
  const std::string raw = s.write("c.raw", encode_raw16_le(v16.size(), v16.data()));
  const std::string r32 = s.write("d.r32", encode_r32_le(f32.size(), f32.data()));

  const heightfield a = run_image({{"type", "image"}, {"path", png16}}, w, h);
  const heightfield b = run_image({{"type", "image"}, {"path", png8}}, w, h);
  const heightfield c = run_image({{"type", "image"}, {"path", raw}, {"raw_width", w}}, w, h);
  const heightfield d = run_image({{"type", "image"}, {"path", r32}, {"raw_width", w}, {"raw_height", h}}, w, h);
  // raw_height alone: the width follows from the file size.
  const heightfield e = run_image({{"type", "image"}, {"path", r32}, {"raw_height", h}}, w, h);
  REQUIRE(e.values() == d.values());
  for (std::size_t k = 0; k < a.size(); ++k) {
    REQUIRE(a.values()[k] == static_cast<float>(v16[k] / 65535.0));
    REQUIRE(b.values()[k] == static_cast<float>(v8[k] / 255.0));
    REQUIRE(c.values()[k] == static_cast<float>(v16[k] / 65535.0));
    REQUIRE(d.values()[k] == f32[k]);
  }
}

TEST_CASE("image: bilinear and nearest resampling to a larger world", "[stages][image]") {
  const scratch s;
  const std::vector<std::uint16_t> two = {0, 65535};  // 2 x 1
  const std::string path = s.write("ramp.png", encode_png_gray16(2, 1, two.data()));
  // World cell centres map to pixel positions 0.5 i - 0.25 (edges clamped).
  const heightfield b = run_image({{"type", "image"}, {"path", path}}, 4, 2);
  const heightfield n = run_image({{"type", "image"}, {"path", path}, {"sampling", "nearest"}}, 4, 2);
  const std::vector<float> bilinear = {0.0f, 0.25f, 0.75f, 1.0f};
  const std::vector<float> nearest = {0.0f, 0.0f, 1.0f, 1.0f};
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 4; ++i) {
      CHECK(b.at(i, j) == bilinear[static_cast<std::size_t>(i)]);
      CHECK(n.at(i, j) == nearest[static_cast<std::size_t>(i)]);
    }
  // Downsampling 4 -> 2 averages pixel pairs.
  const std::vector<std::uint8_t> four = {0, 100, 200, 250};
  const std::string path4 = s.write("four.png", encode_png_gray8(4, 1, four.data()));
  const heightfield down = run_image({{"type", "image"}, {"path", path4}}, 2, 1);
  CHECK(down.at(0, 0) == Approx(50.0 / 255.0));
  CHECK(down.at(1, 0) == Approx(225.0 / 255.0));
}

TEST_CASE("image: a region equals the same window of the world", "[stages][image][determinism]") {
  const scratch s;
  std::vector<std::uint16_t> v(37 * 23);
  for (std::size_t k = 0; k < v.size(); ++k) v[k] = static_cast<std::uint16_t>((k * 2654435761u) >> 16);
  const std::string path = s.write("noise.png", encode_png_gray16(37, 23, v.data()));
  const json stages = json::array({{{"type", "image"}, {"path", path}}});
  require_region_consistent(stages);
  require_thread_independent(stages);
}

TEST_CASE("image: missing, empty, mis-sized and corrupt files are reported", "[stages][image][errors]") {
  const scratch s;
  require_rejected({{"type", "image"}, {"path", "no/such/file.png"}},
                   "stages[0] (image).path: \"no/such/file.png\" is not a readable file (relative paths start at the "
                   "working directory)");
  require_rejected({{"type", "image"}, {"path", ""}}, "stages[0] (image).path: must not be empty");
  // Required: reported with the stage's other problems, not as the empty path "".
  require_rejected({{"type", "image"}}, "stages[0] (image).path: missing");
  CHECK(issues_of(preset_of(json::array({{{"type", "image"}, {"bogus", 1}}}), 16)) ==
        std::vector<std::string>{"stages[0] (image).bogus: unknown parameter", "stages[0] (image).path: missing"});
  const std::string odd = s.write("odd.raw", std::vector<std::uint8_t>(7, 0));
  require_rejected({{"type", "image"}, {"path", odd}},
                   "stages[0] (image).path: \"" + odd + "\" has 7 bytes, not a whole number of 2-byte samples");
  const std::string empty = s.write("empty.r32", std::vector<std::uint8_t>());
  require_rejected({{"type", "image"}, {"path", empty}},
                   "stages[0] (image).path: \"" + empty + "\" is empty: an r32 file holds 4-byte samples");
  const std::string rect = s.write("rect.raw", std::vector<std::uint8_t>(2 * 12, 0));
  require_rejected(
      {{"type", "image"}, {"path", rect}},
      "stages[0] (image).raw_width: 0 means a square image, but 12 samples are not a square; give raw_width");
  require_rejected({{"type", "image"}, {"path", rect}, {"raw_width", 5}},
                   "stages[0] (image).raw_width: 12 samples are not a whole number of rows of 5");
  require_rejected(
      {{"type", "image"}, {"path", rect}, {"raw_height", 5}},
      "stages[0] (image).raw_height: 12 samples are not a whole number of rows: 5 rows do not divide them");
  require_rejected({{"type", "image"}, {"path", rect}, {"raw_width", 4}, {"raw_height", 4}},
                   "stages[0] (image).raw_height: raw_width x raw_height = 4 x 4 but the file holds 12 samples");
  // A corrupt PNG is a preset error when the pipeline is built, before any
  // stage runs.
  const std::string bad = s.write("bad.png", {1, 2, 3, 4, 5});
  require_rejected({{"type", "image"}, {"path", bad}},
                   "stages[0] (image).path: \"" + bad + "\" cannot be decoded: not a PNG file (no PNG signature)");
}

TEST_CASE("image: the stage is a function of the decoded samples", "[stages][image]") {
  // No file involved: the pipeline decodes, the stage only resamples.
  heightmap_samples img;
  img.width = 2;
  img.height = 1;
  img.values = {0.0f, 1.0f};
  heightfield h = make_field(4, 2);
  apply_image(h, image_params{}, img, make_ctx(h));
  const std::vector<float> bilinear = {0.0f, 0.25f, 0.75f, 1.0f};
  for (int i = 0; i < 4; ++i) CHECK(h.at(i, 1) == bilinear[static_cast<std::size_t>(i)]);
}

TEST_CASE("image: the canonical preset keeps the path as written and the file's SHA-256", "[stages][image]") {
  const scratch s;
  const std::vector<float> values = {0.0f, 0.25f, 0.5f, 1.0f};
  s.write("in.r32", encode_r32_le(values.size(), values.data()));
  const json preset = preset_of(json::array({{{"type", "image"}, {"path", "in.r32"}}}), 2);
  const pipeline p = pipeline::build(preset, s.dir);
  const json& stage = p.canonical()["stages"][0];
  CHECK(stage["path"] == "in.r32");
  const auto bytes = encode_r32_le(values.size(), values.data());
  CHECK(stage["path_sha256"] == sha256_hex(bytes.data(), bytes.size()));
  // The canonical preset builds again; a stale hash is a preset error.
  CHECK(pipeline::build(p.canonical(), s.dir).canonical() == p.canonical());
  json stale = preset;
  stale["stages"][0]["path_sha256"] = std::string(64, '0');
  try {
    (void)pipeline::build(stale, s.dir);
    FAIL("a stale path_sha256 was accepted");
  } catch (const preset_error& e) {
    REQUIRE(e.issues().size() == 1);
    CHECK(e.issues()[0].to_string() ==
          "stages[0] (image).path_sha256: \"" + std::string(64, '0') + "\" is not the SHA-256 of \"in.r32\" (" +
              sha256_hex(bytes.data(), bytes.size()) + "); the file changed since the preset was written");
  }
}
