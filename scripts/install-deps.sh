#!/usr/bin/env bash
# Installs landform's build dependencies from Debian packages. Idempotent:
# packages already present are skipped, and apt-get runs only when something
# is missing. Needs root (or sudo) on Debian 12 or newer.
#
#   scripts/install-deps.sh            what the library and the CLI need
#   scripts/install-deps.sh --tests    + the test suite and benchmarks
#   scripts/install-deps.sh --checks   + clang-format, clang-tidy and clang (.ci/run)
# (options combine).
set -euo pipefail

packages=(
  build-essential cmake pkg-config git
  ninja-build  # builds the library's and the CLI's batches side by side
  libcli11-dev nlohmann-json3-dev libstb-dev zlib1g-dev libssl-dev
  libopenexr-dev libtiff-dev  # exr, exr16, tiff32 and tiff16 outputs
  libhwy-dev  # Highway: SIMD with runtime dispatch (noise kernels)
  libisal-dev  # ISA-L's igzip: the `fast` PNG compression
)
test_packages=(
  catch2 libbenchmark-dev
  libpng-dev  # the tests decode the PNGs with libpng, independently of the encoder
  gdal-bin  # tests compare slope and aspect with gdaldem; gdalinfo opens the tile mosaic (world.vrt)
  parallel  # GNU parallel: the tiles test runs a tile plan's jobs.txt with it
  python3 python3-jsonschema  # tests check presets against `landform schema`
  openimageio-tools  # oiiotool reads the exr outputs back (Debian's GDAL has no EXR driver)
  qemu-user  # a test builds a preset on an emulated older CPU and compares the bytes
)
check_packages=(
  clang-format clang-tidy  # scripts/check-format.sh, scripts/tidy.sh
  python3                  # scripts/tidy.sh reads compile_commands.json
  libomp-dev               # clang's omp.h, for clang-tidy on src/core/parallel.cpp
  clang-14 libclang-rt-14-dev  # scripts/fuzz.sh: libFuzzer, ASan and UBSan runtimes
)

for arg in "$@"; do
  case "$arg" in
    --tests) packages+=("${test_packages[@]}") ;;
    --checks) packages+=("${check_packages[@]}") ;;
    *)
      echo "usage: scripts/install-deps.sh [--tests] [--checks]" >&2
      exit 2
      ;;
  esac
done

missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present" >&2
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
