#include "landform/stages/stage.hpp"

#include "landform/core/error.hpp"
#include "landform/core/parallel.hpp"

#include <algorithm>
#include <stdexcept>

namespace landform {

std::string to_string(stage_category category) {
  return category == stage_category::generator ? "generator" : "filter";
}

void stage_context::parallel_rows(int rows, const std::function<void(int, int)>& fn) const {
  landform::parallel_rows(rows, nthreads, fn, stop_requested);
}

void stage_context::check_stop() const {
  if (stop_requested()) throw cancelled_error();
}

std::string to_string(stage_scope scope) {
  switch (scope) {
    case stage_scope::pointwise:
      return "pointwise";
    case stage_scope::local:
      return "local";
    case stage_scope::stats:
      return "stats";
    case stage_scope::coarse:
      return "coarse";
    case stage_scope::world:
      break;
  }
  return "world";
}

std::function<std::string(const json& params)> sea_level_when(std::string key, std::string value) {
  return [key = std::move(key), value = std::move(value)](const json& params) -> std::string {
    const auto it = params.find(key);
    return it != params.end() && it->is_string() && it->get<std::string>() == value ? key : "";
  };
}

bool stage_context::wants(std::string_view name) const {
  return std::find(wanted.begin(), wanted.end(), name) != wanted.end();
}

const std::vector<float>* stage_context::read_layer(const std::string& name) const {
  for (const auto& [layer, values] : read_layers) {
    if (layer == name) return values;
  }
  throw std::logic_error("stage reads the layer \"" + name + "\" without declaring it in stage_info::reads");
}

std::shared_ptr<const heightmap_samples> stage_inputs::file(const std::string& param) const {
  auto it = files.find(param);
  if (it == files.end() || !it->second) {
    throw std::logic_error("stage asks for the file of \"" + param + "\" without declaring it in stage_info::files");
  }
  return it->second;
}

}  // namespace landform
