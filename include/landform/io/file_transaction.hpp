#pragma once
/// @file
/// All-or-nothing writing of a set of output files.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <unordered_set>
#include <vector>

namespace landform {

class staged_file;

/// Writes a set of files so that a run that fails leaves no partial or new
/// file behind.
///
/// stage() writes each file's bytes to a hidden temporary file
/// (`.<name>.tmp-XXXXXX`) in the same directory as its final name, so the
/// final rename never crosses a file system; commit() renames all of them
/// onto their final names. Until commit() succeeds, destroying the transaction
/// removes every temporary file, and every directory the transaction created
/// that is still empty. Final files get mode 0666 minus the umask, like any
/// newly created file.
///
/// Names are relative to the directory given to the constructor and may name
/// subfolders (`tiles/x0_y0.png`, `/` as separator). They must not be empty,
/// absolute, end in a separator, or contain a `..` component: those throw
/// std::invalid_argument. `.` components are ignored, so `./a.png` and
/// `a.png` are the same name; staging a name twice in one transaction throws
/// std::invalid_argument.
///
/// Not thread-safe: one thread stages and commits.
class file_transaction {
 public:
  /// Removes the temporaries of this class's naming (`.<name>.tmp-XXXXXX`,
  /// regular files) directly in `dir`, left by a build that was killed
  /// (SIGKILL, power loss). Only safe while no other build writes into
  /// `dir` (hold its lock). Returns how many were removed; never throws.
  static std::size_t remove_stale_temporaries(const std::filesystem::path& dir);

  /// Remembers `dir`; nothing is created until the first stage().
  explicit file_transaction(std::filesystem::path dir);
  /// Removes the temporary files (and created, still empty directories) of an
  /// uncommitted transaction. Never throws.
  ~file_transaction();

  file_transaction(const file_transaction&) = delete;
  file_transaction& operator=(const file_transaction&) = delete;
  file_transaction(file_transaction&&) = delete;
  file_transaction& operator=(file_transaction&&) = delete;

  /// Writes `bytes` to a new temporary file beside `dir / relative_name`,
  /// creating `dir` and any subfolder first, and flushes it to disk (fsync).
  /// Throws io_error naming the directory if it cannot be created
  /// (`cannot create directory '<dir>': <reason>`), or naming the final file
  /// if the temporary cannot be written (`cannot write '<file>': <reason>`);
  /// nothing of that name is left behind. Throws std::invalid_argument for a
  /// bad or duplicate name.
  /// A name whose folder resolves (through symbolic links) outside `dir`
  /// throws io_error naming the file: no output leaves the output folder.
  void stage(const std::string& relative_name, const std::vector<std::uint8_t>& bytes);

  /// stage() for a file written piece by piece (an encoder's output as it is
  /// made, never held whole): creates the temporary file as stage() does
  /// (same names, folders, checks and errors) and returns it open. Its
  /// staged_file::finish() adds it to the transaction; dropped unfinished
  /// (an exception on the way), it is removed and its name is free again.
  /// The staged file must not outlive the transaction, and is left out of a
  /// commit() made before it is finished.
  [[nodiscard]] staged_file open(const std::string& relative_name);

  /// Renames every staged temporary onto its final name, replacing existing
  /// files. Before renaming anything it checks that no final name is an
  /// existing directory, and keeps each file about to be replaced under a
  /// hard-linked backup name. If a rename fails, every replaced file gets its
  /// old contents back, the names this commit created are removed, and it
  /// throws io_error naming the file (`cannot write '<file>': <reason>`): the
  /// directory ends as it began. Afterwards (success or failure) the
  /// transaction is empty and may stage again.
  void commit();

 private:
  friend class staged_file;

  struct entry {
    std::filesystem::path final_path;
    std::filesystem::path temp_path;
  };

  /// Creates `parent` and its missing ancestors, recording the new ones.
  void create_parent(const std::filesystem::path& parent);
  /// Throws io_error when `final_path`'s folder resolves outside m_dir.
  void check_inside(const std::filesystem::path& final_path) const;
  /// Removes the temporaries of entries [first, end) and the created
  /// directories that are empty, then forgets everything.
  void discard_from(std::size_t first) noexcept;
  /// Reserves a new name and creates its temporary file; returns the
  /// descriptor and sets the two paths. Throws as stage().
  int create_entry(const std::string& relative_name, std::string& name, std::filesystem::path& final_path,
                   std::filesystem::path& temp_path);

  std::filesystem::path m_dir;
  std::vector<entry> m_entries;
  std::unordered_set<std::string> m_names;            ///< normalised names of m_entries
  std::vector<std::filesystem::path> m_created_dirs;  ///< in creation order (parents first)
};

/// A temporary file of a file_transaction being written piece by piece
/// (file_transaction::open). Not thread-safe: one thread at a time writes.
class staged_file {
 public:
  staged_file(staged_file&& other) noexcept;
  staged_file& operator=(staged_file&&) = delete;
  staged_file(const staged_file&) = delete;
  staged_file& operator=(const staged_file&) = delete;
  /// Unfinished: closes and removes the temporary file and frees its name.
  /// Never throws.
  ~staged_file();

  /// Appends `piece` (any size, also empty) to the file. Throws io_error
  /// naming the final file (`cannot write '<file>': <reason>`); the file
  /// is then unusable and is removed when dropped.
  void write(std::span<const std::uint8_t> piece);
  /// Flushes the file to disk (fsync), closes it and adds it to the
  /// transaction, which renames it at commit(). Throws io_error as write()
  /// (the temporary is removed), std::logic_error when already finished.
  void finish();

 private:
  friend class file_transaction;
  staged_file(file_transaction& owner, std::string name, std::filesystem::path final_path,
              std::filesystem::path temp_path, int fd) noexcept;
  /// Closes and removes the temporary file and frees the name (not finished).
  void abandon() noexcept;

  file_transaction* m_owner;  ///< null once finished, failed or moved from
  std::string m_name;         ///< normalised, as the transaction reserved it
  std::filesystem::path m_final_path;
  std::filesystem::path m_temp_path;
  int m_fd;  ///< -1 once closed
};

}  // namespace landform
