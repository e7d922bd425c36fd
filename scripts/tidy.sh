#!/usr/bin/env bash
# Runs clang-tidy (checks in .clang-tidy) over the library and CLI sources
# (src/), in parallel, with the compile flags of a CMake build directory's
# compile_commands.json. Fails if clang-tidy reports anything, in a source
# file or in one of the project's headers.
#
#   scripts/tidy.sh [BUILD_DIR] [FILE_REGEX]
#     BUILD_DIR   default build-tidy; configured here (nothing is compiled:
#                 the generated headers come from the configure step) when
#                 it has no compile_commands.json yet, without precompiled
#                 headers (clang-tidy cannot read GCC's .gch files)
#     FILE_REGEX  only the sources whose path matches (grep -E), e.g. src/cli/
#   TIDY_JOBS=N   parallel clang-tidy processes (default: nproc)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
build_dir="${1:-build-tidy}"
file_regex="${2:-}"
jobs="${TIDY_JOBS:-$(nproc)}"

clang_tidy="${CLANG_TIDY:-}"
if [ -z "$clang_tidy" ]; then
  for candidate in clang-tidy clang-tidy-14; do
    if command -v "$candidate" >/dev/null; then clang_tidy="$candidate"; break; fi
  done
fi
if [ -z "$clang_tidy" ]; then
  echo "tidy: clang-tidy not found (scripts/install-deps.sh --checks installs it)" >&2
  exit 1
fi

if [ ! -f "$build_dir/compile_commands.json" ]; then
  echo "tidy: configuring $build_dir for compile_commands.json" >&2
  cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DLANDFORM_BUILD_TESTS=OFF -DLANDFORM_BUILD_BENCH=OFF \
    -DLANDFORM_PCH=OFF -DLANDFORM_UNITY=OFF -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
fi
# Unity batches would hide the sources from the filter below: refuse them
# rather than check nothing.
if grep -q '/Unity/unity_' "$build_dir/compile_commands.json"; then
  echo "tidy: $build_dir compiles unity batches; configure it with -DLANDFORM_UNITY=OFF (or use build-tidy)" >&2
  exit 1
fi

# The project's own sources from the compilation database (not tests, not
# benchmarks, not the generated default_preset.cpp).
mapfile -t files < <(python3 - "$build_dir/compile_commands.json" "$root/src/" <<'PY'
import json, os, sys
db, prefix = sys.argv[1], sys.argv[2]
seen = set()
for entry in json.load(open(db)):
    path = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
    if path.startswith(prefix) and path not in seen:
        seen.add(path)
        print(path)
PY
)
if [ -n "$file_regex" ]; then
  mapfile -t files < <(printf '%s\n' "${files[@]}" | grep -E -- "$file_regex" || true)
fi
if [ ${#files[@]} -eq 0 ]; then
  echo "tidy: no sources to check in $build_dir/compile_commands.json" >&2
  exit 1
fi

logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
export clang_tidy build_dir logs
header_filter="^${root}/(include/landform|src)/"
export header_filter

start=$SECONDS
echo "tidy: $("$clang_tidy" --version | grep -m1 -o 'LLVM version [0-9.]*'), ${#files[@]} files, $jobs jobs" >&2
# One log per file, printed whole, so parallel output never interleaves.
printf '%s\0' "${files[@]}" | xargs -0 -n 1 -P "$jobs" sh -c '
  log="$logs/$(echo "$1" | tr / _).log"
  if ! "$clang_tidy" -p "$build_dir" --quiet --warnings-as-errors="*" --header-filter="$header_filter" "$1" \
       >"$log" 2>&1; then
    echo "$1" >>"$logs/failed"
  fi' sh || true

elapsed=$((SECONDS - start))
if [ -s "$logs/failed" ]; then
  while IFS= read -r file; do cat "$logs/$(echo "$file" | tr / _).log"; done <"$logs/failed"
  count=$(wc -l <"$logs/failed")
  echo "tidy: findings in $count of ${#files[@]} files (${elapsed} s):" >&2
  sed "s|^$root/|  |" "$logs/failed" >&2
  exit 1
fi
echo "tidy: ${#files[@]} files clean (${elapsed} s)" >&2
