// Throughput of the tutorial stages on large maps. Cells/s are reported as
// items_per_second. Run with --benchmark_filter=... to pick one.

#include <benchmark/benchmark.h>

#include "landform/stages/normalize.hpp"
#include "landform/stages/olsen_erosion.hpp"
#include "landform/stages/opensimplex.hpp"
#include "landform/stages/perturb.hpp"
#include "landform/stages/smooth.hpp"

namespace {

using namespace landform;

heightfield noise_map(int size) {
  heightfield h(region{size, size, 0, 0, 1.0});
  stage_context ctx;
  ctx.world = {0, 0, size, size};
  ctx.seed = 1;
  apply_opensimplex(h, opensimplex_params{}, ctx);
  return h;
}

stage_context context(int size, int threads) {
  stage_context ctx;
  ctx.world = {0, 0, size, size};
  ctx.seed = 1;
  ctx.nthreads = threads;
  return ctx;
}

void bm_opensimplex_fbm(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  heightfield h(region{size, size, 0, 0, 1.0});
  opensimplex_params p;
  p.octaves = static_cast<int>(state.range(2));
  const auto ctx = context(size, static_cast<int>(state.range(1)));
  for (auto _ : state) {
    apply_opensimplex(h, p, ctx);
    benchmark::DoNotOptimize(h.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(h.size()));
  state.counters["octave_samples/s"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * static_cast<double>(h.size()) * p.octaves, benchmark::Counter::kIsRate);
}
BENCHMARK(bm_opensimplex_fbm)
    ->Args({1024, 1, 1})
    ->Args({1024, 2, 1})
    ->Args({1024, 1, 6})
    ->Args({1024, 2, 6})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void bm_perturb(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  heightfield h = noise_map(size);
  perturb_params p;
  p.sampling = state.range(2) ? perturb_params::sampling_mode::bilinear : perturb_params::sampling_mode::nearest;
  const auto ctx = context(size, static_cast<int>(state.range(1)));
  for (auto _ : state) apply_perturb(h, p, ctx);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(h.size()));
}
BENCHMARK(bm_perturb)
    ->Args({1024, 1, 0})
    ->Args({1024, 1, 1})
    ->Args({1024, 2, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void bm_olsen_erosion_pass(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  heightfield h = noise_map(size);
  olsen_erosion_params p;
  p.iterations = 1;
  const auto ctx = context(size, 1);
  for (auto _ : state) apply_olsen_erosion(h, p, ctx);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(h.size()));
}
BENCHMARK(bm_olsen_erosion_pass)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();

void bm_smooth(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  heightfield h = noise_map(size);
  smooth_params p;
  p.method = state.range(2) ? smooth_params::kind::gaussian : smooth_params::kind::tutorial;
  p.sigma = 2.0;
  const auto ctx = context(size, static_cast<int>(state.range(1)));
  for (auto _ : state) apply_smooth(h, p, ctx);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(h.size()));
}
BENCHMARK(bm_smooth)
    ->Args({1024, 1, 0})
    ->Args({1024, 1, 1})
    ->Args({1024, 2, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void bm_normalize_min_max(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  heightfield h = noise_map(size);
  normalize_params p;
  p.mode = normalize_params::kind::min_max;
  const auto ctx = context(size, 1);
  for (auto _ : state) apply_normalize(h, p, ctx);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(h.size()));
}
BENCHMARK(bm_normalize_min_max)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
