// Ambient occlusion and flow routing on large maps (issue 5: AO at 1024^2 with
// 16 directions should take under half a second). Cells/s are reported as
// items_per_second. Run: build/bench/landform_bench --benchmark_filter='ao|flow'

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "landform/derive/ambient_occlusion.hpp"
#include "landform/derive/flow.hpp"
#include "landform/derive/flow_routing.hpp"
#include "landform/derive/water.hpp"
#include "landform/stages/opensimplex.hpp"

namespace {

using namespace landform;

// Six-octave OpenSimplex terrain (heights about -1..1), cell size 1 m.
heightfield terrain(int size) {
  heightfield h(region{size, size, 0, 0, 1.0});
  stage_context ctx;
  ctx.world = {0, 0, size, size};
  ctx.seed = 7;
  opensimplex_params p;
  p.octaves = 6;
  apply_opensimplex(h, p, ctx);
  return h;
}

// Args: size, threads, directions. Radius 50 m (the default) = 50 cells,
// height_scale 100 m.
void bm_ambient_occlusion(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  const heightfield h = terrain(size);
  ao_params p;
  p.directions = static_cast<int>(state.range(2));
  for (auto _ : state) {
    auto ao = ambient_occlusion(h, p, 100.0, static_cast<int>(state.range(1)));
    benchmark::DoNotOptimize(ao.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(h.size()));
}
BENCHMARK(bm_ambient_occlusion)
    ->Args({1024, 1, 16})
    ->Args({1024, 2, 16})
    ->Args({4096, 1, 16})
    ->Args({4096, 2, 16})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Args: size, method (0 = d8, 1 = dinf), threads. D8 (flow_routing's
// route_depression_free_d8 + drainage_area_d8): receivers, basin graph, the
// lakes' flood (in shards), stack and area on `threads`, the basin Dijkstra
// serial.
// D-infinity: fill and accumulation serial, the directions on `threads`.
void bm_flow_accumulation(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  const heightfield h = terrain(size);
  const flow_method method = state.range(1) ? flow_method::dinf : flow_method::d8;
  for (auto _ : state) {
    auto a = flow_accumulation(h, method, static_cast<int>(state.range(2)));
    benchmark::DoNotOptimize(a.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(h.size()));
}
BENCHMARK(bm_flow_accumulation)
    ->Args({1024, 0, 1})
    ->Args({1024, 0, 2})
    ->Args({1024, 1, 1})
    ->Args({1024, 1, 2})
    ->Args({4096, 0, 1})
    ->Args({4096, 0, 2})
    ->Args({4096, 1, 1})
    ->Args({4096, 1, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// D8 routing with depression handling and drainage area on storage that a
// previous call has touched: what a landscape-evolution model pays per step,
// and the like of fastscapelib's `flow_graph::update_routes` + `accumulate`
// called again on one graph. One untimed call first fills the storage; its
// time is the `first_call_s` counter (fresh pages: about a third of it on a
// virtual machine). Each iteration copies the unfilled heights back in
// (untimed). Args: size, threads.
void bm_d8_routing_warm(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  const heightfield h = terrain(size);
  const std::vector<double> z0(h.data(), h.data() + h.size());
  std::vector<double> z = z0, area;
  flow_graph graph;
  const auto t0 = std::chrono::steady_clock::now();
  route_depression_free_d8(z, size, size, 1.0, graph, threads);
  drainage_area_d8(graph, 1.0, area, threads);
  state.counters["first_call_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (auto _ : state) {
    state.PauseTiming();
    std::copy(z0.begin(), z0.end(), z.begin());
    state.ResumeTiming();
    route_depression_free_d8(z, size, size, 1.0, graph, threads);
    drainage_area_d8(graph, 1.0, area, threads);
    benchmark::DoNotOptimize(area.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(h.size()));
}
BENCHMARK(bm_d8_routing_warm)
    ->Args({1024, 1})
    ->Args({4096, 1})
    ->Args({4096, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The depression filling alone (the serial part that dominates).
void bm_priority_flood(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  const heightfield h = terrain(size);
  for (auto _ : state) {
    auto f = priority_flood_epsilon(h);
    benchmark::DoNotOptimize(f.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(h.size()));
}
BENCHMARK(bm_priority_flood)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();

// Water (issue 10): sea + lakes + rivers (compute_water: sea flood, one
// Priority-Flood with spill labels, D8 receivers and stack, discharge,
// rivers, network and mask) against flow accumulation alone
// (bm_flow_accumulation, D8) on the same terrain. Target: at most 2x at
// 4096^2. Args: size, threads. Run: --benchmark_filter='water|flow_accumulation/4096/0'
void bm_water(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  const heightfield h = terrain(size);
  water_params p;
  p.sea_level = -0.2;
  p.river_area = 1e4;  // m^2 = 10^4 cells of 1 m
  for (auto _ : state) {
    water_maps w = compute_water(h, 100.0, p, static_cast<int>(state.range(1)));
    benchmark::DoNotOptimize(w.river_mask.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(h.size()));
}
BENCHMARK(bm_water)->Args({1024, 1})->Args({4096, 1})->Args({4096, 2})->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
