#include "interrupt.hpp"

#include <pthread.h>

namespace landform::cli {

namespace {

volatile std::sig_atomic_t g_signal = 0;
int g_guards = 0;  // interrupt_guard objects alive (main thread only)

extern "C" void on_signal(int number) {
  g_signal = number;
}

struct sigaction g_previous_int {
}, g_previous_term{}, g_previous_hup{};

sigset_t interrupt_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  return set;
}

}  // namespace

interrupt_guard::interrupt_guard() {
  if (g_guards++ > 0) return;
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // writes in progress complete; the flag is polled after
  sigaction(SIGINT, &action, &g_previous_int);
  sigaction(SIGTERM, &action, &g_previous_term);
  sigaction(SIGHUP, &action, &g_previous_hup);  // a closed terminal: unwind too, leaving no temporaries
}

interrupt_guard::~interrupt_guard() {
  if (--g_guards > 0) return;
  sigaction(SIGINT, &g_previous_int, nullptr);
  sigaction(SIGTERM, &g_previous_term, nullptr);
  sigaction(SIGHUP, &g_previous_hup, nullptr);
}

bool interrupt_guard::requested() {
  return g_signal != 0;
}

int interrupt_guard::signal_number() {
  return g_signal;
}

signal_block::signal_block() {
  const sigset_t set = interrupt_signals();
  pthread_sigmask(SIG_BLOCK, &set, &m_previous);
}

signal_block::~signal_block() {
  pthread_sigmask(SIG_SETMASK, &m_previous, nullptr);
}

}  // namespace landform::cli
