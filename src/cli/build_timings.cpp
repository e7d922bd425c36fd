#include "build_timings.hpp"

namespace landform::cli {

namespace {

double seconds_between(std::chrono::steady_clock::time_point from, std::chrono::steady_clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

}  // namespace

void build_timings::add(std::string label, double seconds) {
  m_parts.push_back({std::move(label), seconds});
  m_last = std::chrono::steady_clock::now();
}

void build_timings::mark(std::string label) {
  add(std::move(label), seconds_between(m_last, std::chrono::steady_clock::now()));
}

std::function<void(std::size_t, bool, double)> build_timings::stage_recorder(const pipeline& p) {
  return [this, &p](std::size_t k, bool stats_pass, double seconds) {
    const pipeline_stage& s = p.stages().at(k);
    add(stats_pass ? "stats pass for " + s.path : s.path + " seed key " + s.key, seconds);
  };
}

output_timer build_timings::output_recorder(const pipeline& p) {
  return [this, &p](std::size_t index, double seconds) {
    const output_spec& o = p.outputs().at(index);
    add("outputs[" + std::to_string(index) + "] (" + o.map + " " + o.format + ") " + o.file, seconds);
  };
}

double build_timings::total_seconds() const {
  return seconds_between(m_start, std::chrono::steady_clock::now());
}

void build_timings::print(std::FILE* out) const {
  std::fprintf(out, "timings:\n");
  for (const auto& [label, seconds] : m_parts) std::fprintf(out, "%12.3f ms  %s\n", seconds * 1e3, label.c_str());
  std::fprintf(out, "%12.3f ms  total\n", total_seconds() * 1e3);
}

}  // namespace landform::cli
