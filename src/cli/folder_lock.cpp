#include "folder_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <iostream>
#include <system_error>
#include <thread>

#include "interrupt.hpp"
#include "landform/core/error.hpp"

namespace landform::cli {

namespace {

// The outermost of `dir` and its parents that does not exist yet (what
// create_directories will create), or an empty path when `dir` exists.
std::filesystem::path first_missing(const std::filesystem::path& dir) {
  std::filesystem::path p = dir.lexically_normal();
  if (!p.has_filename()) p = p.parent_path();  // "a/b/" -> "a/b"
  std::filesystem::path missing;
  std::error_code ec;
  while (!p.empty() && p.has_filename() && !std::filesystem::exists(std::filesystem::symlink_status(p, ec))) {
    missing = p;
    p = p.parent_path();
  }
  return missing;
}

}  // namespace

folder_lock::folder_lock(const std::filesystem::path& dir) : m_dir(dir.empty() ? std::filesystem::path(".") : dir) {
  std::error_code error;
  const std::filesystem::path missing = first_missing(m_dir);
  m_created = std::filesystem::create_directories(m_dir, error);
  if (error) {
    // A symbolic link to nowhere reads "File exists", and a file in the way
    // "Not a directory": say what is there.
    std::error_code ec;
    const bool dangling = std::filesystem::is_symlink(m_dir, ec) && !std::filesystem::exists(m_dir, ec);
    const bool file = !dangling && std::filesystem::exists(m_dir, ec) && !std::filesystem::is_directory(m_dir, ec);
    throw io_error("cannot create directory '" + m_dir.string() + "': " +
                   (dangling ? std::string("a symbolic link to a missing folder is in the way")
                    : file   ? std::string("a file of that name is in the way")
                             : error.message()));
  }
  if (m_created) m_first_created = missing;
  m_fd = ::open(m_dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (m_fd < 0) {
    const std::string reason = std::strerror(errno);
    if (m_created) std::filesystem::remove(m_dir, error);
    throw io_error("cannot open the output folder '" + m_dir.string() + "': " + reason);
  }
  // Polled rather than blocking, so that Ctrl-C still ends a waiting build
  // (SA_RESTART would resume a blocking flock after the signal).
  bool said = false;
  while (::flock(m_fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) break;  // no locking on this file system: go on unlocked
    if (!said) {
      std::cerr << "landform: waiting for another build into " << m_dir.string() << " to finish\n";
      said = true;
    }
    if (interrupt_guard::requested()) {
      release();
      throw cancelled_error();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

folder_lock::~folder_lock() {
  release();
}

void folder_lock::release() {
  if (m_fd >= 0) ::close(m_fd);  // releases the lock
  m_fd = -1;
  std::error_code ignored;
  if (m_created && !m_first_created.empty()) {
    // Innermost first, each only while empty, up to the first one created here.
    std::filesystem::path p = m_dir.lexically_normal();
    if (!p.has_filename()) p = p.parent_path();
    while (std::filesystem::is_empty(p, ignored) && std::filesystem::remove(p, ignored) && p != m_first_created) {
      p = p.parent_path();
    }
  }
  m_created = false;
}

}  // namespace landform::cli
