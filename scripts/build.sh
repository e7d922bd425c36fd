#!/usr/bin/env bash
# Installs the Debian dependencies (if missing), configures and builds
# landform. Warnings are errors here, as in CI.
#
#   scripts/build.sh            the library and the CLI (build/landform)
#   scripts/build.sh --tests    everything: + the test suite and benchmarks
#   scripts/build.sh [--tests] [--build-dir DIR] [-DVAR=VALUE ...]
#       another build directory (default: build), extra CMake settings
#       (e.g. --build-dir build-asan -DLANDFORM_SANITIZE=ON)
#
# ccache is used when installed (CCACHE_DISABLE=1 turns it off); it is never
# required.
set -euo pipefail
cd "$(dirname "$0")/.."

tests=0
build_dir=build
cmake_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --tests) tests=1 ;;
    --build-dir)
      build_dir="${2:?--build-dir needs a directory}"
      shift
      ;;
    -D*) cmake_args+=("$1") ;;
    *)
      echo "usage: scripts/build.sh [--tests] [--build-dir DIR] [-DVAR=VALUE ...]" >&2
      exit 2
      ;;
  esac
  shift
done

if [ "$tests" -eq 1 ]; then
  bash scripts/install-deps.sh --tests
  cmake_args=(-DLANDFORM_BUILD_TESTS=ON -DLANDFORM_BUILD_BENCH=ON "${cmake_args[@]}")
  targets=()
else
  bash scripts/install-deps.sh
  # A fresh build directory gets no tests (no Catch2 needed); one that already
  # has them keeps them, only the CLI is rebuilt.
  if [ ! -f "$build_dir/CMakeCache.txt" ]; then
    cmake_args=(-DLANDFORM_BUILD_TESTS=OFF -DLANDFORM_BUILD_BENCH=OFF "${cmake_args[@]}")
  fi
  targets=(--target landform_cli)
fi

launcher=""
if command -v ccache >/dev/null; then
  launcher=ccache
  # ccache caches precompiled-header builds only with these relaxations.
  export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}"
fi

# Ninja for a fresh build directory: it compiles the CLI's batches while the
# library's are still running (Make waits for the library first).
if [ ! -f "$build_dir/CMakeCache.txt" ] && command -v ninja >/dev/null; then
  cmake_args=(-G Ninja "${cmake_args[@]}")
fi

cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DLANDFORM_WERROR=ON \
  -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" "${cmake_args[@]}" >/dev/null
cmake --build "$build_dir" -j "$(nproc)" "${targets[@]}"
