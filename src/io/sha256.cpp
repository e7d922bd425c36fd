#include "landform/io/sha256.hpp"

#include <openssl/evp.h>

#include <stdexcept>

namespace landform {

// OpenSSL's digest context, owned; null once the digest is taken.
struct sha256_stream::context {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> md{EVP_MD_CTX_new(), &EVP_MD_CTX_free};
};

namespace {

[[noreturn]] void throw_openssl_failure() {
  throw std::runtime_error("sha256: OpenSSL SHA-256 failed");
}

std::string to_hex(const unsigned char* digest, std::size_t size) {
  constexpr char k_hex[] = "0123456789abcdef";
  std::string hex(2 * size, '0');
  for (std::size_t i = 0; i < size; ++i) {
    hex[2 * i] = k_hex[digest[i] >> 4];
    hex[2 * i + 1] = k_hex[digest[i] & 0x0F];
  }
  return hex;
}

}  // namespace

sha256_stream::sha256_stream() : m_context(std::make_unique<context>()) {
  if (!m_context->md || EVP_DigestInit_ex(m_context->md.get(), EVP_sha256(), nullptr) != 1) throw_openssl_failure();
}

sha256_stream::~sha256_stream() = default;
sha256_stream::sha256_stream(sha256_stream&&) noexcept = default;
sha256_stream& sha256_stream::operator=(sha256_stream&&) noexcept = default;

void sha256_stream::update(std::span<const std::uint8_t> piece) {
  if (!m_context || !m_context->md) throw std::logic_error("sha256_stream: update after hex");
  if (EVP_DigestUpdate(m_context->md.get(), piece.data(), piece.size()) != 1) throw_openssl_failure();
}

std::string sha256_stream::hex() {
  if (!m_context || !m_context->md) throw std::logic_error("sha256_stream: hex taken twice");
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int digest_size = 0;
  const bool ok = EVP_DigestFinal_ex(m_context->md.get(), digest, &digest_size) == 1 && digest_size == 32;
  m_context->md.reset();
  if (!ok) throw_openssl_failure();
  return to_hex(digest, digest_size);
}

std::string sha256_hex(const std::uint8_t* data, std::size_t size) {
  if (size > 0 && data == nullptr) throw std::invalid_argument("sha256_hex: null data");
  sha256_stream s;
  s.update({data, size});
  return s.hex();
}

}  // namespace landform
