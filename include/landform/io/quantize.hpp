#pragma once
/// @file
/// Conversion of normalised float samples to integer samples for output.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace landform {

/// 16-bit samples, and how many inputs were outside [0, 1] (or NaN).
struct quantized16 {
  std::vector<std::uint16_t> values;
  std::size_t clipped = 0;
};

/// 8-bit samples, and how many inputs were outside [0, 1] (or NaN).
struct quantized8 {
  std::vector<std::uint8_t> values;
  std::size_t clipped = 0;
};

/// Maps `count` samples from [0, 1] to 0..65535, rounding to nearest
/// (`trunc(v * 65535 + 0.5)` in double; 0.5 -> 32768). Values below 0 or above
/// 1 (including infinities) are clamped to 0 or 65535; NaN maps to 0. Each of
/// those counts once in `clipped`; -0.0 is not clipped. The output keeps the
/// input order. `values` may be null only when `count` is 0 (else
/// std::invalid_argument).
[[nodiscard]] quantized16 quantize16(const float* values, std::size_t count);

/// quantize16 into `out` (`count` samples the caller owns, e.g. a block of
/// rows); returns the number clipped.
std::size_t quantize16_into(const float* values, std::size_t count, std::uint16_t* out);

/// As quantize16, to 0..255 (`trunc(v * 255 + 0.5)`; 0.5 -> 128).
[[nodiscard]] quantized8 quantize8(const float* values, std::size_t count);

/// std::lround(x) for x >= 0 (halves round away from zero), without the
/// libm call: for x >= 0 truncation is floor, and x - floor(x) is exact in
/// double, so the result equals std::lround bit for bit (tested). For
/// x < 0, NaN or x >= 2^63 the result is unspecified.
[[nodiscard]] inline std::int64_t lround_nonnegative(double x) {
  const auto t = static_cast<std::int64_t>(x);
  return t + static_cast<std::int64_t>(x - static_cast<double>(t) >= 0.5);
}

}  // namespace landform
