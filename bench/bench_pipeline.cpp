// The whole pipeline of the built-in default preset (presets/default.json),
// so a regression in any stage or output shows in one figure (issues 9 and
// 11). The preset is built at SIZE cells of its own 4 m, as
// `landform build --size N` does (a larger world, not finer cells), so the
// figures compare with issue 9's "13.0 s at 2048^2 on 1 thread".
//
//   bm_default_preset/SIZE/THREADS/OUTPUTS
//     SIZE: cells per side; THREADS: 1 or 2; OUTPUTS: 0 = the stages only,
//     1 = the stages and the encoding of the preset's four outputs (png16
//     height, r32 height, rgb8 normal, rgb8 preview), as `landform build`
//     does minus the file writes.

#include <benchmark/benchmark.h>

#include <nlohmann/json.hpp>

#include "landform/pipeline/default_preset.hpp"
#include "landform/pipeline/manifest.hpp"
#include "landform/pipeline/pipeline.hpp"

namespace {

using namespace landform;

// The default preset at `size` x `size` cells (`landform build --size`).
nlohmann::json default_preset_at(int size) {
  auto preset = nlohmann::json::parse(default_preset_text());
  preset["size"] = size;
  return preset;
}

void bm_default_preset(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  const auto p = pipeline::build(default_preset_at(size));
  run_options options;
  options.nthreads = static_cast<int>(state.range(1));
  const bool with_outputs = state.range(2) != 0;
  std::size_t bytes = 0;
  for (auto _ : state) {
    const auto result = p.run_full(options);
    if (with_outputs) {
      const auto files = encode_outputs(p, result, options.nthreads);
      bytes = 0;
      for (const auto& f : files) bytes += f.bytes.size();
    }
    benchmark::DoNotOptimize(result.field.data());
  }
  state.counters["output_MB"] = static_cast<double>(bytes) / 1e6;
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(size) * size);
}

}  // namespace

BENCHMARK(bm_default_preset)
    ->ArgsProduct({{1024, 2048}, {1, 2}, {0, 1}})
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->UseRealTime();
