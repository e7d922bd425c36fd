#include "landform/io/quantize.hpp"

#include <stdexcept>
#include <string>

namespace landform {
namespace {

// The body is written as selects and a compare with no early exits. (GCC 12
// still emits a scalar loop: it folds the clamped arms to constants and will
// not if-convert the remaining double -> integer conversion under the default
// -ftrapping-math. The branches are almost always predicted, and this is
// noise next to PNG compression.)
template <typename T, int k_max>
std::size_t quantize_into(const float* values, std::size_t count, T* out) {
  std::size_t clipped = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const double v = values[i];
    double c = v > 0.0 ? v : 0.0;  // NaN fails the compare -> 0
    c = c < 1.0 ? c : 1.0;
    clipped += static_cast<std::size_t>(c != v);  // true for NaN; false for -0.0
    out[i] = static_cast<T>(c * static_cast<double>(k_max) + 0.5);
  }
  return clipped;
}

void check_args(const float* values, std::size_t count, const char* what) {
  if (count > 0 && values == nullptr) throw std::invalid_argument(std::string(what) + ": null values");
}

}  // namespace

quantized16 quantize16(const float* values, std::size_t count) {
  check_args(values, count, "quantize16");
  quantized16 result;
  result.values.resize(count);
  result.clipped = quantize_into<std::uint16_t, 65535>(values, count, result.values.data());
  return result;
}

std::size_t quantize16_into(const float* values, std::size_t count, std::uint16_t* out) {
  check_args(values, count, "quantize16_into");
  if (count > 0 && out == nullptr) throw std::invalid_argument("quantize16_into: null output");
  return quantize_into<std::uint16_t, 65535>(values, count, out);
}

quantized8 quantize8(const float* values, std::size_t count) {
  check_args(values, count, "quantize8");
  quantized8 result;
  result.values.resize(count);
  result.clipped = quantize_into<std::uint8_t, 255>(values, count, result.values.data());
  return result;
}

}  // namespace landform
