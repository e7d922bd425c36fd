#pragma once
/// @file
/// Snapshots of a run after each stage, so that a rebuild after an edit
/// resumes after the last stage the edit did not change (`landform watch`).

#include <cstddef>
#include <string>
#include <vector>

#include "landform/pipeline/pipeline.hpp"

namespace landform {

/// The state of a run (heights, side layers, stage reports) after stages
/// [0, k), each under a key that holds everything those stages depend on:
/// the computed area, world, region, height scale, sea level, and each
/// stage's canonical entry (parameters, composition, file hashes), seed,
/// wanted layers and world range. A run that finds its own key for a
/// prefix starts from a copy of that state; since stages are deterministic,
/// the result is bit-identical to a run from scratch (tested).
///
/// Memory: a snapshot holds the computed area's float32 heights and layers.
/// Beyond `byte_budget`, the snapshot that saves the least time over the one
/// before it is dropped (the state after a quick normalize is worth little
/// when the state before it is kept). Which snapshots are kept depends on
/// timings; results never do. Not thread-safe: one run at a time.
class stage_cache {
 public:
  static constexpr std::size_t k_default_budget = std::size_t{1} << 30;  ///< 1 GiB

  explicit stage_cache(std::size_t byte_budget = k_default_budget) : m_budget(byte_budget) {}

  /// The snapshot with the most stages whose key equals `keys[k - 1]` for its
  /// k stages, or nullptr. Drops every snapshot whose key `keys` does not
  /// hold (a stale prefix), so the cache only keeps the current run's.
  const build_result* resume(const std::vector<std::string>& keys, std::size_t& stages_done);

  /// Keeps a copy of `state` as the state after `stages_done` stages, under
  /// `key`, within the budget; `seconds` is the wall time of the stage that
  /// made it.
  void store(const std::string& key, std::size_t stages_done, const build_result& state, double seconds);

  /// Bytes the snapshots hold.
  [[nodiscard]] std::size_t bytes() const { return m_bytes; }
  /// Number of snapshots held.
  [[nodiscard]] std::size_t size() const { return m_snapshots.size(); }

 private:
  struct snapshot {
    std::string key;
    std::size_t stages_done = 0;
    std::size_t bytes = 0;
    double seconds = 0.0;  // time saved over the snapshot before it
    build_result state;
  };
  std::size_t m_budget;
  std::size_t m_bytes = 0;
  std::vector<snapshot> m_snapshots;  // in stage order
};

}  // namespace landform
