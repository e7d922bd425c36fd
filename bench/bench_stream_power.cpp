// Cost of one stream-power landscape-evolution step (issue 9):
//   bm_stream_power_step/<size>/<threads>: one step as the stage runs it:
//     uplift + D8 routing with every depression resolved
//     (route_depression_free_d8: receivers, lakes, stack) + drainage area +
//     implicit n = 1 incision + implicit diffusion, on a 6-octave fBm
//     landscape of 1000 m relief with 30 m cells, filled first. One untimed
//     warm-up step first: it touches every buffer once (the page faults of
//     ~1 GB at 4096^2 are a cost of the first step only, not of the other
//     steps of a run). The state evolves from run to run (each run is one more
//     step); diffusion reopens a closed depression at most nodes each step, so
//     these are the dear steps, with lakes to resolve.
//   bm_stream_power_<phase>/<size>: the routing phases alone, single thread
//     (fill, receivers, stack, drainage area d8 / mfd), for comparison with
//     fastscapelib's flow routing and accumulation timings.
// Reference (issue 9): fastscapelib v0.2.2 took 1.80 s for flow routing,
// 0.8-1.1 s for accumulation and 2.4 s for the stream-power solve at 4096^2.
// Run: build/bench/landform_bench --benchmark_filter=stream_power

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <utility>
#include <vector>

#include "landform/derive/flow_routing.hpp"
#include "landform/stages/opensimplex.hpp"
#include "landform/stages/stream_power_erosion.hpp"

namespace {

using namespace landform;

constexpr double k_cell_size = 30.0;

std::vector<double> landscape(int size) {
  heightfield h(region{size, size, 0, 0, 1.0});
  opensimplex_params p;
  p.octaves = 6;
  p.feature_size = size / 4.0;
  stage_context ctx;
  ctx.world = {0, 0, size, size};
  ctx.seed = 1;
  ctx.nthreads = 0;
  apply_opensimplex(h, p, ctx);
  std::vector<double> z(h.size());
  for (std::size_t c = 0; c < z.size(); ++c) z[c] = 500.0 * (static_cast<double>(h.data()[c]) + 1.0);
  return z;
}

void bm_stream_power_step(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  const std::size_t n = static_cast<std::size_t>(size) * static_cast<std::size_t>(size);
  stream_power_erosion_params p;
  p.diffusivity = 0.01;
  p.channel_width = 0.0;  // the per-cell area, as fastscapelib and the earlier figures of bench/README.md
  // Start from the filled fBm (a surface that drains), so a run measures a
  // step of an evolving landscape rather than the first fill of noise.
  std::vector<double> z = landscape(size);
  priority_flood_fill(z, size, size);
  stream_power_model model(size, size, k_cell_size, std::move(z), std::vector<double>(n, 1e-3),
                           std::vector<double>(n, p.erodibility), p, threads);
  model.step(1e4);  // warm-up: first touch of the model's buffers
  for (auto _ : state) {
    model.step(1e4);
    benchmark::DoNotOptimize(model.elevation().data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n));
}
BENCHMARK(bm_stream_power_step)
    ->ArgNames({"size", "threads"})
    ->Args({1024, 1})
    ->Args({1024, 2})
    ->Args({4096, 1})
    ->Args({4096, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(4.0);

void bm_stream_power_fill(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  const std::vector<double> input = landscape(size);
  for (auto _ : state) {
    state.PauseTiming();
    std::vector<double> z = input;
    state.ResumeTiming();
    benchmark::DoNotOptimize(priority_flood_fill(z, size, size));
  }
}
BENCHMARK(bm_stream_power_fill)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();

void bm_stream_power_routing(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  std::vector<double> z = landscape(size);
  priority_flood_fill(z, size, size);
  flow_graph g;
  double receivers = 0.0, stack = 0.0, d8 = 0.0, mfd = 0.0;
  for (auto _ : state) {
    auto t0 = std::chrono::steady_clock::now();
    compute_receivers_d8(z, size, size, k_cell_size, g, 1);
    auto t1 = std::chrono::steady_clock::now();
    compute_stack(g);
    auto t2 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(drainage_area_d8(g, k_cell_size).data());
    auto t3 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(drainage_area_mfd(z, size, size, k_cell_size).data());
    auto t4 = std::chrono::steady_clock::now();
    receivers += std::chrono::duration<double>(t1 - t0).count();
    stack += std::chrono::duration<double>(t2 - t1).count();
    d8 += std::chrono::duration<double>(t3 - t2).count();
    mfd += std::chrono::duration<double>(t4 - t3).count();
  }
  const auto runs = static_cast<double>(state.iterations());
  state.counters["receivers_s"] = receivers / runs;
  state.counters["stack_s"] = stack / runs;
  state.counters["area_d8_s"] = d8 / runs;
  state.counters["area_mfd_s"] = mfd / runs;
}
BENCHMARK(bm_stream_power_routing)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
