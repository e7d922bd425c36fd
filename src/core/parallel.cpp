#include "landform/core/parallel.hpp"

#include <omp.h>

#include <algorithm>
#include <exception>
#include <mutex>

namespace landform {

int resolve_threads(int nthreads) {
  if (nthreads > 0) return nthreads;
  return std::max(1, omp_get_max_threads());
}

void parallel_rows(int rows, int nthreads, const std::function<void(int, int)>& fn) {
  if (rows <= 0) return;
  // Small fixed blocks: enough of them for load balance, few enough that the
  // std::function call is negligible next to a row of work.
  constexpr int k_block = 8;
  const int blocks = (rows + k_block - 1) / k_block;
  const int threads = std::min(resolve_threads(nthreads), blocks);
  if (threads <= 1) {
    fn(0, rows);
    return;
  }
  std::exception_ptr failure;
  std::mutex failure_mutex;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (int b = 0; b < blocks; ++b) {
    try {
      fn(b * k_block, std::min(rows, (b + 1) * k_block));
    } catch (...) {
      std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace landform
