#pragma once
// Serialises builds into one output folder: an advisory flock(2) on the
// folder itself (no lock file to clutter the folder or outlive a crash; the
// kernel releases it when the process ends, however it ends).

#include <filesystem>

namespace landform::cli {

/// Holds the exclusive lock of an output folder for its lifetime. A second
/// build waits, saying so on stderr once, and can still be interrupted
/// (cancelled_error). The folder is created for the lock if missing and
/// removed again on release if it is still empty and was created here, with
/// the parents created for it (-o new/deep leaves no empty new/ behind).
class folder_lock {
 public:
  /// Throws io_error when the folder cannot be created or opened.
  explicit folder_lock(const std::filesystem::path& dir);
  ~folder_lock();
  folder_lock(const folder_lock&) = delete;
  folder_lock& operator=(const folder_lock&) = delete;

 private:
  void release();

  std::filesystem::path m_dir;
  std::filesystem::path m_first_created;  ///< the outermost folder created here, or empty
  bool m_created = false;
  int m_fd = -1;
};

}  // namespace landform::cli
