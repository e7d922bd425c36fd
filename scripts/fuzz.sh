#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (build-fuzz: ASan + UBSan +
# coverage) and runs each for SECONDS (default 60) on its seed corpus:
# the shipped presets and tests/golden/cases for the preset loader, the
# images under tests/ for the decoders. New inputs go to build-fuzz/corpus/.
#
#   scripts/fuzz.sh              60 s each (CI)
#   scripts/fuzz.sh 1800         half an hour each
#   scripts/fuzz.sh 0            build only
#
# Exit status non-zero on a crash, leak, UB report or hang (> 10 s per input);
# the reproducer is left in build-fuzz/ (crash-*, leak-*, timeout-*).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
build=build-fuzz

launcher=""
if command -v ccache >/dev/null; then launcher=ccache; fi
CXX="${CXX_FUZZ:-clang++-14}" cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g" -DLANDFORM_FUZZ=ON -DLANDFORM_WERROR=ON \
  -DLANDFORM_BUILD_TESTS=OFF -DLANDFORM_BUILD_BENCH=OFF -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" >/dev/null
cmake --build "$build" -j "$(nproc)" --target fuzz_preset fuzz_decode
[ "$seconds" -gt 0 ] || exit 0

# Seed corpora: copies, so that libFuzzer's additions never touch the sources.
mkdir -p "$build/corpus/preset" "$build/corpus/decode"
cp presets/*.json tests/golden/cases/*.json "$build/corpus/preset/"
cp tests/fuzz/corpus/preset/* "$build/corpus/preset/" 2>/dev/null || true
for f in tests/golden/cases/*.r32 docs/img/*.png; do
  # The decoder target's first three bytes pick the encoding and raw width.
  case "$f" in
    *.png) printf '\000\000\000' | cat - "$f" >"$build/corpus/decode/$(basename "$f")" ;;
    *.r32) printf '\002\000\000' | cat - "$f" >"$build/corpus/decode/$(basename "$f")" ;;
  esac
done

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
status=0
for target in fuzz_preset fuzz_decode; do
  corpus="$build/corpus/${target#fuzz_}"
  echo "fuzz: $target for $seconds s" >&2
  (cd "$build" && "./tests/fuzz/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 "../$corpus") 2>&1 | tail -n 25 || status=1
done
exit "$status"
