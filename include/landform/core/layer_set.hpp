#pragma once
/// @file
/// Named float32 layers that stages produce beside the heightfield.

#include <map>
#include <string>
#include <vector>

namespace landform {

/// Side layers written by stages (e.g. hydraulic erosion's eroded and
/// deposited amounts), each the heightfield's width x height, row-major,
/// float32. Writable as outputs by name.
class layer_set {
 public:
  /// The layer called `name`, created zero-filled with `cells` values if
  /// absent. An existing layer is returned as it is, so two stages writing
  /// the same layer accumulate into it.
  std::vector<float>& acquire(const std::string& name, std::size_t cells);
  /// Sets the layer `name` to `values`, replacing what was there.
  void put(const std::string& name, std::vector<float> values);
  /// Adds `values` cell by cell into the layer `name` (created zero-filled if
  /// absent or of another size).
  void add(const std::string& name, const std::vector<float>& values);
  /// Removes the layer `name` and returns its values (empty if absent).
  std::vector<float> take(const std::string& name);
  /// nullptr when no stage wrote `name`.
  [[nodiscard]] const std::vector<float>* find(const std::string& name) const;
  [[nodiscard]] std::vector<std::string> names() const;
  [[nodiscard]] bool empty() const { return m_layers.empty(); }

 private:
  std::map<std::string, std::vector<float>> m_layers;
};

}  // namespace landform
