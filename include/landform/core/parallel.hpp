#pragma once
/// @file
/// The one threading entry point of the library.

#include <functional>

namespace landform {

/// Number of threads `parallel_rows` uses for a request of `nthreads`
/// (0 = all available cores, 1 = serial).
int resolve_threads(int nthreads);

/// Calls `fn(row_begin, row_end)` on disjoint row blocks covering [0, rows).
///
/// The partition into blocks varies with the thread count (serial runs get one
/// block), so `fn` must compute each row independently of how rows are
/// grouped; every stage here does, which is why results are bit-identical for
/// every `nthreads`.
/// `nthreads` = 0 uses all cores; 1 runs serially on the calling thread, which
/// is the reference path. Exceptions thrown by `fn` are rethrown here.
void parallel_rows(int rows, int nthreads, const std::function<void(int, int)>& fn);

}  // namespace landform
