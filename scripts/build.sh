#!/usr/bin/env bash
# Installs the Debian dependencies (if missing), configures and builds
# landform into ./build. Warnings are errors here, as in CI.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLANDFORM_WERROR=ON >/dev/null
cmake --build build -j "$(nproc)"
