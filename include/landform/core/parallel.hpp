#pragma once
/// @file
/// The one threading entry point of the library.

#include <functional>

namespace landform {

/// Most threads the library starts: more only cost memory (OpenMP crashes
/// near 100,000), and results do not depend on the count.
inline constexpr int k_max_threads = 256;

/// Number of threads `parallel_rows` uses for a request of `nthreads`
/// (0 = the default: all available cores unless set_default_threads capped
/// it; 1 = serial), at most k_max_threads.
int resolve_threads(int nthreads);

/// What a request of 0 threads means from now on, process-wide: `nthreads`
/// > 0 uses that many (the CLI's --threads, so code that asks for "all
/// cores", such as the PNG encoder, stays within a job's CPU allotment);
/// 0 restores all available cores. Results never depend on it.
void set_default_threads(int nthreads);

/// Calls `fn(row_begin, row_end)` on disjoint row blocks covering [0, rows).
///
/// The partition into blocks varies with the thread count (serial runs get one
/// block), so `fn` must compute each row independently of how rows are
/// grouped; every stage here does, which is why results are bit-identical for
/// every `nthreads`.
/// `nthreads` = 0 uses all cores; 1 runs serially on the calling thread, which
/// is the reference path. Exceptions thrown by `fn` are rethrown here.
void parallel_rows(int rows, int nthreads, const std::function<void(int, int)>& fn);

/// parallel_rows that polls `stop` (thread-safe) before each block: once it
/// returns true no further block starts and cancelled_error is thrown after
/// the running blocks end. A block is 8 rows, so a stage whose row costs less
/// than ~10 ms stops within ~100 ms.
void parallel_rows(int rows, int nthreads, const std::function<void(int, int)>& fn, const std::function<bool()>& stop);

/// Calls `fn(item)` once for every item in [0, count), handing items to up to
/// `nthreads` threads one at a time (0 = all cores, 1 = serially on the
/// calling thread, in order). For few, costly, independent items (a PNG's
/// deflate chunks): `fn` must not depend on which thread runs which item, so
/// results are the same for every `nthreads`. The first exception thrown by
/// `fn` is rethrown here once the running items end.
void parallel_tasks(int count, int nthreads, const std::function<void(int)>& fn);

}  // namespace landform
