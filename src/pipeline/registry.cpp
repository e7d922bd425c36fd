#include "landform/pipeline/registry.hpp"

#include <algorithm>
#include <stdexcept>

namespace landform {

void stage_registry::add(stage_info info) {
  const std::string name = info.name;
  if (!m_stages.emplace(name, std::move(info)).second) {
    throw std::logic_error("stage_registry: duplicate stage name '" + name + "'");
  }
}

const stage_info* stage_registry::find(const std::string& name) const {
  auto it = m_stages.find(name);
  return it == m_stages.end() ? nullptr : &it->second;
}

std::vector<const stage_info*> stage_registry::all() const {
  std::vector<const stage_info*> out;
  for (const auto& [name, info] : m_stages) out.push_back(&info);
  std::stable_sort(out.begin(), out.end(),
                   [](const stage_info* a, const stage_info* b) { return a->category < b->category; });
  return out;
}

std::vector<std::string> stage_registry::names() const {
  std::vector<std::string> out;
  for (const auto& [name, info] : m_stages) out.push_back(name);
  return out;
}

const stage_registry& builtin_stages() {
  static const stage_registry registry = [] {
    stage_registry r;
    register_builtin_stages(r);
    return r;
  }();
  return registry;
}

}  // namespace landform
