#!/usr/bin/env bash
# Re-blesses the golden table (tests/golden/golden.sha256): builds every case
# in tests/golden/cases with the given CLI (default build/landform) and writes
# the SHA-256 of each output file (the manifest aside, which carries the tool
# version). Prints what changed, so a numeric change is blessed on purpose.
#   scripts/bless-golden.sh [--check] [path/to/landform]
# --check only compares (exit 1 on a change) and leaves the table alone.
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
cli="${1:-build/landform}"
table=tests/golden/golden.sha256
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
for preset in tests/golden/cases/*.json; do
  name="$(basename "$preset" .json)"
  "$cli" build "$preset" -o "$scratch/$name" --quiet --threads 2
  (cd "$scratch/$name" && find . -type f ! -name manifest.json | sort | while read -r f; do
     printf '%s  %s/%s\n' "$(sha256sum "$f" | cut -d' ' -f1)" "$name" "${f#./}"
   done)
done > "$scratch/new"
if [ -f "$table" ]; then
  if diff -u "$table" "$scratch/new" > "$scratch/diff"; then
    echo "bless-golden: no change ($(wc -l < "$table") files)"
  else
    echo "bless-golden: changed entries:"
    grep '^[-+][0-9a-f]' "$scratch/diff" || true
    if [ "$check" = 1 ]; then exit 1; fi
  fi
fi
if [ "$check" = 0 ]; then cp "$scratch/new" "$table"; fi
