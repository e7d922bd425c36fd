// The normal map's fused row kernel (issue 11): the normal formula written
// once for 8-bit, 16-bit and float samples, the SIMD rows equal to their
// scalar reference on every Highway target this machine can run, and the
// normal output equal to Horn's gradient arrays through that formula at every
// cell, borders and region windows included.

#include <catch2/catch.hpp>

#include <hwy/highway.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "landform/derive/surface.hpp"
#include "landform/outputs/surface_outputs.hpp"
#include "outputs/normal_row.hpp"

namespace {

using landform::detail::normal_params;

struct target_reset {
  ~target_reset() { hwy::SetSupportedTargetsForTest(0); }
};

// Gradients from flat to cliffs, both signs, with exact zeros and ties.
std::vector<float> gradients(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> small(-2.0f, 2.0f), wide(-3000.0f, 3000.0f);
  std::vector<float> g(n);
  for (std::size_t i = 0; i < n; ++i) g[i] = i % 7 == 0 ? 0.0f : (i % 5 == 0 ? wide(rng) : small(rng));
  return g;
}

// Heights with flat runs, gentle slopes and cliffs, both signs.
std::vector<float> heights(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> gentle(0.40f, 0.42f), any(-1.0f, 1.0f);
  std::vector<float> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = i % 11 < 3 ? 0.5f : (i % 3 == 0 ? any(rng) : gentle(rng));
  return h;
}

// (n + 1) / 2 of each channel as the formula gives it.
std::vector<float> formula(float east, float north, double strength, float flip) {
  const double nx = -strength * east, ny = -strength * north;
  const double inv = 1.0 / std::sqrt(nx * nx + ny * ny + 1.0);
  return {static_cast<float>(nx * inv * 0.5 + 0.5), static_cast<float>(flip * ny * inv * 0.5 + 0.5),
          static_cast<float>(inv * 0.5 + 0.5)};
}

// Every row length up to a few vectors (so each tail is covered) of one
// sample type: SIMD against scalar, with an untouched guard sample after.
template <class T>
void check_rows_on_target(const std::vector<float>& rows, int stride, const std::string& name) {
  for (const int n : {0, 1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 33, 1037}) {
    for (const float flip : {1.0f, -1.0f}) {
      const normal_params p{600.0, 8.0 * 3.0, 2.5, flip};
      std::vector<T> simd(3 * static_cast<std::size_t>(n) + 1, T{7}), scalar(simd);
      const float* mid = rows.data() + stride + 1;
      landform::detail::normal_row(mid - stride, mid, mid + stride, n, p, simd.data());
      landform::detail::normal_row_scalar(mid - stride, mid, mid + stride, n, p, scalar.data());
      INFO("target " << name << ", " << n << " cells, " << sizeof(T) << "-byte samples");
      REQUIRE(simd == scalar);
    }
  }
}

}  // namespace

TEST_CASE("normal_row: the scalar formula rounds (n + 1) / 2 with std::lround, or keeps the float", "[surface][simd]") {
  const std::vector<float> east = gradients(4099, 1), north = gradients(4099, 2);
  const int n = static_cast<int>(east.size());
  std::vector<std::uint8_t> u8(3 * east.size());
  std::vector<std::uint16_t> u16(3 * east.size());
  std::vector<float> f32(3 * east.size());
  for (const double strength : {1.0, 0.37, 12.0}) {
    for (const float flip : {1.0f, -1.0f}) {
      const normal_params p{1.0, 8.0, strength, flip};
      landform::detail::normal_cells(east.data(), north.data(), n, p, u8.data());
      landform::detail::normal_cells(east.data(), north.data(), n, p, u16.data());
      landform::detail::normal_cells(east.data(), north.data(), n, p, f32.data());
      std::size_t mismatches = 0;
      for (std::size_t i = 0; i < east.size(); ++i) {
        const std::vector<float> c = formula(east[i], north[i], strength, flip);
        for (std::size_t k = 0; k < 3; ++k) {
          const double v = c[k];
          mismatches += u8[3 * i + k] != std::lround(v * 255.0);
          mismatches += u16[3 * i + k] != std::lround(v * 65535.0);
          mismatches += f32[3 * i + k] != c[k];
        }
      }
      CHECK(mismatches == 0);
    }
  }
  // A 45-degree slope rising east: (-0.7071, 0, 0.7071) -> (37, 128, 218).
  const float rise = 1.0f, flat = 0.0f;
  landform::detail::normal_cells(&rise, &flat, 1, normal_params{}, u8.data());
  CHECK(std::vector<int>{u8[0], u8[1], u8[2]} == std::vector<int>{37, 128, 218});
}

TEST_CASE("normal_row: heights near float's limit give finite normals, lying flat towards the cliff",
          "[surface][simd]") {
  // A cell at 3e38 among zeros, 1000 m per unit: Horn's slope (7.5e40)
  // overflows float32 (inf), and inf x (1 / sqrt(inf)) = inf x 0 made NaN
  // samples in normal.exr.
  constexpr int k_stride = 20;
  std::vector<float> rows(3 * k_stride, 0.0f);
  rows[k_stride + 9] = 3e38f;
  const float* mid = rows.data() + k_stride + 1;
  const normal_params p{1000.0, 8.0, 1.0, 1.0f};
  const target_reset reset;
  for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    std::vector<float> simd(3 * (k_stride - 2)), scalar(simd.size());
    landform::detail::normal_row(mid - k_stride, mid, mid + k_stride, k_stride - 2, p, simd.data());
    landform::detail::normal_row_scalar(mid - k_stride, mid, mid + k_stride, k_stride - 2, p, scalar.data());
    INFO("target " << hwy::TargetName(target));
    CHECK(std::all_of(simd.begin(), simd.end(), [](float v) { return std::isfinite(v); }));
    CHECK(simd == scalar);
    // West of the spike (column 7 of the row, 9 - 1 - 1): the slope rises east
    // steeply, the normal points west: x near 0, z near 0.5 (flat).
    CHECK(simd[3 * 7 + 0] < 0.01f);
    CHECK(simd[3 * 7 + 2] == Approx(0.5f).margin(0.01f));
  }
}

TEST_CASE("normal_row: SIMD rows equal the scalar reference on every dispatch target", "[surface][simd]") {
  const target_reset reset;
  constexpr int k_stride = 1040;  // 1037 cells and their two neighbours
  const std::vector<float> rows = heights(3 * k_stride, 3);
  std::vector<std::string> tested;
  for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    const std::string name = landform::detail::normal_row_target();
    REQUIRE(name == hwy::TargetName(target));
    tested.push_back(name);
    check_rows_on_target<std::uint8_t>(rows, k_stride, name);
    check_rows_on_target<std::uint16_t>(rows, k_stride, name);
    check_rows_on_target<float>(rows, k_stride, name);
  }
  CHECK(tested.size() >= 2);
}

TEST_CASE("normal map: every cell equals Horn's gradient through the normal formula, in every format and window",
          "[surface][normal]") {
  using namespace landform;
  heightfield h(region{37, 29, 0, 0, 3.0});
  h.values() = heights(h.size(), 4);
  const layer_set layers;
  struct window {
    int x0, y0, width, height;
  };
  // The whole field (every border), a window touching the west and north
  // borders, and one inside a halo.
  for (const window w : {window{0, 0, 37, 29}, window{0, 0, 20, 11}, window{1, 1, 35, 27}, window{5, 9, 17, 3}}) {
    for (const edge_policy edges : {edge_policy::extrapolate, edge_policy::clamp}) {
      for (const char* format : {"rgb8", "rgb16", "exr"}) {
        output_context ctx(h, layers);
        ctx.x0 = w.x0;
        ctx.y0 = w.y0;
        ctx.width = w.width;
        ctx.height = w.height;
        ctx.height_scale = 450.0;
        ctx.nthreads = 2;
        const output_kind kind = normal_output_kind();
        const json options = kind.canonical(json{{"convention", "directx"},
                                                 {"strength", 1.7},
                                                 {"edges", edges == edge_policy::clamp ? "clamp" : "extrapolate"}});
        const encoded_file file = kind.encode(options, format, ctx);

        const surface_gradient g = horn_gradient(h, ctx.height_scale, edges, 1);
        const normal_params p{ctx.height_scale, 8.0 * 3.0, 1.7, -1.0f};
        raster expected;
        expected.width = w.width;
        expected.height = w.height;
        expected.channels = 3;
        expected.deflate = ctx.deflate;
        const auto samples = static_cast<std::size_t>(3 * w.width * w.height);
        expected.u8.resize(samples);
        expected.u16.resize(samples);
        expected.f32.resize(samples);
        for (int j = 0; j < w.height; ++j) {
          const std::size_t from = static_cast<std::size_t>(w.y0 + j) * 37 + static_cast<std::size_t>(w.x0);
          const std::size_t to = static_cast<std::size_t>(3 * j * w.width);
          detail::normal_cells(&g.east[from], &g.north[from], w.width, p, &expected.u8[to]);
          detail::normal_cells(&g.east[from], &g.north[from], w.width, p, &expected.u16[to]);
          detail::normal_cells(&g.east[from], &g.north[from], w.width, p, &expected.f32[to]);
        }
        INFO(format << ", window " << w.x0 << "," << w.y0 << " " << w.width << "x" << w.height);
        CHECK(file.bytes == find_output_format(format).write(expected));
      }
    }
  }
}
