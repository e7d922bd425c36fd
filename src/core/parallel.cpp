#include "landform/core/parallel.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>

#include "landform/core/error.hpp"

namespace landform {

namespace {
std::atomic<int> g_default_threads{0};
}  // namespace

void set_default_threads(int nthreads) {
  g_default_threads.store(std::max(0, nthreads), std::memory_order_relaxed);
}

int resolve_threads(int nthreads) {
  if (nthreads > 0) return std::min(nthreads, k_max_threads);
  const int fixed = g_default_threads.load(std::memory_order_relaxed);
  if (fixed > 0) return std::min(fixed, k_max_threads);
  return std::clamp(omp_get_max_threads(), 1, k_max_threads);
}

void parallel_rows(int rows, int nthreads, const std::function<void(int, int)>& fn) {
  parallel_rows(rows, nthreads, fn, {});
}

void parallel_rows(int rows, int nthreads, const std::function<void(int, int)>& fn, const std::function<bool()>& stop) {
  if (rows <= 0) return;
  // Small fixed blocks: enough of them for load balance, few enough that the
  // std::function call is negligible next to a row of work.
  constexpr int k_block = 8;
  const int blocks = (rows + k_block - 1) / k_block;
  const int threads = std::min(resolve_threads(nthreads), blocks);
  // The serial path keeps one call when nothing can stop it (the reference path).
  if (threads <= 1 && !stop) {
    fn(0, rows);
    return;
  }
  std::atomic<bool> stopped = false;
  auto block = [&](int b) {
    if (stopped.load(std::memory_order_relaxed) || (stop && stop())) {
      stopped = true;
      return;
    }
    fn(b * k_block, std::min(rows, (b + 1) * k_block));
  };
  if (threads <= 1) {
    for (int b = 0; b < blocks && !stopped; ++b) block(b);
    if (stopped) throw cancelled_error();
    return;
  }
  parallel_tasks(blocks, threads, block);
  if (stopped) throw cancelled_error();
}

void parallel_tasks(int count, int nthreads, const std::function<void(int)>& fn) {
  if (count <= 0) return;
  const int threads = std::min(resolve_threads(nthreads), count);
  if (threads <= 1) {
    for (int item = 0; item < count; ++item) fn(item);
    return;
  }
  std::exception_ptr failure;
  std::mutex failure_mutex;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (int item = 0; item < count; ++item) {
    try {
      fn(item);
    } catch (...) {
      std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace landform
