#include "landform/io/sha256.hpp"

#include <openssl/evp.h>

#include <memory>
#include <stdexcept>

namespace landform {

std::string sha256_hex(const std::uint8_t* data, std::size_t size) {
  if (size > 0 && data == nullptr) throw std::invalid_argument("sha256_hex: null data");

  const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int digest_size = 0;
  if (!context || EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr) != 1 ||
      EVP_DigestUpdate(context.get(), data, size) != 1 ||
      EVP_DigestFinal_ex(context.get(), digest, &digest_size) != 1 || digest_size != 32) {
    throw std::runtime_error("sha256_hex: OpenSSL SHA-256 failed");
  }

  constexpr char k_hex[] = "0123456789abcdef";
  std::string hex(2 * digest_size, '0');
  for (std::size_t i = 0; i < digest_size; ++i) {
    hex[2 * i] = k_hex[digest[i] >> 4];
    hex[2 * i + 1] = k_hex[digest[i] & 0x0F];
  }
  return hex;
}

}  // namespace landform
