#pragma once
/// @file
/// Stage types by name.

#include <map>
#include <string>
#include <vector>

#include "landform/stages/stage.hpp"

namespace landform {

/// Stage types keyed by their stable snake_case name.
class stage_registry {
 public:
  /// Throws std::logic_error if the name is taken.
  void add(stage_info info);
  /// nullptr when unknown.
  [[nodiscard]] const stage_info* find(const std::string& name) const;
  /// Every stage, generators first, then by name.
  [[nodiscard]] std::vector<const stage_info*> all() const;
  [[nodiscard]] std::vector<std::string> names() const;

 private:
  std::map<std::string, stage_info> m_stages;
};

/// Adds every built-in stage. The single explicit list lives in
/// src/pipeline/register_builtin.cpp; no static-initialisation tricks.
void register_builtin_stages(stage_registry& registry);

/// A registry holding the built-in stages, built once on first use.
const stage_registry& builtin_stages();

}  // namespace landform
