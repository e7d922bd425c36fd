#!/usr/bin/env bash
# Regenerates docs/stages.md from the stage schemas and the README image from
# the default preset. Run after changing a stage's parameters; the test suite
# fails while docs/stages.md is out of date.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/landform
[ -x "$bin" ] || { echo "build first: scripts/build.sh" >&2; exit 1; }
"$bin" stages --markdown > docs/stages.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" build -o "$tmp" --quiet
cp "$tmp/height_preview.png" docs/img/default-height.png
echo "docs/stages.md and docs/img/default-height.png regenerated" >&2
