// landform validate PRESET [--size ...] [--seed ...] [--set K=V]...

#include <iostream>

#include "cli_common.hpp"
#include "landform/pipeline/pipeline.hpp"
#include "preflight.hpp"

namespace landform::cli {

void setup_validate(CLI::App& app) {
  auto source = std::make_shared<preset_source>();
  auto max_seconds = std::make_shared<std::optional<double>>();
  auto target = std::make_shared<target_options>();
  auto strict = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("validate", "check a preset without running it; lists every problem");
  cmd->add_option("preset", source->file, "preset JSON file")->required();
  add_preset_edit_options(*cmd, *source);
  add_max_seconds_option(*cmd, *max_seconds);
  add_target_options(*cmd, *target, *strict);
  cmd->callback([source, max_seconds, target, strict] {
    int code = k_exit_ok;
    try {
      const pipeline p = pipeline::build(load_build_preset(*source, *target), preset_folder(*source));
      check_target(p, *strict);
      preflight(p, *max_seconds);
      std::cout << source->file << ": ok (" << count_of(p.stages().size(), "stage") << ", " << p.region().width << "x"
                << p.region().height << ", " << count_of(p.outputs().size(), "output") << ")\n";
    } catch (...) {
      code = report_current_exception();
    }
    if (code != k_exit_ok) throw CLI::RuntimeError(code);
  });
}

}  // namespace landform::cli
