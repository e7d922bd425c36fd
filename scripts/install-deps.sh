#!/usr/bin/env bash
# Installs landform's build dependencies from Debian packages. Idempotent:
# packages already present are skipped, and apt-get runs only when something
# is missing. Needs root (or sudo) on Debian 12 or newer.
set -euo pipefail

packages=(
  build-essential cmake pkg-config git
  libcli11-dev nlohmann-json3-dev libstb-dev libpng-dev zlib1g-dev libssl-dev
  libopenexr-dev libtiff-dev  # exr, exr16, tiff32 and tiff16 outputs
  catch2 libbenchmark-dev
  libhwy-dev  # Highway: SIMD with runtime dispatch (noise kernels)
  gdal-bin  # tests compare slope and aspect with gdaldem
)

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
