#include "landform/core/layer_set.hpp"

namespace landform {

std::vector<float>& layer_set::acquire(const std::string& name, std::size_t cells) {
  auto [it, inserted] = m_layers.try_emplace(name);
  if (inserted || it->second.size() != cells) it->second.assign(cells, 0.0f);
  return it->second;
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
