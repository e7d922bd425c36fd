// Uses the installed library through its public headers: builds and runs a
// small pipeline on two threads (OpenMP), encodes it as a 16-bit PNG (libpng,
// stb) and hashes it (OpenSSL), so every private dependency must link.
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "landform/io/encode.hpp"
#include "landform/io/quantize.hpp"
#include "landform/io/sha256.hpp"
#include "landform/pipeline/default_preset.hpp"
#include "landform/pipeline/pipeline.hpp"
#include "landform/version.hpp"

int main() {
  const auto preset = nlohmann::json::parse(R"({
    "landform": 1, "size": 32, "seed": 7,
    "stages": [{"type": "opensimplex", "feature_size": 16}, {"type": "normalize", "mode": "min_max"}],
    "outputs": [{"map": "height", "format": "png16", "file": "height.png"}]
  })");
  landform::run_options options;
  options.nthreads = 2;
  const landform::heightfield field = landform::pipeline::build(preset).run(options);
  const landform::quantized16 q = landform::quantize16(field.data(), field.size());
  const auto png = landform::encode_png_gray16(field.width(), field.height(), q.values.data());
  const std::string hash = landform::sha256_hex(png.data(), png.size());
  if (field.width() != 32 || png.size() < 8 || hash.size() != 64 || landform::default_preset_text().empty()) {
    std::fprintf(stderr, "consumer: unexpected result\n");
    return 1;
  }
  std::printf("landform %s: 32x32, png16 %zu bytes, sha256 %s\n", landform::k_version, png.size(), hash.c_str());
  return 0;
}
