#include "landform/io/file_transaction.hpp"

#include "landform/core/error.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <random>
#include <span>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <utility>

namespace landform {
namespace fs = std::filesystem;

namespace {

constexpr int k_temp_attempts = 100;
constexpr std::size_t k_max_temp_stem = 200;  // keeps ".<name>.tmp-XXXXXX" under NAME_MAX

std::string quoted(const fs::path& path) {
  return "'" + path.string() + "'";
}

[[noreturn]] void throw_write_error(const fs::path& final_path, std::error_code reason) {
  throw io_error("cannot write " + quoted(final_path) + ": " + reason.message());
}

std::error_code last_error() {
  return {errno, std::generic_category()};
}

/// Validates a relative name and returns it without `.` components, with `/`
/// separators.
std::string normalise_name(const std::string& name) {
  const auto bad = [&](const char* why) {
    return std::invalid_argument("file_transaction: bad file name '" + name + "': " + why);
  };
  if (name.empty()) throw bad("empty");
  if (name.find('\0') != std::string::npos) throw bad("contains NUL");
  const fs::path path(name);
  if (path.has_root_path()) throw bad("must be relative");
  if (!path.has_filename() || path.filename() == ".") throw bad("must name a file");
  fs::path result;
  for (const auto& part : path) {
    if (part == "..") throw bad("must not contain '..'");
    if (part.empty() || part == ".") continue;
    result /= part;
  }
  if (result.empty()) throw bad("must name a file");
  return result.generic_string();
}

// ".<stem>.tmp-XXXXXX" with six letters or digits: what create_temp makes
// (and commit's backups, the same with ".old").
bool is_temp_name(std::string name) {
  if (name.size() > 4 && name.compare(name.size() - 4, 4, ".old") == 0) name.resize(name.size() - 4);
  constexpr std::string_view k_marker = ".tmp-";
  constexpr std::size_t k_suffix = 6;
  if (name.size() < 1 + k_marker.size() + k_suffix || name[0] != '.') return false;
  const std::size_t marker = name.size() - k_suffix - k_marker.size();
  if (name.compare(marker, k_marker.size(), k_marker) != 0) return false;
  return std::all_of(name.end() - k_suffix, name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; });
}

std::string random_suffix() {
  static constexpr char k_alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  thread_local std::mt19937_64 generator{std::random_device{}()};
  std::uniform_int_distribution<std::size_t> pick(0, sizeof k_alphabet - 2);
  std::string suffix(6, 'x');
  for (auto& c : suffix) c = k_alphabet[pick(generator)];
  return suffix;
}

/// Creates a new, empty temporary file beside `final_path` (O_EXCL, mode 0666
/// minus umask: unlike mkstemp's 0600, the committed file gets ordinary
/// permissions). Returns the descriptor and sets `temp_path`.
int create_temp(const fs::path& final_path, fs::path& temp_path) {
  std::string stem = final_path.filename().string();
  if (stem.size() > k_max_temp_stem) stem.resize(k_max_temp_stem);
  for (int attempt = 0; attempt < k_temp_attempts; ++attempt) {
    temp_path = final_path.parent_path() / ("." + stem + ".tmp-" + random_suffix());
    const int fd = ::open(temp_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) return fd;
    if (errno != EEXIST && errno != EINTR) throw_write_error(final_path, last_error());
  }
  throw_write_error(final_path, std::make_error_code(std::errc::file_exists));
}

/// Writes all of `piece` to `fd`. Returns the first error.
std::error_code write_all(int fd, std::span<const std::uint8_t> piece) {
  const std::uint8_t* next = piece.data();
  std::size_t left = piece.size();
  while (left > 0) {
    const std::size_t chunk = left < (std::size_t{1} << 30) ? left : (std::size_t{1} << 30);
    const ssize_t written = ::write(fd, next, chunk);
    if (written < 0) {
      if (errno == EINTR) continue;
      return last_error();
    }
    next += written;
    left -= static_cast<std::size_t>(written);
  }
  return {};
}

/// Flushes `fd` to disk and closes it. Returns the first error.
std::error_code flush_and_close(int fd) {
  std::error_code error;
  // EINVAL: the file system does not support fsync; the data is still written.
  if (::fsync(fd) != 0 && errno != EINVAL) error = last_error();
  // On Linux the descriptor is released even when close reports EINTR.
  if (::close(fd) != 0 && !error && errno != EINTR) error = last_error();
  return error;
}

}  // namespace

file_transaction::file_transaction(fs::path dir) : m_dir(std::move(dir).lexically_normal()) {}

file_transaction::~file_transaction() {
  discard_from(0);
}

void file_transaction::stage(const std::string& relative_name, const std::vector<std::uint8_t>& bytes) {
  staged_file file = open(relative_name);
  file.write(bytes);
  file.finish();
}

staged_file file_transaction::open(const std::string& relative_name) {
  std::string name;
  fs::path final_path, temp_path;
  const int fd = create_entry(relative_name, name, final_path, temp_path);
  return {*this, std::move(name), std::move(final_path), std::move(temp_path), fd};
}

int file_transaction::create_entry(const std::string& relative_name, std::string& name, fs::path& final_path,
                                   fs::path& temp_path) {
  const auto [reserved, inserted] = m_names.insert(normalise_name(relative_name));
  if (!inserted) throw std::invalid_argument("file_transaction: '" + *reserved + "' staged twice");
  try {
    final_path = m_dir / *reserved;
    const fs::path parent = final_path.parent_path();
    // Reserve first so that recording the entry rarely fails once the file exists.
    m_entries.reserve(m_entries.size() + 1);
    if (!parent.empty()) create_parent(parent);
    check_inside(final_path);
    name = *reserved;
    return create_temp(final_path, temp_path);
  } catch (...) {
    m_names.erase(reserved);
    throw;
  }
}

void file_transaction::check_inside(const fs::path& final_path) const {
  std::error_code error;
  const fs::path root = fs::weakly_canonical(m_dir.empty() ? fs::path(".") : m_dir, error);
  const fs::path parent = final_path.parent_path().empty() ? fs::path(".") : final_path.parent_path();
  const fs::path folder = error ? fs::path() : fs::weakly_canonical(parent, error);
  const fs::path inside = folder.lexically_relative(root);
  if (error || inside.empty() || *inside.begin() == "..") {
    throw io_error("cannot write " + quoted(final_path) + ": its folder leads outside the output folder " +
                   quoted(m_dir) + " (a symbolic link?)");
  }
}

std::size_t file_transaction::remove_stale_temporaries(const fs::path& dir) {
  std::size_t removed = 0;
  std::error_code error;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (!is_temp_name(name)) continue;
    std::error_code ignored;
    if (it->is_regular_file(ignored) && !it->is_symlink(ignored) && fs::remove(it->path(), ignored)) ++removed;
  }
  return removed;
}

void file_transaction::create_parent(const fs::path& parent) {
  // Remember which directories are new, so that a rollback can remove them.
  std::vector<fs::path> missing;
  std::error_code ignored;
  for (fs::path p = parent; !p.empty(); p = p.parent_path()) {
    if (fs::exists(fs::symlink_status(p, ignored))) break;
    missing.push_back(p);
    if (p == p.parent_path()) break;
  }
  m_created_dirs.reserve(m_created_dirs.size() + missing.size());
  std::error_code error;
  fs::create_directories(parent, error);
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    if (fs::is_directory(fs::symlink_status(*it, ignored))) m_created_dirs.push_back(*it);
  }
  if (!error) {
    std::error_code status_error;
    if (!fs::is_directory(parent, status_error)) {
      error = status_error ? status_error : std::make_error_code(std::errc::not_a_directory);
    }
  }
  if (error) throw io_error("cannot create directory " + quoted(parent) + ": " + error.message());
}

void file_transaction::commit() {
  // Catch the common failure before anything is replaced.
  for (auto& e : m_entries) {
    std::error_code ignored;
    if (fs::is_directory(fs::symlink_status(e.final_path, ignored))) {
      const fs::path failed = std::move(e.final_path);
      discard_from(0);
      throw_write_error(failed, std::make_error_code(std::errc::is_a_directory));
    }
  }

  // Keep every file about to be replaced under a backup name (a hard link, so
  // the final name never disappears), then rename the new files in. If any
  // rename fails, every replaced file gets its old contents back and every new
  // name is removed: the directory ends as it began.
  std::vector<fs::path> backups(m_entries.size());
  for (std::size_t i = 0; i < m_entries.size(); ++i) {
    std::error_code ignored;
    if (!fs::exists(fs::symlink_status(m_entries[i].final_path, ignored))) continue;
    fs::path backup = m_entries[i].temp_path;
    backup += ".old";
    std::error_code error;
    fs::create_hard_link(m_entries[i].final_path, backup, error);
    if (error) {
      const fs::path failed = m_entries[i].final_path;
      for (const auto& b : backups) {
        if (!b.empty()) fs::remove(b, ignored);
      }
      discard_from(0);
      throw_write_error(failed, error);
    }
    backups[i] = std::move(backup);
  }
  for (std::size_t i = 0; i < m_entries.size(); ++i) {
    std::error_code error;
    fs::rename(m_entries[i].temp_path, m_entries[i].final_path, error);
    if (!error) continue;
    const fs::path failed = m_entries[i].final_path;
    std::error_code ignored;
    for (std::size_t j = 0; j < i; ++j) {
      if (backups[j].empty()) {
        fs::remove(m_entries[j].final_path, ignored);
      } else {
        fs::rename(backups[j], m_entries[j].final_path, ignored);
      }
    }
    for (std::size_t j = i; j < m_entries.size(); ++j) {
      if (!backups[j].empty()) fs::remove(backups[j], ignored);
    }
    discard_from(i);
    throw_write_error(failed, error);
  }
  std::error_code ignored;
  for (const auto& b : backups) {
    if (!b.empty()) fs::remove(b, ignored);
  }
  m_entries.clear();
  m_names.clear();
  m_created_dirs.clear();
}

void file_transaction::discard_from(std::size_t first) noexcept {
  std::error_code ignored;
  for (std::size_t i = first; i < m_entries.size(); ++i) fs::remove(m_entries[i].temp_path, ignored);
  // Newest first, so children go before their parents; non-empty ones stay.
  for (auto it = m_created_dirs.rbegin(); it != m_created_dirs.rend(); ++it) fs::remove(*it, ignored);
  m_entries.clear();
  m_names.clear();
  m_created_dirs.clear();
}

staged_file::staged_file(file_transaction& owner, std::string name, fs::path final_path, fs::path temp_path,
                         int fd) noexcept
    : m_owner(&owner),
      m_name(std::move(name)),
      m_final_path(std::move(final_path)),
      m_temp_path(std::move(temp_path)),
      m_fd(fd) {}

staged_file::staged_file(staged_file&& other) noexcept
    : m_owner(std::exchange(other.m_owner, nullptr)),
      m_name(std::move(other.m_name)),
      m_final_path(std::move(other.m_final_path)),
      m_temp_path(std::move(other.m_temp_path)),
      m_fd(std::exchange(other.m_fd, -1)) {}

staged_file::~staged_file() {
  if (m_owner != nullptr) abandon();
}

void staged_file::write(std::span<const std::uint8_t> piece) {
  if (m_owner == nullptr) throw std::logic_error("staged_file: write after finish or failure");
  const std::error_code error = write_all(m_fd, piece);
  if (!error) return;
  abandon();
  throw_write_error(m_final_path, error);
}

void staged_file::finish() {
  if (m_owner == nullptr) throw std::logic_error("staged_file: finish after finish or failure");
  const std::error_code error = flush_and_close(std::exchange(m_fd, -1));
  if (error) {
    abandon();
    throw_write_error(m_final_path, error);
  }
  try {
    m_owner->m_entries.push_back({m_final_path, m_temp_path});
  } catch (...) {
    abandon();
    throw;
  }
  m_owner = nullptr;
}

void staged_file::abandon() noexcept {
  if (m_fd >= 0) ::close(m_fd);
  m_fd = -1;
  std::error_code ignored;
  fs::remove(m_temp_path, ignored);
  m_owner->m_names.erase(m_name);
  m_owner = nullptr;
}

}  // namespace landform
