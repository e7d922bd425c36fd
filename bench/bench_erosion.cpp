// Throughput of the erosion stages (issue 4):
//   bm_hydraulic_erosion/<size>/<threads>: droplets/s and droplet_steps/s
//     with Beyer's defaults (max_lifetime 30, erosion_radius 3) on an fBm map.
//   bm_thermal_erosion/<size>/<threads>: cells/s per iteration (items_per_second).
// Targets on the 2-core reference machine: hydraulic >= 1.0 M droplets/s per
// core at 1024^2 and >= 1.8x from 1 to 2 threads; thermal >= 500 M cells/s
// per iteration per core. Run: build/bench/landform_bench --benchmark_filter=erosion

#include <benchmark/benchmark.h>

#include <cstdint>

#include "landform/stages/hydraulic_erosion.hpp"
#include "landform/stages/opensimplex.hpp"
#include "landform/stages/thermal_erosion.hpp"

namespace {

using namespace landform;

stage_context erosion_context(int size, int threads) {
  stage_context ctx;
  ctx.world = {0, 0, size, size};
  ctx.seed = 1;
  ctx.nthreads = threads;
  return ctx;
}

// 6-octave fBm with features of a quarter of the map: slopes everywhere.
heightfield fbm_map(int size) {
  heightfield h(region{size, size, 0, 0, 1.0});
  opensimplex_params p;
  p.octaves = 6;
  p.feature_size = size / 4.0;
  apply_opensimplex(h, p, erosion_context(size, 0));
  return h;
}

// About 0.5 M droplets per run whatever the size (all of 512^2 at one per
// cell), so every size measures the same amount of work per iteration.
void bm_hydraulic_erosion(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  const heightfield input = fbm_map(size);
  hydraulic_erosion_params p;  // Beyer's defaults: lifetime 30, radius 3
  p.droplet_count = size == 512 ? 512 * 512 : 1 << 19;
  const auto ctx = erosion_context(size, threads);
  double droplets = 0.0, steps = 0.0;
  for (auto _ : state) {
    state.PauseTiming();
    heightfield h = input;  // every run erodes the same map
    state.ResumeTiming();
    const auto r = apply_hydraulic_erosion(h, p, ctx);
    benchmark::DoNotOptimize(h.data());
    droplets += static_cast<double>(r.droplets);
    steps += static_cast<double>(r.steps);
  }
  state.counters["droplets/s"] = benchmark::Counter(droplets, benchmark::Counter::kIsRate);
  state.counters["droplet_steps/s"] = benchmark::Counter(steps, benchmark::Counter::kIsRate);
  state.counters["steps/droplet"] = steps / droplets;
}
BENCHMARK(bm_hydraulic_erosion)
    ->ArgNames({"size", "threads"})
    ->Args({512, 1})
    ->Args({512, 2})
    ->Args({1024, 1})
    ->Args({1024, 2})
    ->Args({4096, 1})
    ->Args({4096, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(2.0);

// 8 iterations per run (two fused sweeps of four); items = cells x iterations.
void bm_thermal_erosion(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  heightfield h = fbm_map(size);
  thermal_erosion_params p;
  p.talus_angle = 0.5;  // below most slopes of the map: material moves everywhere
  p.iterations = 8;
  const auto ctx = erosion_context(size, threads);
  for (auto _ : state) {
    apply_thermal_erosion(h, p, ctx);
    benchmark::DoNotOptimize(h.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(h.size()) * p.iterations);
}
BENCHMARK(bm_thermal_erosion)
    ->ArgNames({"size", "threads"})
    ->Args({1024, 1})
    ->Args({1024, 2})
    ->Args({4096, 1})
    ->Args({4096, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(1.0);

}  // namespace
