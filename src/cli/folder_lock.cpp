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

folder_lock::folder_lock(const std::filesystem::path& dir) : m_dir(dir.empty() ? std::filesystem::path(".") : dir) {
  std::error_code error;
  m_created = std::filesystem::create_directories(m_dir, error);
  if (error) {
    // A symbolic link to nowhere reads "File exists": say what is there.
    std::error_code ec;
    const bool dangling = std::filesystem::is_symlink(m_dir, ec) && !std::filesystem::exists(m_dir, ec);
    throw io_error("cannot create directory '" + m_dir.string() + "': " +
                   (dangling ? std::string("a symbolic link to a missing folder is in the way") : error.message()));
  }
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
  if (m_created && std::filesystem::is_empty(m_dir, ignored)) std::filesystem::remove(m_dir, ignored);
  m_created = false;
}

}  // namespace landform::cli
