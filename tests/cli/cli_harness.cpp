#include "cli/cli_harness.hpp"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <system_error>

extern char** environ;

namespace landform_test {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

fs::path make_temp_dir(const char* prefix) {
  std::string pattern = (fs::temp_directory_path() / (std::string(prefix) + "XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    FAIL("mkdtemp(" << pattern << ") failed: " << std::strerror(errno));
  }
  return fs::path(pattern);
}

// Frees the spawn attributes on every path out of run_cli.
struct spawn_actions {
  posix_spawn_file_actions_t actions{};
  spawn_actions() { ::posix_spawn_file_actions_init(&actions); }
  ~spawn_actions() { ::posix_spawn_file_actions_destroy(&actions); }
  spawn_actions(const spawn_actions&) = delete;
  spawn_actions& operator=(const spawn_actions&) = delete;
};

}  // namespace

std::vector<std::string> cli_result::err_lines() const {
  return split_lines(err);
}
std::vector<std::string> cli_result::out_lines() const {
  return split_lines(out);
}

cli_result run_cli(const std::vector<std::string>& args, const fs::path& cwd) {
  cli_process process(args, cwd);
  return process.wait();
}

cli_process::cli_process(const std::vector<std::string>& args, const fs::path& cwd)
    : m_capture(make_temp_dir("landform-cli-capture-")) {
  // Captures live in their own directory, never in the test's directory, so
  // they cannot show up in list_tree() of what the CLI wrote.
  const std::string out_file = (m_capture / "stdout").string();
  const std::string err_file = (m_capture / "stderr").string();

  std::vector<std::string> argv_strings;
  argv_strings.reserve(args.size() + 1);
  argv_strings.emplace_back(LANDFORM_CLI_PATH);
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : argv_strings) argv.push_back(s.data());
  argv.push_back(nullptr);

  spawn_actions fa;
  if (!cwd.empty()) REQUIRE(::posix_spawn_file_actions_addchdir_np(&fa.actions, cwd.c_str()) == 0);
  REQUIRE(::posix_spawn_file_actions_addopen(&fa.actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0) == 0);
  REQUIRE(::posix_spawn_file_actions_addopen(&fa.actions, STDOUT_FILENO, out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                             0644) == 0);
  REQUIRE(::posix_spawn_file_actions_addopen(&fa.actions, STDERR_FILENO, err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                             0644) == 0);

  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, argv[0], &fa.actions, nullptr, argv.data(), environ);
  INFO("posix_spawn(" << argv[0] << "): " << std::strerror(spawned));
  REQUIRE(spawned == 0);
  m_pid = pid;
}

cli_process::~cli_process() {
  if (m_pid > 0) {
    ::kill(m_pid, SIGKILL);
    int status = 0;
    while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  std::error_code ignored;
  fs::remove_all(m_capture, ignored);
}

void cli_process::signal(int signal_number) const {
  REQUIRE(m_pid > 0);
  REQUIRE(::kill(m_pid, signal_number) == 0);
}

std::string cli_process::err_so_far() const {
  return read_text(m_capture / "stderr");
}

cli_result cli_process::wait() {
  REQUIRE(m_pid > 0);
  int status = 0;
  pid_t waited = 0;
  do {
    waited = ::waitpid(m_pid, &status, 0);
  } while (waited < 0 && errno == EINTR);
  REQUIRE(waited == m_pid);
  m_pid = -1;

  cli_result result;
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.exit_code = -WTERMSIG(status);
  }
  result.out = read_text(m_capture / "stdout");
  result.err = read_text(m_capture / "stderr");
  return result;
}

temp_dir::temp_dir() : m_path(make_temp_dir("landform-cli-test-")) {}

temp_dir::~temp_dir() {
  std::error_code ignored;
  fs::remove_all(m_path, ignored);
}

fs::path temp_dir::write(const std::string& relative, const std::string& text) const {
  const fs::path file = m_path / relative;
  fs::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::binary);
  out << text;
  out.close();
  INFO("writing " << file);
  REQUIRE(out.good());
  return file;
}

std::vector<std::string> list_tree(const fs::path& dir) {
  std::vector<std::string> entries;
  std::error_code ec;
  if (!fs::exists(dir, ec)) return entries;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    entries.push_back(entry.path().lexically_relative(dir).generic_string());
  }
  std::sort(entries.begin(), entries.end());
  return entries;
}

std::vector<std::uint8_t> read_bytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  INFO("reading " << file);
  REQUIRE(in.good());
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  INFO("reading " << file);
  REQUIRE(in.good());
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

fs::path source_path(const std::string& relative) {
  return fs::path(LANDFORM_SOURCE_DIR) / relative;
}

bool have(const std::string& tool) {
  return shell("command -v " + tool + " > /dev/null 2>&1") == 0;
}

int shell(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string quoted(const fs::path& p) {
  // Built by append: GCC 12 warns (-Wstringop-overflow) on "'" + string + "'".
  std::string s(1, '\'');
  s.append(p.string());
  s.push_back('\'');
  return s;
}

std::vector<fs::path> shipped_presets() {
  std::vector<fs::path> presets;
  for (const auto& entry : fs::directory_iterator(source_path("presets"))) {
    if (entry.is_regular_file() && entry.path().extension() == ".json") presets.push_back(entry.path());
  }
  std::sort(presets.begin(), presets.end());
  return presets;
}

}  // namespace landform_test
