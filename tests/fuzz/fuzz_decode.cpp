// libFuzzer target: the heightmap decoders (PNG through stb_image, raw16,
// r32). The first byte picks the encoding, the next two the raw width; the
// rest is the file. A heightmap_decode_error is the expected answer.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "landform/io/decode.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  using landform::heightmap_encoding;
  const heightmap_encoding encodings[] = {heightmap_encoding::png, heightmap_encoding::raw16, heightmap_encoding::r32};
  landform::heightmap_request request;
  request.encoding = encodings[data[0] % 3];
  request.raw_width = data[1] | ((data[2] & 0x7f) << 8);
  const std::vector<std::uint8_t> bytes(data + 3, data + size);
  try {
    const landform::heightmap_samples samples = landform::decode_heightmap(bytes, request, "fuzz");
    if (samples.values.size() != static_cast<std::size_t>(samples.width) * static_cast<std::size_t>(samples.height))
      __builtin_trap();  // the decoder's own contract
  } catch (const landform::heightmap_decode_error&) {
  }
  return 0;
}
