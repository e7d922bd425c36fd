// landform build [PRESET] [-o DIR] [--size N|WxH] [--seed N] [--set K=V]...
//                [--target unity|unreal|godot] [--snap] [--strict] [--clean] [--threads N] [--quiet] [--timings]
//                [--seeds FIRST..LAST | --seeds SEED,SEED,...]

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <span>

#include "build_timings.hpp"
#include "cli_common.hpp"
#include "folder_lock.hpp"
#include "interrupt.hpp"
#include "landform/core/parallel.hpp"
#include "landform/io/file_transaction.hpp"
#include "landform/pipeline/engine_target.hpp"
#include "landform/pipeline/manifest.hpp"
#include "landform/pipeline/pipeline.hpp"
#include "landform/pipeline/preset_header.hpp"
#include "preflight.hpp"
#include "seed_list.hpp"
#include "seed_variants.hpp"

namespace landform::cli {

namespace {

struct build_options {
  preset_source source;
  target_options target;
  std::optional<std::string> seeds;  // "A..B" or "A,B,C": one variant per seed
  build_settings settings;
};

// A one-line progress bar, redrawn in place, only when stderr is a terminal.
class progress_line {
 public:
  explicit progress_line(bool enabled) : m_enabled(enabled) {}
  bool update(std::string_view stage, double fraction) {
    if (!m_enabled) return true;
    const int percent = static_cast<int>(fraction * 100.0);
    if (percent == m_last && stage == m_stage) return true;
    m_last = percent;
    m_stage = stage;
    std::fprintf(stderr, "\r%3d%% %-24.*s", percent, static_cast<int>(stage.size()), stage.data());
    std::fflush(stderr);
    return true;
  }
  void finish() {
    if (m_enabled && m_last >= 0) std::fprintf(stderr, "\r%*s\r", 30, "");
  }

 private:
  bool m_enabled;
  int m_last = -1;
  std::string m_stage;
};

// A staged file of `tx` as encode_outputs streams into it; dropped
// unfinished, the temporary file goes (staged_file's destructor).
file_stream staged_stream(file_transaction& tx, const std::string& name) {
  auto file = std::make_shared<staged_file>(tx.open(name));
  return {[file](std::span<const std::uint8_t> piece) { file->write(piece); }, [file] { file->finish(); }};
}

void stop_if_interrupted() {
  if (interrupt_guard::requested()) throw cancelled_error();
}

// A flat result (normalize of a flat map, a degenerate Voronoi) is almost
// always a mistake in the preset, yet a valid build: say so, keep exit 0.
void warn_if_constant(const heightfield& h) {
  if (h.size() < 2) return;
  const auto [lo, hi] = std::minmax_element(h.values().begin(), h.values().end());
  if (*lo != *hi) return;
  // (+ 0.0: a map of negative zeros reads "0", not "-0".)
  std::cerr << "landform: warning: every height is " << format_number(*lo + 0.0)
            << ": the result is constant (a flat map normalised, or stages that cancel out?)\n";
}

// What the outputs found about a valid result (e.g. a road link with no
// admissible path, listed in the manifest too): a warning each, exit 0.
void print_output_warnings(const std::vector<encoded_output>& files) {
  for (const auto& f : files) {
    const auto it = f.description.find("warnings");
    if (it == f.description.end()) continue;
    for (const auto& w : *it) std::cerr << "landform: warning: " << w.get<std::string>() << '\n';
  }
}

// What the quantised files clamped, for the build summary: heights outside
// [0, 1] (float formats keep them), and a derived map or layer outside its own
// range, named by file so the heights are not blamed for it.
std::string clamp_summary(const std::vector<encoded_output>& files) {
  std::size_t heights = 0, others = 0;
  const encoded_output* first_other = nullptr;
  for (const auto& f : files) {
    if (f.clipped == 0) continue;
    if (f.spec.map == "height") {
      heights = std::max(heights, f.clipped);
    } else if (others++ == 0) {
      first_other = &f;
    }
  }
  std::string text;
  if (heights > 0) {
    text += "; " + std::to_string(heights) +
            " cells outside [0, 1] were clamped in quantised height outputs (add a normalize stage?)";
  }
  if (first_other != nullptr) {
    text += "; " + std::to_string(first_other->clipped) + " cells of " + first_other->spec.file +
            " were clamped to its range";
    if (others > 1) text += " (and in " + count_of(others - 1, "more file") + ": clipped_cells in manifest.json)";
  }
  return text;
}

// Files the previous manifest listed and this build did not write: a warning
// each, or with --clean removed (regular files and symlinks only, nothing the
// previous manifest did not list).
void handle_stale_files(const build_settings& o, const std::vector<std::string>& stale) {
  namespace fs = std::filesystem;
  for (const auto& name : stale) {
    const fs::path path = fs::path(o.out_dir) / name;
    std::error_code ec;
    const fs::file_status status = fs::symlink_status(path, ec);
    if (ec || !(fs::is_regular_file(status) || fs::is_symlink(status))) continue;
    if (!o.clean) {
      std::cerr << "landform: warning: " << path.string()
                << " is from the previous build and not written by this one (--clean removes it)\n";
    } else if (fs::remove(path, ec); ec) {
      std::cerr << "landform: warning: cannot remove " << path.string() << ": " << ec.message() << '\n';
    } else if (!o.quiet) {
      std::cerr << "removed " << path.string() << " (from the previous build)\n";
    }
  }
}

}  // namespace

int build_into(const json& preset, const std::filesystem::path& base_dir, const build_settings& o,
               const build_hook& after_run, build_timings* timed) {
  const auto start = std::chrono::steady_clock::now();
  build_timings own_timings;
  build_timings& timings = timed != nullptr ? *timed : own_timings;
  const bool timing = o.timings || timed != nullptr;
  const interrupt_guard interrupts;
  const pipeline p = pipeline::build(preset, base_dir);
  timings.mark("validate preset");
  check_target(p, o.strict);
  preflight(p, o.max_seconds);
  progress_line progress(!o.quiet && isatty(STDERR_FILENO));
  run_options run;
  run.nthreads = o.threads;
  set_default_threads(o.threads);  // also caps the parts that ask for all cores
  run.progress = [&](std::string_view stage, double f) {
    return !interrupt_guard::requested() && progress.update(stage, f);
  };
  run.stop_requested = [] { return interrupt_guard::requested(); };
  if (timing) run.stage_timed = timings.stage_recorder(p);
  run.cache = o.cache;
  const build_result result = p.run_full(run);
  progress.finish();
  if (after_run) after_run(p, result);
  // The region's heights: the field itself when no halo was computed (a
  // copy would be one more map in memory for the whole write).
  const bool whole = result.x0 == 0 && result.y0 == 0 && result.field.width() == result.region.width &&
                     result.field.height() == result.region.height;
  const heightfield cropped = whole ? heightfield() : result.heights();
  const heightfield& h = whole ? result.field : cropped;
  warn_if_constant(h);

  // One build at a time per folder, from the first temporary file to the
  // last rename; then any temporary in the folder is a killed build's.
  const folder_lock lock(o.out_dir);
  file_transaction::remove_stale_temporaries(o.out_dir);
  const json previous = read_json_or_null(std::filesystem::path(o.out_dir) / "manifest.json");
  // Each file goes to its temporary file as soon as it is encoded (memory
  // holds one encoded file, not all), a PNG piece by piece as it is
  // deflated; all are renamed at the end, so a failure at any point leaves
  // no partial file behind (unwinding removes the temporaries).
  file_transaction tx(o.out_dir);
  const auto files = encode_outputs(
      p, result, o.threads, run.stop_requested, timing ? timings.output_recorder(p) : output_timer(),
      [&tx](const encoded_output& f) {
        if (!f.streamed) tx.stage(f.spec.file, f.bytes);
        stop_if_interrupted();
      },
      [&tx](const std::string& name) { return staged_stream(tx, name); });
  const json manifest = make_manifest(p, h, files, &result);
  const std::string manifest_text = manifest.dump(2) + "\n";
  const std::vector<std::string> stale = stale_files(previous, files);
  tx.stage("manifest.json", std::vector<std::uint8_t>(manifest_text.begin(), manifest_text.end()));
  {
    const signal_block hold;  // the renames are quick; finish them
    stop_if_interrupted();
    tx.commit();
  }
  timings.mark("manifest and write");
  print_output_warnings(files);
  handle_stale_files(o, stale);

  if (!o.quiet) {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (const auto& f : files) std::cout << (std::filesystem::path(o.out_dir) / f.spec.file).string() << '\n';
    std::cout << (std::filesystem::path(o.out_dir) / "manifest.json").string() << '\n';
    std::fprintf(stderr, "built %dx%d in %.2f s; heights %.4f..%.4f", h.width(), h.height(), seconds,
                 manifest["height_range"][0].get<double>() + 0.0, manifest["height_range"][1].get<double>() + 0.0);
    std::fputs(clamp_summary(files).c_str(), stderr);
    std::fprintf(stderr, "\n");
  }
  if (o.timings && timed == nullptr) timings.print(stderr);
  return k_exit_ok;
}

namespace {

// --snap: the preset's `size` to the nearest legal size of its target. A size
// or target that is not valid is left for the preset's validation to report.
void snap_size(json& preset) {
  if (!preset.contains("target") || !preset["target"].is_string()) {
    throw preset_error("--snap", "needs a target (--target unity|unreal|godot, or the preset's \"target\")");
  }
  const std::optional<engine_target> t = parse_engine_target(preset["target"].get<std::string>());
  const json& size = preset.contains("size") ? preset["size"] : json();
  auto side = [](const json& v) {
    return v.is_number_integer() && v.get<std::int64_t>() > 0 && v.get<std::int64_t>() <= k_max_side;
  };
  int w = 0, h = 0;
  if (side(size)) {
    w = h = size.get<int>();
  } else if (size.is_array() && size.size() == 2 && side(size[0]) && side(size[1])) {
    w = size[0].get<int>();
    h = size[1].get<int>();
  }
  if (!t || w == 0) return;
  const auto [sw, sh] = snapped_size(*t, w, h);
  if (sw == w && sh == h) return;
  std::cerr << "landform: warning: --snap: " << w << "x" << h << " is not a " << engine_target_name(*t)
            << " size; using " << sw << "x" << sh << '\n';
  preset["size"] = sw == sh ? json(sw) : json::array({sw, sh});
}

}  // namespace

json load_build_preset(const preset_source& source, const target_options& target) {
  json preset = load_preset(source);
  if (target.target) preset["target"] = *target.target;
  if (target.snap) snap_size(preset);
  return preset;
}

void add_target_options(CLI::App& cmd, target_options& target, bool& strict) {
  cmd.add_option("--target", target.target,
                 "game engine the build is for (unity | unreal | godot; overrides the preset's \"target\"): "
                 "checks the size and outputs against the engine and warns");
  cmd.add_flag("--snap", target.snap,
               "with a target: change the size to the engine's nearest legal size (a warning says so)");
  cmd.add_flag("--strict", strict, "with a target: its problems are errors (exit 2), not warnings");
}

void add_build_options(CLI::App& cmd, preset_source& source, build_settings& settings, target_options& target) {
  cmd.add_option("-o,--out", settings.out_dir, "output directory, created if missing (default: out)")
      ->check([](const std::string& dir) { return dir.empty() ? std::string("must not be empty") : std::string(); });
  add_preset_edit_options(cmd, source);
  add_max_seconds_option(cmd, settings.max_seconds);
  cmd.add_option("--threads", settings.threads,
                 "worker threads, 0 = all cores, at most " + std::to_string(k_max_threads) + " (results are identical)")
      ->check(whole_number_between(0, k_max_threads));
  add_target_options(cmd, target, settings.strict);
  cmd.add_flag("--clean", settings.clean,
               "remove the files the previous build's manifest lists and this build does not write (only those)");
}

namespace {

int run_build(const build_options& o) {
  const json preset = load_build_preset(o.source, o.target);
  if (o.seeds) return build_seed_variants(preset, preset_folder(o.source), o.settings, parse_seed_list(*o.seeds));
  return build_into(preset, preset_folder(o.source), o.settings);
}

}  // namespace

void setup_build(CLI::App& app) {
  auto options = std::make_shared<build_options>();
  CLI::App* cmd = app.add_subcommand("build", "run a preset and write its outputs and manifest.json");
  cmd->add_option("preset", options->source.file, "preset JSON file (default: the built-in default preset)");
  add_build_options(*cmd, options->source, options->settings, options->target);
  cmd->add_flag("-q,--quiet", options->settings.quiet, "print nothing on success (warnings still go to stderr)");
  cmd->add_option("--seeds", options->seeds,
                  "build one variant per seed into OUT/seed-N/, FIRST..LAST or SEED,SEED,... (at most " +
                      std::to_string(k_max_seed_variants) +
                      "), with OUT/index.json and OUT/contact_sheet.png of their previews")
      ->type_name("SEEDS")
      ->excludes(cmd->get_option("--seed"));
  cmd->add_flag("--timings", options->settings.timings,
                "after the build, print the wall time of each stage and output, and the total, on stderr");
  cmd->callback([options] {
    int code = k_exit_ok;
    try {
      code = run_build(*options);
    } catch (...) {
      code = report_current_exception();
    }
    if (code != k_exit_ok) throw CLI::RuntimeError(code);
  });
}

}  // namespace landform::cli
