// Snapshots of a run after each stage (see the header). The keys are built by
// pipeline::run_area; this only matches, copies and budgets.

#include "landform/pipeline/stage_cache.hpp"

#include <algorithm>

namespace landform {

namespace {

std::size_t bytes_of(const build_result& r) {
  std::size_t bytes = r.field.size() * sizeof(float);
  for (const auto& name : r.layers.names()) {
    if (const auto* values = r.layers.find(name)) bytes += values->size() * sizeof(float);
  }
  return bytes;
}

}  // namespace

const build_result* stage_cache::resume(const std::vector<std::string>& keys, std::size_t& stages_done) {
  const auto stale = [&keys](const snapshot& s) {
    return s.stages_done == 0 || s.stages_done > keys.size() || keys[s.stages_done - 1] != s.key;
  };
  for (const snapshot& s : m_snapshots) {
    if (stale(s)) m_bytes -= s.bytes;
  }
  std::erase_if(m_snapshots, stale);
  if (m_snapshots.empty()) return nullptr;
  stages_done = m_snapshots.back().stages_done;
  return &m_snapshots.back().state;
}

void stage_cache::store(const std::string& key, std::size_t stages_done, const build_result& state, double seconds) {
  const std::size_t bytes = bytes_of(state);
  if (bytes > m_budget) return;
  std::erase_if(m_snapshots, [&](const snapshot& s) {
    const bool replaced = s.stages_done >= stages_done;  // a later state of an older run
    if (replaced) m_bytes -= s.bytes;
    return replaced;
  });
  while (m_bytes + bytes > m_budget && !m_snapshots.empty()) {
    // The snapshot saving the least over its predecessor; if the new one
    // saves less than all of them, it is not kept.
    const auto least = std::min_element(m_snapshots.begin(), m_snapshots.end(),
                                        [](const snapshot& a, const snapshot& b) { return a.seconds < b.seconds; });
    if (seconds <= least->seconds) return;
    // Its successor now saves what both did.
    const double freed = least->seconds;
    m_bytes -= least->bytes;
    const auto next = m_snapshots.erase(least);
    if (next != m_snapshots.end()) {
      next->seconds += freed;
    } else {
      seconds += freed;
    }
  }
  m_snapshots.push_back({key, stages_done, bytes, seconds, state});
  m_bytes += bytes;
}

}  // namespace landform
