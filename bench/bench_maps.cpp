// Derived maps at 1024^2 and 4096^2: the whole output as a build makes it
// (computation, quantisation and PNG encoding), plus Horn's gradient alone.
// Items are cells.

#include <benchmark/benchmark.h>

#include <map>
#include <span>

#include "landform/derive/surface.hpp"
#include "landform/io/sha256.hpp"
#include "landform/outputs/splat_output.hpp"
#include "landform/outputs/surface_outputs.hpp"
#include "landform/stages/opensimplex.hpp"

namespace {

using namespace landform;

const heightfield& terrain(int size) {
  static std::map<int, heightfield> cache;
  auto it = cache.find(size);
  if (it != cache.end()) return it->second;
  heightfield h(region{size, size, 0, 0, 4.0});
  opensimplex_params p;
  p.feature_size = 4.0 * size / 2;
  p.octaves = 7;
  stage_context ctx;
  ctx.world = {0, 0, size, size};
  ctx.seed = 3;
  apply_opensimplex(h, p, ctx);
  for (auto& v : h.values()) v = 0.5f + 0.5f * v;
  return cache.emplace(size, std::move(h)).first->second;
}

void bm_horn_gradient(benchmark::State& state) {
  const heightfield& h = terrain(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    auto g = horn_gradient(h, 600.0, edge_policy::extrapolate, static_cast<int>(state.range(1)));
    benchmark::DoNotOptimize(g.east.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(h.size()));
}
BENCHMARK(bm_horn_gradient)
    ->Args({1024, 1})
    ->Args({1024, 2})
    ->Args({4096, 1})
    ->Args({4096, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// What a build hands its outputs, with `threads` for the maps and the encoder.
output_context bench_context(const heightfield& h, const layer_set& layers, int threads, png_compression compression) {
  output_context ctx(h, layers);
  ctx.height_scale = 600.0;
  ctx.nthreads = threads;
  ctx.deflate.nthreads = threads;
  ctx.deflate.compression = compression;
  return ctx;
}

// One output kind, encoded as a build would.
// (range 0: size, range 1: threads, also the encoder's).
void run_output(benchmark::State& state, const output_kind& kind, const json& options, const std::string& format,
                png_compression compression = png_compression::standard) {
  const heightfield& h = terrain(static_cast<int>(state.range(0)));
  const layer_set layers;
  const output_context ctx = bench_context(h, layers, static_cast<int>(state.range(1)), compression);
  const json canonical = kind.canonical(options);
  for (auto _ : state) {
    encoded_file f = kind.encode(canonical, format, ctx);
    benchmark::DoNotOptimize(f.bytes.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(h.size()));
}

void bm_normal_rgb8(benchmark::State& s) {
  run_output(s, normal_output_kind(), json::object(), "rgb8");
}
// Issue 11's target 4: `"compression": "fast"` (igzip level 1).
void bm_normal_rgb8_fast(benchmark::State& s) {
  run_output(s, normal_output_kind(), json::object(), "rgb8", png_compression::fast);
}
// The same with the SHA-256 the manifest takes, as `landform build` before
// and after issue 11's streamed outputs (the file write aside): the whole
// file encoded, then hashed; or each piece hashed as the encoder hands it
// over, the file never held whole (range 2: 1 = streamed).
void bm_normal_rgb8_fast_hashed(benchmark::State& state) {
  const heightfield& h = terrain(static_cast<int>(state.range(0)));
  const layer_set layers;
  output_context ctx = bench_context(h, layers, static_cast<int>(state.range(1)), png_compression::fast);
  const output_kind kind = normal_output_kind();
  const json canonical = kind.canonical(json::object());
  for (auto _ : state) {
    sha256_stream hash;
    if (state.range(2) != 0) ctx.stream = [&hash](std::span<const std::uint8_t> piece) { hash.update(piece); };
    const encoded_file f = kind.encode(canonical, "rgb8", ctx);
    if (!f.streamed) hash.update(f.bytes);
    benchmark::DoNotOptimize(hash.hex());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(h.size()));
}
void bm_slope_r32(benchmark::State& s) {
  run_output(s, slope_output_kind(), json::object(), "r32");
}
void bm_curvature_r32(benchmark::State& s) {
  run_output(s, curvature_output_kind(), json::object(), "r32");
}
void bm_preview_rgb8(benchmark::State& s) {
  run_output(s, preview_output_kind(), json::object(), "rgb8");
}
void bm_splat_rgba8(benchmark::State& s) {
  run_output(s, splat_output_kind(), json::object(), "rgba8");
}

#define LANDFORM_MAP_BENCH(name) \
  BENCHMARK(name)->Args({1024, 1})->Args({1024, 2})->Args({4096, 2})->Unit(benchmark::kMillisecond)->UseRealTime()
LANDFORM_MAP_BENCH(bm_normal_rgb8);
BENCHMARK(bm_normal_rgb8_fast)->Args({4096, 1})->Args({4096, 2})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_normal_rgb8_fast_hashed)
    ->Args({4096, 1, 0})
    ->Args({4096, 1, 1})
    ->Args({4096, 2, 0})
    ->Args({4096, 2, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
LANDFORM_MAP_BENCH(bm_slope_r32);
LANDFORM_MAP_BENCH(bm_curvature_r32);
LANDFORM_MAP_BENCH(bm_preview_rgb8);
LANDFORM_MAP_BENCH(bm_splat_rgba8);

}  // namespace
