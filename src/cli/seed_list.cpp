#include "seed_list.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>

#include "landform/core/error.hpp"

namespace landform::cli {

namespace {

[[noreturn]] void bad_seeds(const std::string& text, const std::string& why) {
  throw preset_error("--seeds", "\"" + text + "\" " + why);
}

std::int64_t seed_number(const std::string& text, const std::string& part) {
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
  if (ec == std::errc::result_out_of_range) bad_seeds(text, ": " + part + " is outside the signed 64-bit range");
  if (ec != std::errc() || end != part.data() + part.size() || part.empty()) {
    bad_seeds(text, "must be FIRST..LAST or a list SEED,SEED,... of integers");
  }
  return value;
}

std::string too_many(const std::string& count) {
  return "asks for " + count + " variants; at most " + std::to_string(k_max_seed_variants);
}

}  // namespace

std::vector<std::int64_t> parse_seed_list(const std::string& text) {
  std::vector<std::int64_t> seeds;
  if (const auto dots = text.find(".."); dots != std::string::npos) {
    const std::int64_t first = seed_number(text, text.substr(0, dots));
    const std::int64_t last = seed_number(text, text.substr(dots + 2));
    if (last < first) bad_seeds(text, "is an empty range (FIRST..LAST needs FIRST <= LAST)");
    // last - first may overflow int64; compare in unsigned.
    const std::uint64_t span = static_cast<std::uint64_t>(last) - static_cast<std::uint64_t>(first);
    if (span >= k_max_seed_variants) {
      bad_seeds(text, too_many(span == UINT64_MAX ? std::string("2^64") : std::to_string(span + 1)));
    }
    for (std::int64_t s = first;; ++s) {
      seeds.push_back(s);
      if (s == last) break;
    }
    return seeds;
  }
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    seeds.push_back(seed_number(text, text.substr(start, comma == std::string::npos ? comma : comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (seeds.size() > k_max_seed_variants) bad_seeds(text, too_many(std::to_string(seeds.size())));
  std::vector<std::int64_t> sorted = seeds;
  std::sort(sorted.begin(), sorted.end());
  if (const auto twice = std::adjacent_find(sorted.begin(), sorted.end()); twice != sorted.end()) {
    bad_seeds(text, "lists the seed " + std::to_string(*twice) + " twice");
  }
  return seeds;
}

}  // namespace landform::cli
