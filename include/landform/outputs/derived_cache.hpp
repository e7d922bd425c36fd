#pragma once
/// @file
/// Results several outputs of one build derive from the same final
/// heightfield (the six water outputs share one Priority-Flood, lake and
/// river computation), computed once and kept for the rest of the build.

#include <functional>
#include <map>
#include <memory>
#include <string>

namespace landform {

/// A per-build memo of derived results, keyed by a string that names the
/// computation and every parameter it depends on (e.g. "water " + the
/// options' JSON). The heightfield and layers are fixed for the build, so
/// they are not part of the key. Not thread-safe: outputs are encoded one
/// after the other.
class derived_cache {
 public:
  /// The result stored under `key`, computing it with `compute` (a callable
  /// returning T) the first time.
  template <typename T, typename F>
  std::shared_ptr<const T> get(const std::string& key, F&& compute) {
    auto it = m_entries.find(key);
    if (it == m_entries.end()) {
      it = m_entries.emplace(key, std::make_shared<const T>(std::forward<F>(compute)())).first;
    }
    return std::static_pointer_cast<const T>(it->second);
  }

  /// How many results are stored (for tests).
  [[nodiscard]] std::size_t size() const { return m_entries.size(); }

 private:
  std::map<std::string, std::shared_ptr<const void>> m_entries;
};

}  // namespace landform
