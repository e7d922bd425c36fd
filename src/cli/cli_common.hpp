#pragma once
// Shared by the subcommands: loading a preset with command-line edits, and
// reporting errors. Only the CLI prints; the library throws.

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

namespace landform {
class pipeline;
class stage_cache;
struct build_result;
}  // namespace landform

namespace landform::cli {

class build_timings;

/// Exit codes: the contract with scripts and build pipelines.
inline constexpr int k_exit_ok = 0;
inline constexpr int k_exit_runtime = 1;  // I/O and other runtime failures
inline constexpr int k_exit_usage = 2;    // bad command line or bad preset

/// Where the preset comes from and how the command line edits it.
struct preset_source {
  std::string file;                 // empty: the built-in default preset
  std::optional<std::string> size;  // "N" or "WxH"
  std::optional<std::string> seed;  // parsed strictly: no silent clamping
  std::vector<std::string> sets;    // KEY=VALUE
  std::vector<std::string> vars;    // NAME=VALUE, after vars_file's
  std::string vars_file;            // a JSON object of NAME -> VALUE; empty: none
};

/// Option checks that say their rule in words. CLI11's NonNegativeNumber and
/// PositiveNumber pass NaN and infinity and name their range with the largest
/// double written out in 309 digits.
/// A finite number, at least 0 (`above_zero`: greater than 0).
CLI::Validator finite_number(bool above_zero);
/// A whole number of at least 0.
CLI::Validator whole_number_at_least_zero();
/// A whole number in [lo, hi] (decimal digits only: CLI11's Range also took
/// "0x4" and named "abc" as out of range).
CLI::Validator whole_number_between(long long lo, long long hi);

/// "1 stage", "3 stages": a count and its noun (plural by a trailing s).
std::string count_of(std::size_t n, const std::string& noun);

/// Adds --size, --seed, --set, --var and --vars to `cmd`.
void add_preset_edit_options(CLI::App& cmd, preset_source& source);
/// The folder relative file paths in the preset are resolved against: the
/// preset file's folder, or the working directory for the built-in preset.
std::filesystem::path preset_folder(const preset_source& source);
/// Reads the preset and applies the edits: the variables first (--vars file,
/// then --var, each replacing an earlier value of the same name; a variable
/// the preset does not use is a warning on stderr), then --size, --seed and
/// --set. Throws preset_error / io_error.
nlohmann::json load_preset(const preset_source& source);
/// The JSON in `file`, or null when it is missing or not JSON: an earlier
/// run's record (manifest.json, plan.json) that is only consulted.
nlohmann::json read_json_or_null(const std::filesystem::path& file);
/// Prints the error of the current exception to stderr, returns the exit code.
int report_current_exception();

/// How `landform build` writes a build (also used by `landform tiles build`).
struct build_settings {
  std::string out_dir = "out";
  int threads = 0;
  bool quiet = false;
  bool strict = false;                // target problems are errors (exit 2)
  bool clean = false;                 // remove the previous build's files this one does not write
  std::optional<double> max_seconds;  // refuse presets estimated to run longer (one core)
  bool timings = false;               // print per-stage and per-output wall times on stderr
  stage_cache* cache = nullptr;       // `watch`: resume after the stages an edit left unchanged
};

/// Called by build_into after the stages ran and before anything is encoded
/// or written, with the pipeline and what it computed.
using build_hook = std::function<void(const pipeline& p, const build_result& result)>;

/// Builds a preset (edits applied) into `o.out_dir`: outputs and
/// manifest.json through a file transaction. Returns the exit code; throws
/// preset_error, io_error or cancelled_error. With `timed`, the parts of the
/// build are recorded there (whatever `o.timings`) for the caller to print.
int build_into(const nlohmann::json& preset, const std::filesystem::path& base_dir, const build_settings& o,
               const build_hook& after_run = {}, build_timings* timed = nullptr);

/// The engine choices of `build` and `watch`.
struct target_options {
  std::optional<std::string> target;  // --target: replaces the preset's "target"
  bool snap = false;                  // --snap: `size` to the target's nearest legal size
};

/// Adds --target, --snap and --strict (build, watch, validate).
void add_target_options(CLI::App& cmd, target_options& target, bool& strict);

/// The preset `build` and `watch` run: load_preset(source), then the target
/// options (--target; --snap, which warns on stderr when it changes the size
/// and throws preset_error without a target).
nlohmann::json load_build_preset(const preset_source& source, const target_options& target);
/// Adds the options `build` and `watch` share: -o, the preset edits,
/// --max-seconds, --threads, --target, --snap, --strict and --clean.
void add_build_options(CLI::App& cmd, preset_source& source, build_settings& settings, target_options& target);

void setup_build(CLI::App& app);
void setup_watch(CLI::App& app);
void setup_tiles(CLI::App& app);
void setup_validate(CLI::App& app);
void setup_stages(CLI::App& app);
void setup_outputs(CLI::App& app);
void setup_schema(CLI::App& app);

}  // namespace landform::cli
