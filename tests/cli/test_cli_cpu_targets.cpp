// The same preset gives the same bytes on an older CPU: the CLI runs natively
// and under QEMU's user-mode emulation of a CPU without AVX or AVX-512
// (`-cpu Nehalem`: SSE4.2, the oldest level ISA-L's igzip writes the same
// deflate bytes on), and every output file must match. Runtime dispatch then
// picks other kernels everywhere: Highway's SSE4 target for the noise, the
// four-lane droplet kernel, igzip's SSE code for the `fast` PNGs.
//
// Why not `-cpu Haswell` (AVX2) too: QEMU 7.2's AVX2 emulation computes the
// legacy opensimplex kernel's gathers wrongly (its own eval_row test fails
// under it, and passes when the AVX2 target is forced on real hardware, as
// test_open_simplex_legacy_row does on every CPU the suite runs on).

#include <catch2/catch.hpp>
#include <string>

#include "cli_harness.hpp"

namespace fs = std::filesystem;
using namespace landform_test;

namespace {

// Every stage with a SIMD kernel, and PNGs of both deflate libraries.
const char* const k_preset = R"({
  "landform": 1, "size": 256, "seed": 11, "cell_size": 10.0, "height_scale": 600.0,
  "stages": [
    {"type": "opensimplex", "octaves": 5, "feature_size": 1200},
    {"type": "opensimplex2", "octaves": 4, "feature_size": 900, "blend": "add", "amplitude": 0.3},
    {"type": "value_noise", "octaves": 3, "feature_size": 400, "blend": "add", "amplitude": 0.1},
    {"type": "perlin", "octaves": 3, "feature_size": 300, "blend": "add", "amplitude": 0.1},
    {"type": "perturb", "magnitude": 4},
    {"type": "normalize", "mode": "min_max"},
    {"type": "hydraulic_erosion", "droplet_count": 8000},
    {"type": "thermal_erosion", "iterations": 4}
  ],
  "outputs": [
    {"map": "height", "format": "r32", "file": "height.r32"},
    {"map": "height", "format": "png16", "compression": "fast", "file": "height.png"},
    {"map": "normal", "format": "rgb8", "compression": "fast", "file": "normal.png"},
    {"map": "preview", "format": "rgb8", "file": "preview.png"}
  ]
})";

}  // namespace

TEST_CASE("cli: the same bytes on an emulated SSE4.2 CPU as on this one", "[cli][simd]") {
#if !defined(__x86_64__)
  WARN("not an x86-64 host: the emulated-CPU comparison is for x86-64");
  return;
#elif defined(__SANITIZE_ADDRESS__)
  WARN("sanitizer build: ASan's shadow memory does not run under QEMU user mode; the Release suite runs this test");
  return;
#else
  // qemu-user is a test dependency (scripts/install-deps.sh --tests).
  REQUIRE(have("qemu-x86_64"));
  const temp_dir dir;
  const fs::path preset = dir.write("world.json", k_preset);
  const fs::path native = dir / "native", emulated = dir / "nehalem";
  REQUIRE(run_cli({"build", preset.string(), "-o", native.string(), "--quiet"}).exit_code == 0);
  const std::string command = "qemu-x86_64 -cpu Nehalem " + quoted(LANDFORM_CLI_PATH) + " build " + quoted(preset) +
                              " -o " + quoted(emulated) + " --quiet 2> " + quoted(dir / "qemu.log");
  INFO(command);
  REQUIRE(shell(command) == 0);
  for (const char* file : {"height.r32", "height.png", "normal.png", "preview.png"}) {
    INFO(file);
    const auto bytes = read_bytes(native / file);
    CHECK(bytes.size() > 1000);
    CHECK(read_bytes(emulated / file) == bytes);
  }
#endif
}
