#pragma once
// `landform build --timings`: the wall time of each part of a build (preset
// validation, each stage, each stats pass, each output, the writing), printed
// on stderr after the build. The library measures stages and outputs and
// reports them through run_options::stage_timed and encode_outputs' timer;
// this only collects and prints.

#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "landform/pipeline/manifest.hpp"
#include "landform/pipeline/pipeline.hpp"

namespace landform::cli {

/// The timed parts of one build, in the order they ran.
class build_timings {
 public:
  /// Starts the clock of the total (at the start of the build).
  build_timings() : m_start(std::chrono::steady_clock::now()) {}

  /// Records a part that took `seconds` of wall time and ended now.
  void add(std::string label, double seconds);
  /// Records the part from the end of the previous one (or the start) to now.
  void mark(std::string label);
  /// A run_options::stage_timed that records each stage of `p` as
  /// "stages[k] (type) seed key K", or "stats pass for stages[k] (type)".
  [[nodiscard]] std::function<void(std::size_t, bool, double)> stage_recorder(const pipeline& p);
  /// An output_timer that records each output of `p` as
  /// "outputs[i] (map format) file".
  [[nodiscard]] output_timer output_recorder(const pipeline& p);

  /// The wall time since construction.
  [[nodiscard]] double total_seconds() const;

  /// Prints "timings:" then one line per part, "<ms> ms  <label>" with the
  /// milliseconds right-aligned to 3 decimals, and the total since
  /// construction, to `out`.
  void print(std::FILE* out) const;

 private:
  struct part {
    std::string label;
    double seconds = 0.0;
  };
  std::chrono::steady_clock::time_point m_start;
  std::chrono::steady_clock::time_point m_last = m_start;
  std::vector<part> m_parts;
};

}  // namespace landform::cli
