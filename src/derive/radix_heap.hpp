#pragma once
// Internal: the monotone priority queue shared by the Priority-Flood
// implementations (derive/flow.cpp on float heights, derive/flow_routing.cpp
// on double heights).

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace landform::detail {

/// A monotone priority queue (radix heap, Ahuja, Mehlhorn, Orlin and Tarjan
/// 1990) over items with a 64-bit key `key_of(item)`: pop() returns an item
/// with the smallest key, and every key pushed must be >= the last one popped.
/// Priority-Flood satisfies this (cells enter the queue only above the cell
/// being processed) and gets sequential memory access. Items with equal keys
/// pop last-in first-out, so the sequence depends only on the pushes.
template <class Item, class KeyOf>
class radix_heap {
 public:
  [[nodiscard]] bool empty() const { return m_size == 0; }
  void push(const Item& item) {
    m_buckets[bucket_of(KeyOf{}(item))].push_back(item);
    ++m_size;
  }
  Item pop() {
    if (m_buckets[0].empty()) {
      std::size_t i = 1;
      while (m_buckets[i].empty()) ++i;
      std::vector<Item>& from = m_buckets[i];
      m_last = KeyOf{}(*std::min_element(from.begin(), from.end(),
                                         [](const Item& a, const Item& b) { return KeyOf{}(a) < KeyOf{}(b); }));
      for (const Item& item : from) m_buckets[bucket_of(KeyOf{}(item))].push_back(item);
      from.clear();
    }
    const Item item = m_buckets[0].back();
    m_buckets[0].pop_back();
    --m_size;
    return item;
  }
  /// The item pop() returns next when that needs no redistribution, else
  /// null: lets a caller prefetch what it will touch for it.
  [[nodiscard]] const Item* next_without_redistribution() const {
    return m_buckets[0].empty() ? nullptr : &m_buckets[0].back();
  }

 private:
  [[nodiscard]] std::size_t bucket_of(std::uint64_t key) const {
    return key == m_last ? 0 : static_cast<std::size_t>(64 - std::countl_zero(key ^ m_last));
  }
  std::array<std::vector<Item>, 65> m_buckets;
  std::uint64_t m_last = 0;
  std::size_t m_size = 0;
};

/// The identity key, for queues of bare 64-bit keys.
struct key_is_value {
  std::uint64_t operator()(std::uint64_t v) const { return v; }
};

}  // namespace landform::detail
