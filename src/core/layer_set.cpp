#include "landform/core/layer_set.hpp"

namespace landform {

std::vector<float>& layer_set::acquire(const std::string& name, std::size_t cells) {
  auto [it, inserted] = m_layers.try_emplace(name);
  if (inserted || it->second.size() != cells) it->second.assign(cells, 0.0f);
  return it->second;
}

void layer_set::put(const std::string& name, std::vector<float> values) {
  m_layers[name] = std::move(values);
}

void layer_set::add(const std::string& name, const std::vector<float>& values) {
  std::vector<float>& layer = acquire(name, values.size());
  for (std::size_t k = 0; k < layer.size(); ++k) layer[k] += values[k];
}

std::vector<float> layer_set::take(const std::string& name) {
  auto it = m_layers.find(name);
  if (it == m_layers.end()) return {};
  std::vector<float> out = std::move(it->second);
  m_layers.erase(it);
  return out;
}

const std::vector<float>* layer_set::find(const std::string& name) const {
  auto it = m_layers.find(name);
  return it == m_layers.end() ? nullptr : &it->second;
}

std::vector<std::string> layer_set::names() const {
  std::vector<std::string> out;
  for (const auto& [name, values] : m_layers) out.push_back(name);
  return out;
}

}  // namespace landform
