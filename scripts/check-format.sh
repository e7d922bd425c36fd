#!/usr/bin/env bash
# Checks that every tracked C++ source is formatted with .clang-format
# (clang-format --dry-run -Werror); prints the offending lines and fails
# otherwise. `scripts/check-format.sh --fix` rewrites the files in place.
#
# Files matching a pattern in .clang-format-ignore (one shell glob per line,
# relative to the repository root, # comments allowed) are skipped here:
# clang-format 14 (Debian 12) does not read that file itself (18 does).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=(--dry-run -Werror)
if [ "${1:-}" = "--fix" ]; then mode=(-i); fi

clang_format="${CLANG_FORMAT:-}"
if [ -z "$clang_format" ]; then
  for candidate in clang-format clang-format-14; do
    if command -v "$candidate" >/dev/null; then clang_format="$candidate"; break; fi
  done
fi
if [ -z "$clang_format" ]; then
  echo "check-format: clang-format not found (scripts/install-deps.sh --checks installs it)" >&2
  exit 1
fi

ignore=()
if [ -f .clang-format-ignore ]; then
  while IFS= read -r line || [ -n "$line" ]; do
    line="${line%%#*}"
    line="$(echo "$line" | xargs)"  # trim
    if [ -n "$line" ]; then ignore+=("$line"); fi
  done < .clang-format-ignore
fi

files=()
while IFS= read -r -d '' file; do
  skip=0
  for pattern in "${ignore[@]}"; do
    # shellcheck disable=SC2053  # the pattern is a glob on purpose
    if [[ "$file" == $pattern ]]; then skip=1; break; fi
  done
  if [ "$skip" -eq 0 ]; then files+=("$file"); fi
done < <(git ls-files -z -- '*.cpp' '*.hpp' '*.h' '*.cc')

if [ ${#files[@]} -eq 0 ]; then
  echo "check-format: no tracked sources found" >&2
  exit 1
fi

if printf '%s\0' "${files[@]}" | xargs -0 "$clang_format" "${mode[@]}"; then
  echo "check-format: ${#files[@]} files OK (${#ignore[@]} ignore patterns, $("$clang_format" --version | head -1))" >&2
else
  echo "check-format: formatting differs; run scripts/check-format.sh --fix" >&2
  exit 1
fi
