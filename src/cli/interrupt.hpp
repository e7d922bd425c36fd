#pragma once
// Ctrl-C, SIGTERM and SIGHUP during a build: the handler only sets a flag; the build
// polls it (progress callback, between staged files) and unwinds, so the
// file transaction removes its temporaries. While files are renamed into
// place the signals are held back, so a build is either wholly written or
// not at all.

#include <csignal>

namespace landform::cli {

/// Installs the SIGINT/SIGTERM/SIGHUP handlers for the lifetime of the object.
/// Guards nest (`watch` holds one around the builds that hold their own): only
/// the outermost installs the handlers and restores the previous ones.
class interrupt_guard {
 public:
  interrupt_guard();
  ~interrupt_guard();
  interrupt_guard(const interrupt_guard&) = delete;
  interrupt_guard& operator=(const interrupt_guard&) = delete;

  /// True once a signal arrived.
  [[nodiscard]] static bool requested();
  /// The signal that arrived (for the exit status 128 + n), or 0.
  [[nodiscard]] static int signal_number();
};

/// Holds SIGINT, SIGTERM and SIGHUP back for its lifetime (delivered afterwards).
class signal_block {
 public:
  signal_block();
  ~signal_block();
  signal_block(const signal_block&) = delete;
  signal_block& operator=(const signal_block&) = delete;

  /// The mask before the block: for ppoll(2), which waits with the signals
  /// let through and so cannot miss one that arrives just before it waits.
  [[nodiscard]] const sigset_t& previous() const { return m_previous; }

 private:
  sigset_t m_previous{};
};

}  // namespace landform::cli
