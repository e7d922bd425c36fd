#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (build-fuzz: ASan + UBSan +
# coverage, stb_image instrumented too) and the CLI with the same flags, then
# runs each target for SECONDS (default 60) on its seed corpus: the shipped
# presets, tests/golden/cases and tests/fuzz/corpus/preset (the error tests'
# inputs) for the preset loader; tests/fuzz/corpus/decode and the golden r32
# for the decoders. The corpora grow in build-fuzz/corpus/ and are reused by
# the next run.
#
#   scripts/fuzz.sh              60 s each (CI)
#   scripts/fuzz.sh 1800         half an hour each
#   scripts/fuzz.sh 0            build only
#   FUZZ_FLAGS="-fork=2" scripts/fuzz.sh 14400
#                                four hours each, two processes; FUZZ_FLAGS
#                                are more libFuzzer flags (later ones win)
#   FUZZ_TARGETS=fuzz_decode scripts/fuzz.sh 1800
#                                one target only (two runs in parallel use
#                                both cores; the build is shared)
#
# Each target's final figures (executions, exec/s, cov, ft, corpus) are
# printed; its whole log is build-fuzz/fuzz_<target>.log. Exit status
# non-zero on a crash, leak, UB report, out-of-memory or hang (> 10 s per
# input); the reproducer is left in build-fuzz/run/ (crash-*, leak-*,
# timeout-*, oom-*): `build-fuzz/tests/fuzz/fuzz_<target> FILE` replays it.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
build=build-fuzz

# ccache and Ninja as scripts/build.sh uses them.
launcher=""
if command -v ccache >/dev/null; then
  launcher=ccache
  export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}"
fi
generator=()
if [ ! -f "$build/CMakeCache.txt" ] && command -v ninja >/dev/null; then generator=(-G Ninja); fi
CXX="${CXX_FUZZ:-clang++-14}" cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g" -DLANDFORM_FUZZ=ON -DLANDFORM_WERROR=ON \
  -DLANDFORM_BUILD_TESTS=OFF -DLANDFORM_BUILD_BENCH=OFF -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" >/dev/null
# The CLI too, so that clang (with -Werror) covers everything but the tests.
cmake --build "$build" -j "$(nproc)" --target fuzz_preset fuzz_decode landform_cli
[ "$seconds" -gt 0 ] || exit 0

# Seed corpora: copies, so that libFuzzer's additions never touch the sources.
mkdir -p "$build/corpus/preset" "$build/corpus/decode" "$build/run"
# Prefixed by their folder: tests/golden/cases and tests/fuzz/corpus share names.
for f in presets/*.json tests/golden/cases/*.json tests/fuzz/corpus/preset/*; do
  cp "$f" "$build/corpus/preset/$(basename "$(dirname "$f")")-$(basename "$f")"
done
cp tests/fuzz/corpus/decode/* "$build/corpus/decode/"
# The decoder target's first three bytes pick the encoding (2: r32) and the
# raw width (0: square).
printf '\002\000\000' | cat - tests/golden/cases/image-input.r32 >"$build/corpus/decode/golden-image-input.r32"
# The golden image case names its file relative to the working directory.
cp tests/golden/cases/image-input.r32 "$build/run/"

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
status=0
for target in ${FUZZ_TARGETS:-fuzz_preset fuzz_decode}; do
  corpus="corpus/${target#fuzz_}"
  log="$build/$target.log"
  echo "fuzz: $target for $seconds s" >&2
  rc=0
  (cd "$build/run" && "../tests/fuzz/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 ${FUZZ_FLAGS:-} "../$corpus") >"$log" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    status=1
    echo "fuzz: $target FAILED (exit $rc); the report (whole log: $log):" >&2
    # From the first sanitizer or libFuzzer report to the final stats.
    awk '/^stat::/ {exit} /^==[0-9]+==|runtime error:|^ALARM|ERROR: libFuzzer|^terminate called/ {on = 1} on' "$log" | head -n 120 >&2
  fi
  # The final status line (#N DONE cov: ... ft: ... corp: ...), or the last
  # one printed before a failure, then the final stats.
  grep -E '^#[0-9]+[[:space:]]+(DONE|NEW|REDUCE|pulse|INITED)' "$log" | tail -n 1 >&2 || true
  grep -E '^(Done [0-9]+ runs|stat::)' "$log" >&2 || true
  echo "fuzz: $target corpus: $(find "$build/$corpus" -type f | wc -l) files, $(du -sk "$build/$corpus" | cut -f1) KiB" >&2
done
[ "$status" -eq 0 ] && echo "fuzz: no crash, leak, UB report or hang" >&2
exit "$status"
