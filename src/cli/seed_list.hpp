#pragma once
// `landform build --seeds`: the list of seeds to build variants for.

#include <cstdint>
#include <string>
#include <vector>

namespace landform::cli {

/// Most variants one --seeds may ask for (each is a full build, and the
/// contact sheet grows with their number).
inline constexpr std::size_t k_max_seed_variants = 256;

/// Parses "A..B" (every seed from A to B, A <= B) or "A,B,C" (those seeds, in
/// that order, no repeats); seeds are signed 64-bit integers. Throws
/// preset_error with path --seeds for bad syntax, an empty or reversed range,
/// a repeated seed, or more than k_max_seed_variants seeds.
std::vector<std::int64_t> parse_seed_list(const std::string& text);

}  // namespace landform::cli
