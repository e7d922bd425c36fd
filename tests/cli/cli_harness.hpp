#pragma once
// A tiny harness for end-to-end tests of the `landform` binary: run it with
// arguments and capture exit code, stdout and stderr; a fresh temporary
// directory per test; small file helpers.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace landform_test {

/// What one run of the CLI produced.
struct cli_result {
  int exit_code = -1;  ///< the exit status, or -N when killed by signal N
  std::string out;     ///< everything written to stdout
  std::string err;     ///< everything written to stderr

  /// stderr split into lines, without the '\n' (a missing final newline still ends a line).
  [[nodiscard]] std::vector<std::string> err_lines() const;
  /// stdout split into lines, likewise.
  [[nodiscard]] std::vector<std::string> out_lines() const;
};

/// Runs LANDFORM_CLI_PATH with `args` (no shell: arguments are passed as is)
/// in the working directory `cwd` (the harness's own directory when empty),
/// stdin from /dev/null. Fails the current test if the process cannot be
/// started.
cli_result run_cli(const std::vector<std::string>& args, const std::filesystem::path& cwd = {});

/// The CLI running in the background (signal and concurrency tests): started
/// like run_cli, then signalled and waited for.
class cli_process {
 public:
  cli_process(const std::vector<std::string>& args, const std::filesystem::path& cwd = {});
  ~cli_process();  ///< kills (SIGKILL) and reaps a process not waited for
  cli_process(const cli_process&) = delete;
  cli_process& operator=(const cli_process&) = delete;

  /// Sends `signal_number` to the process.
  void signal(int signal_number) const;
  /// What the process has written to stderr so far (it keeps running).
  [[nodiscard]] std::string err_so_far() const;
  /// Waits for the end and returns what it produced.
  cli_result wait();

 private:
  int m_pid = -1;
  std::filesystem::path m_capture;  // stdout and stderr files, removed by wait() or the destructor
};

/// A fresh, empty directory under std::filesystem::temp_directory_path(),
/// removed with everything in it when the object is destroyed.
class temp_dir {
 public:
  temp_dir();
  ~temp_dir();
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return m_path; }
  /// path() / relative.
  [[nodiscard]] std::filesystem::path operator/(const std::string& relative) const { return m_path / relative; }
  /// Writes `text` to path() / relative (creating parent folders); returns the full path.
  std::filesystem::path write(const std::string& relative, const std::string& text) const;

 private:
  std::filesystem::path m_path;
};

/// Every entry (files, hidden files and directories) below `dir`, as sorted
/// generic relative paths; empty when `dir` does not exist.
std::vector<std::string> list_tree(const std::filesystem::path& dir);

/// The whole file; fails the current test if it cannot be read.
std::vector<std::uint8_t> read_bytes(const std::filesystem::path& file);
std::string read_text(const std::filesystem::path& file);

/// LANDFORM_SOURCE_DIR / relative.
std::filesystem::path source_path(const std::string& relative);

/// True when `tool` is on the PATH.
bool have(const std::string& tool);
/// Runs `command` with /bin/sh; its exit status, or -1 when it did not exit.
int shell(const std::string& command);
/// `p` in single quotes, for shell() commands (paths without quotes).
std::string quoted(const std::filesystem::path& p);

/// The presets shipped in presets/*.json, sorted.
std::vector<std::filesystem::path> shipped_presets();

}  // namespace landform_test
