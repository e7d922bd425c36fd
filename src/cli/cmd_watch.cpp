// landform watch PRESET [-o DIR] [--size N|WxH] [--seed N] [--set K=V]... [--var N=V]... [--vars FILE]
//                [--target unity|unreal|godot] [--snap] [--strict] [--clean] [--threads N] [--max-seconds N] [--quiet]
//
// Builds the preset, then again each time it is saved, until Ctrl-C. Each
// rebuild resumes after the stages the save left unchanged (a stage_cache of
// the last build's states, bit-identical to a build from scratch), so tuning
// a late stage or an output does not rerun the erosion before it. Linux
// inotify on the folders of the files the build reads (the preset, the
// --vars file, the heightmaps of `image` stages), not on the files: editors
// that save by writing a temporary and renaming it over the file (vim, VS
// Code, sed -i) replace the inode, and a watch on the old one would go quiet.

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <system_error>

#include "build_timings.hpp"
#include "cli_common.hpp"
#include "interrupt.hpp"
#include "landform/core/error.hpp"
#include "landform/pipeline/pipeline.hpp"
#include "landform/pipeline/registry.hpp"
#include "landform/pipeline/stage_cache.hpp"

namespace landform::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A save is a burst of events (truncate, writes, close; or create, write,
// rename): the build starts once the watched files have been quiet this long.
constexpr int k_quiet_ms = 75;
// The longest a wait goes without looking at the interrupt flag.
constexpr std::chrono::milliseconds k_signal_poll{250};

struct watch_options {
  preset_source source;
  target_options target;
  build_settings settings;
  bool quiet = false;  // the status lines only, without the timings
};

// `path` as an absolute, lexically normal path: the form events are matched in.
fs::path normal_path(const fs::path& path) {
  return fs::absolute(path).lexically_normal();
}

// The files a preset reads besides itself: the path parameters of its stages
// (stage_info::files), resolved against the preset's folder.
std::vector<fs::path> stage_files(const json& preset, const fs::path& base_dir) {
  std::vector<fs::path> files;
  if (!preset.is_object() || !preset.contains("stages") || !preset["stages"].is_array()) return files;
  for (const json& stage : preset["stages"]) {
    if (!stage.is_object() || !stage.contains("type") || !stage["type"].is_string()) continue;
    const stage_info* info = builtin_stages().find(stage["type"].get<std::string>());
    if (info == nullptr) continue;
    for (const stage_file& file : info->files) {
      if (stage.contains(file.param) && stage[file.param].is_string()) {
        files.push_back(base_dir / stage[file.param].get<std::string>());
      }
    }
  }
  return files;
}

// Watches files by name through inotify watches on their folders.
class file_watch {
 public:
  file_watch() : m_fd(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {
    if (m_fd < 0) throw io_error(std::string("cannot start watching files (inotify): ") + std::strerror(errno));
  }
  ~file_watch() { ::close(m_fd); }
  file_watch(const file_watch&) = delete;
  file_watch& operator=(const file_watch&) = delete;

  // Adds `file` (through a symbolic link, its target too). Throws io_error
  // when its folder cannot be watched.
  void add(const fs::path& file) {
    std::error_code ec;
    const fs::path target = fs::weakly_canonical(file, ec);
    for (const fs::path& name : {normal_path(file), ec ? fs::path() : target}) {
      if (name.empty() || !m_files.insert(name).second) continue;
      const fs::path dir = name.parent_path();
      const int wd = ::inotify_add_watch(
          m_fd, dir.c_str(),
          IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ONLYDIR);
      if (wd < 0) throw io_error("cannot watch the folder '" + dir.string() + "': " + std::strerror(errno));
      m_dirs[wd] = dir;
    }
  }
  // Events for `file` are not changes: a file the build writes.
  void ignore(const fs::path& file) { m_ignored.insert(normal_path(file)); }

  enum class wait_result { changed, timed_out, interrupted };

  // Waits up to `timeout_ms` (-1: without limit) for a change of a watched
  // file, or a signal.
  wait_result wait(int timeout_ms) {
    using clock = std::chrono::steady_clock;
    const auto deadline = clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
      auto slice = std::chrono::nanoseconds(k_signal_poll);
      if (timeout_ms >= 0) {
        const auto left = std::chrono::duration_cast<std::chrono::nanoseconds>(deadline - clock::now());
        if (left.count() <= 0) return wait_result::timed_out;
        slice = std::min(slice, left);
      }
      const timespec wait_for{static_cast<std::time_t>(slice.count() / 1'000'000'000),
                              static_cast<long>(slice.count() % 1'000'000'000)};
      pollfd fd{m_fd, POLLIN, 0};
      int ready = 0;
      {
        // Signals are held back up to ppoll, which lets them through while it
        // waits: one that arrives before the wait ends it at once. (One taken
        // by another thread, an OpenMP worker, is seen at the next slice.)
        const signal_block hold;
        if (interrupt_guard::requested()) return wait_result::interrupted;
        ready = ::ppoll(&fd, 1, &wait_for, &hold.previous());
      }
      if (interrupt_guard::requested()) return wait_result::interrupted;
      if (ready < 0 && errno != EINTR) {
        throw io_error(std::string("cannot wait for file changes: ") + std::strerror(errno));
      }
      if (ready > 0 && read_events()) return wait_result::changed;
    }
  }

 private:
  // Reads the pending events; true if one is about a watched file (or events
  // were lost, which may have hidden one).
  bool read_events() {
    bool changed = false;
    alignas(inotify_event) std::array<char, 16384> buffer{};
    for (;;) {
      const ssize_t n = ::read(m_fd, buffer.data(), buffer.size());
      if (n <= 0) return changed;  // EAGAIN: drained
      for (ssize_t at = 0; at < n;) {
        inotify_event event{};
        std::memcpy(&event, buffer.data() + at, sizeof event);
        const char* name = buffer.data() + at + sizeof event;
        at += static_cast<ssize_t>(sizeof event + event.len);
        if ((event.mask & IN_Q_OVERFLOW) != 0) changed = true;
        const auto dir = m_dirs.find(event.wd);
        if (dir == m_dirs.end() || event.len == 0) continue;
        const fs::path path = dir->second / name;
        if (m_files.contains(path) && !m_ignored.contains(path)) changed = true;
      }
    }
  }

  int m_fd;
  std::map<int, fs::path> m_dirs;  // watch descriptor -> folder
  std::set<fs::path> m_files;      // normal_path()s
  std::set<fs::path> m_ignored;
};

// "14:03:27", local time.
std::string clock_time() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  std::array<char, 16> text{};
  std::strftime(text.data(), text.size(), "%H:%M:%S", &local);
  return text.data();
}

// One build, as `landform build` with the same options would run it, then
// its status line (and timings) on stderr. A failed build prints the error
// `build` prints and writes nothing, so the folder keeps the last good outputs.
void rebuild(const watch_options& o, file_watch& watch, stage_cache& cache) {
  build_timings timings;
  build_settings settings = o.settings;
  settings.cache = &cache;
  settings.quiet = true;  // no file list or progress bar at every save; the status line says it
  settings.timings = false;
  std::string size, reused;
  int code = k_exit_ok;
  try {
    const json preset = load_build_preset(o.source, o.target);
    for (const fs::path& file : stage_files(preset, preset_folder(o.source))) watch.add(file);
    code = build_into(
        preset, preset_folder(o.source), settings,
        [&](const pipeline& p, const build_result& result) {
          for (const output_spec& out : p.outputs()) watch.ignore(fs::path(settings.out_dir) / out.file);
          size = std::to_string(p.region().width) + "x" + std::to_string(p.region().height);
          if (result.stages_cached > 0) {
            reused = " (" + std::to_string(result.stages_cached) + " of " + std::to_string(p.stages().size()) +
                     " stages unchanged, from the last build)";
          }
        },
        &timings);
  } catch (const cancelled_error&) {
    report_current_exception();  // "interrupted; nothing was written": the watch ends
    return;
  } catch (...) {
    code = report_current_exception();
  }
  const double ms = timings.total_seconds() * 1e3;
  if (code == k_exit_ok) {
    std::fprintf(stderr, "%s ok %.1f ms: %s into %s%s\n", clock_time().c_str(), ms, size.c_str(),
                 settings.out_dir.c_str(), reused.c_str());
    if (!o.quiet) timings.print(stderr);
  } else {
    std::fprintf(stderr, "%s error %.1f ms: %s keeps the last good outputs\n", clock_time().c_str(), ms,
                 settings.out_dir.c_str());
  }
  std::fflush(stderr);
}

int run_watch(const watch_options& o) {
  const interrupt_guard interrupts;  // for the whole watch; each build's own guard nests in it
  file_watch watch;
  watch.add(o.source.file);
  if (!o.source.vars_file.empty()) watch.add(o.source.vars_file);
  watch.ignore(fs::path(o.settings.out_dir) / "manifest.json");
  std::cerr << "landform: watching " << o.source.file
            << (o.source.vars_file.empty() ? std::string() : " and " + o.source.vars_file) << " (Ctrl-C stops)\n";
  stage_cache cache;
  rebuild(o, watch, cache);
  while (!interrupt_guard::requested()) {
    if (watch.wait(-1) == file_watch::wait_result::interrupted) break;
    file_watch::wait_result quiet = file_watch::wait_result::changed;
    while (quiet == file_watch::wait_result::changed) quiet = watch.wait(k_quiet_ms);
    if (quiet == file_watch::wait_result::interrupted) break;
    rebuild(o, watch, cache);
  }
  std::cerr << "landform: stopped watching\n";
  return k_exit_ok;
}

}  // namespace

void setup_watch(CLI::App& app) {
  auto options = std::make_shared<watch_options>();
  CLI::App* cmd = app.add_subcommand(
      "watch", "build a preset, then again whenever it or a file it reads is saved, until Ctrl-C (exit 0)");
  cmd->add_option("preset", options->source.file, "preset JSON file")->required();
  add_build_options(*cmd, options->source, options->settings, options->target);
  cmd->add_flag("-q,--quiet", options->quiet, "one status line per build, without the timings of its parts");
  cmd->callback([options] {
    int code = k_exit_ok;
    try {
      code = run_watch(*options);
    } catch (...) {
      code = report_current_exception();
    }
    if (code != k_exit_ok) throw CLI::RuntimeError(code);
  });
}

}  // namespace landform::cli
