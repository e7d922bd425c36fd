// The noise generators side by side: 4096 x 4096 cells, fBm of 6 octaves,
// feature size (period) 64 cells, on 1 and 2 threads, in one run so the
// figures compare. Cells/s are items_per_second; the SIMD target runtime
// dispatch chose is in the label.
//   build/bench/landform_bench --benchmark_filter=noise_fbm

#include <benchmark/benchmark.h>

#include "landform/noise/opensimplex2.hpp"
#include "landform/stages/opensimplex.hpp"
#include "landform/stages/opensimplex2.hpp"
#include "landform/stages/perlin.hpp"
#include "landform/stages/value_noise.hpp"

namespace {

using namespace landform;

constexpr int k_size = 4096;

template <class P>
void run_noise(benchmark::State& state, const P& p, void (*apply)(heightfield&, const P&, const stage_context&)) {
  heightfield h(region{k_size, k_size, 0, 0, 1.0});
  stage_context ctx;
  ctx.world = {0, 0, k_size, k_size};
  ctx.seed = 1;
  ctx.nthreads = static_cast<int>(state.range(0));
  for (auto _ : state) {
    apply(h, p, ctx);
    benchmark::DoNotOptimize(h.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(h.size()));
  state.SetLabel(noise::simd_target_name());
}

void bm_noise_fbm_opensimplex2(benchmark::State& state) {
  opensimplex2_params p;
  p.octaves = 6;
  p.feature_size = 64.0;
  run_noise(state, p, &apply_opensimplex2);
}

void bm_noise_fbm_perlin(benchmark::State& state) {
  perlin_params p;
  p.octaves = 6;
  p.feature_size = 64.0;
  run_noise(state, p, &apply_perlin);
}

void bm_noise_fbm_opensimplex_legacy_3d(benchmark::State& state) {
  opensimplex_params p;
  p.octaves = 6;
  p.feature_size = 64.0;
  run_noise(state, p, &apply_opensimplex);
}

void bm_noise_fbm_value_noise(benchmark::State& state) {
  value_noise_params p;
  p.mode = value_noise_params::mode_kind::fbm;
  p.interpolation = value_noise_params::interpolation_kind::quintic;
  p.octaves = 6;
  p.feature_size = 64.0;
  run_noise(state, p, &apply_value_noise);
}

#define LANDFORM_NOISE_BENCH(fn) \
  BENCHMARK(fn)->Arg(1)->Arg(2)->Iterations(2)->Unit(benchmark::kMillisecond)->UseRealTime()
LANDFORM_NOISE_BENCH(bm_noise_fbm_opensimplex2);
LANDFORM_NOISE_BENCH(bm_noise_fbm_perlin);
LANDFORM_NOISE_BENCH(bm_noise_fbm_opensimplex_legacy_3d);
LANDFORM_NOISE_BENCH(bm_noise_fbm_value_noise);

}  // namespace
