#pragma once
/// @file
/// SHA-256 digests, for output manifests and provenance.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace landform {

/// SHA-256 of `size` bytes at `data`, as 64 lowercase hex digits.
/// `data` may be null only when `size` is 0 (else std::invalid_argument).
/// Throws std::runtime_error if OpenSSL fails. Thread-safe.
[[nodiscard]] std::string sha256_hex(const std::uint8_t* data, std::size_t size);

/// SHA-256 of bytes given piece by piece (a file hashed while it is
/// written): update() with each piece in order, then hex() gives the same
/// 64 lowercase hex digits as sha256_hex of all the pieces joined.
/// Throws std::runtime_error if OpenSSL fails, std::logic_error for update()
/// or hex() after hex(). One object per thread.
class sha256_stream {
 public:
  sha256_stream();
  ~sha256_stream();
  sha256_stream(sha256_stream&&) noexcept;
  sha256_stream& operator=(sha256_stream&&) noexcept;
  sha256_stream(const sha256_stream&) = delete;
  sha256_stream& operator=(const sha256_stream&) = delete;

  /// Adds the bytes of `piece` (any size, also empty).
  void update(std::span<const std::uint8_t> piece);
  /// The digest of everything added; the object is spent afterwards.
  [[nodiscard]] std::string hex();

 private:
  struct context;
  std::unique_ptr<context> m_context;
};

}  // namespace landform
