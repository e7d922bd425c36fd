#include "preflight.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "landform/core/error.hpp"
#include "landform/pipeline/engine_target.hpp"

namespace landform::cli {

namespace {

// "0.0042 s", "3.2 s", "41 min", "16 h", "9 days": a rough estimate in a
// rough unit (two digits below a tenth of a second, so that a tiny estimate
// refused by a tiny --max-seconds does not read "0.0 s").
std::string duration_words(double seconds) {
  char text[48];
  if (seconds < 0.1) {
    std::snprintf(text, sizeof text, "%.2g s", seconds);
  } else if (seconds < 120.0) {
    std::snprintf(text, sizeof text, "%.1f s", seconds);
  } else if (seconds < 7200.0) {
    std::snprintf(text, sizeof text, "%.0f min", seconds / 60.0);
  } else if (seconds < 172800.0) {
    std::snprintf(text, sizeof text, "%.0f h", seconds / 3600.0);
  } else {
    std::snprintf(text, sizeof text, "%.3g days", seconds / 86400.0);
  }
  return text;
}

}  // namespace

void add_max_seconds_option(CLI::App& cmd, std::optional<double>& max_seconds) {
  cmd.add_option("--max-seconds", max_seconds,
                 "refuse (exit 2) a preset whose estimated run time on one core exceeds this many seconds")
      ->check(finite_number(true));
}

void print_advice(const pipeline& p) {
  for (const preset_issue& advice : p.advice()) std::cerr << "landform: warning: " << advice.to_string() << '\n';
}

void check_cost(const pipeline& p, const std::optional<double>& max_seconds) {
  const std::vector<double> per_stage = p.estimated_stage_seconds();
  if (per_stage.empty()) return;
  const double total = p.estimated_seconds();
  const bool refused = max_seconds && total > *max_seconds;
  if (!refused && total <= k_warn_seconds) return;
  const auto costliest = std::max_element(per_stage.begin(), per_stage.end()) - per_stage.begin();
  const std::string& path = p.stages()[static_cast<std::size_t>(costliest)].path;
  const std::string estimate = "estimated run time " + duration_words(total) + " on one core (" +
                               duration_words(per_stage[static_cast<std::size_t>(costliest)]) + " in this stage)";
  if (refused) throw preset_error(path, estimate + ", more than --max-seconds " + format_number(*max_seconds));
  std::cerr << "landform: warning: " << path << ": " << estimate << "; --max-seconds N refuses such presets\n";
}

void preflight(const pipeline& p, const std::optional<double>& max_seconds) {
  print_advice(p);
  check_cost(p, max_seconds);
}

void check_target(const pipeline& p, bool strict) {
  if (p.target().empty()) {
    // As --snap: a flag that would check nothing is a mistake, not a pass.
    if (strict)
      throw preset_error("--strict", "needs a target (--target unity|unreal|godot, or the preset's \"target\")");
    return;
  }
  std::vector<preset_issue> issues = check_engine_target(p, *parse_engine_target(p.target()));
  if (issues.empty()) return;
  if (strict) throw preset_error(std::move(issues));
  for (const auto& issue : issues) std::cerr << "landform: warning: " << issue.to_string() << '\n';
}

}  // namespace landform::cli
