#pragma once
// Helpers shared by the tests of whole-world outputs (water, roads): cell
// indices, r32 files as floats and a full build's encoded outputs.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "landform/pipeline/manifest.hpp"
#include "landform/pipeline/pipeline.hpp"

namespace landform_test {

/// Row-major index of (x, y) in a grid `w` wide.
inline std::size_t at(int w, int x, int y) {
  return static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x);
}

/// The float32 values of an r32 file (little-endian host, as the io tests assume).
inline std::vector<float> r32_values(const std::vector<std::uint8_t>& bytes) {
  std::vector<float> out(bytes.size() / 4);
  std::memcpy(out.data(), bytes.data(), out.size() * 4);
  return out;
}

/// A hilly preset for the road tests: 64 x 64 cells of 20 m, 150 m relief,
/// sea at 0.15; `extra_stages` after the terrain.
inline landform::json road_hills(const landform::json& outputs,
                                 const landform::json& extra_stages = landform::json::array()) {
  landform::json stages = landform::json::array(
      {{{"type", "opensimplex"}, {"feature_size", 700}, {"octaves", 4}}, {{"type", "normalize"}, {"mode", "min_max"}}});
  for (const auto& s : extra_stages) stages.push_back(s);
  return {{"size", 64},        {"seed", 5},        {"cell_size", 20.0}, {"height_scale", 150},
          {"sea_level", 0.15}, {"stages", stages}, {"outputs", outputs}};
}

/// Builds `preset` over its whole field on `nthreads` threads and encodes its outputs.
inline std::vector<landform::encoded_output> build_outputs(const landform::json& preset, int nthreads = 1) {
  const landform::pipeline p = landform::pipeline::build(preset);
  landform::run_options options;
  options.nthreads = nthreads;
  return landform::encode_outputs(p, p.run_full(options), nthreads);
}

}  // namespace landform_test
