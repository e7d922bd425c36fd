#pragma once
/// @file
/// Large working arrays backed by transparent huge pages where the system
/// offers them.

#include <cstddef>
#include <cstdint>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace landform::detail {

/// Reserves room for `n` elements in the empty vector `v` (nothing is
/// touched) and, on Linux, advises the kernel to back the reserved 2 MiB
/// blocks with transparent huge pages (madvise MADV_HUGEPAGE; a hint, without
/// effect where THP is off or unsupported). A map-sized array then costs one
/// page fault per 2 MiB instead of one per 4 KiB: at 4096^2 on a virtual
/// machine with slow faults, fresh buffers for D8 flow accumulation took
/// about as long as the routing itself. Values and results are unchanged.
/// Later resize()/assign() within `n` keep the buffer.
template <class T>
void reserve_huge_pages(std::vector<T>& v, std::size_t n) {
  v.reserve(n);
#if defined(__linux__)
  constexpr std::uintptr_t k_huge = std::uintptr_t{2} << 20;
  const auto begin = reinterpret_cast<std::uintptr_t>(v.data());  // NOLINT(*-reinterpret-cast): an address for madvise
  const std::uintptr_t first = (begin + k_huge - 1) & ~(k_huge - 1);
  const std::uintptr_t last = (begin + n * sizeof(T)) & ~(k_huge - 1);
  if (last > first) {
    // NOLINTNEXTLINE(*-reinterpret-cast,performance-no-int-to-ptr): the aligned block of the vector's own storage
    madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
  }
#endif
}

}  // namespace landform::detail
