#pragma once
/// @file
/// SHA-256 digests, for output manifests and provenance.

#include <cstddef>
#include <cstdint>
#include <string>

namespace landform {

/// SHA-256 of `size` bytes at `data`, as 64 lowercase hex digits.
/// `data` may be null only when `size` is 0 (else std::invalid_argument).
/// Throws std::runtime_error if OpenSSL fails. Thread-safe.
[[nodiscard]] std::string sha256_hex(const std::uint8_t* data, std::size_t size);

}  // namespace landform
