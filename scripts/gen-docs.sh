#!/usr/bin/env bash
# Regenerates docs/stages.md, docs/outputs.md and the key table of
# docs/presets.md from the schemas, the README image from the default preset and the derived-map
# pictures of docs/maps.md and docs/roads.md. (Generator and stage thumbnails:
# scripts/gen-generator-images.sh.) Run after changing a stage's parameters or
# an output's options; the test suite fails while docs/stages.md or
# docs/outputs.md is out of date.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/landform
[ -x "$bin" ] || { echo "build first: scripts/build.sh" >&2; exit 1; }
"$bin" stages --markdown > docs/stages.md
"$bin" outputs --markdown > docs/outputs.md
# docs/presets.md: the top-level key table between its schema markers.
python3 - "$bin" <<'PY'
import subprocess, sys
table = subprocess.run([sys.argv[1], "schema", "--markdown"], check=True, capture_output=True, text=True).stdout
doc = open("docs/presets.md").read()
begin, end = "<!-- schema:begin -->\n", "<!-- schema:end -->"
a, b = doc.index(begin) + len(begin), doc.index(end)
open("docs/presets.md", "w").write(doc[:a] + table + doc[b:])
PY
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" build -o "$tmp" --quiet
cp "$tmp/preview.png" docs/img/default-preview.png
echo "docs/stages.md, docs/outputs.md and docs/img/default-preview.png regenerated" >&2

# docs/maps.md: every derived map of the game-terrain preset, on a 256-cell
# window of its 512-cell world (a tile equals the same window of the world).
maps='[{"map":"height","format":"png8","file":"height.png"},
 {"map":"preview","format":"rgb8","file":"preview.png"},
 {"map":"preview","format":"rgb8","file":"preview_multi.png","ramp":"earth","multidirectional":true},
 {"map":"normal","format":"rgb8","file":"normal_opengl.png"},
 {"map":"normal","format":"rgb8","convention":"directx","file":"normal_directx.png"},
 {"map":"ao","format":"png8","file":"ao.png"},
 {"map":"slope","format":"png8","file":"slope.png"},
 {"map":"aspect","format":"png8","file":"aspect.png"},
 {"map":"curvature","format":"png8","file":"curvature.png","kind":"profile","range":0.02},
 {"map":"flow","format":"png8","file":"flow.png"},
 {"map":"wetness","format":"png8","file":"wetness.png"},
 {"map":"splat","file":"splat.png","layers":[{"name":"grass","slope":[0,26],"noise":0.25},{"name":"rock","slope":[32,90],"noise":0.2},{"name":"sand","height":[0,0.12],"slope":[0,18],"weight":2}]}]'
rm -rf docs/img/maps && mkdir -p docs/img/maps
"$bin" build presets/game-terrain.json --size 256 --set 'world=[512,512]' --set 'origin=[128,128]' \
  --set "outputs=$maps" -o "$tmp/maps" --quiet
cp "$tmp"/maps/*.png docs/img/maps/
echo "docs/img/maps regenerated" >&2

# docs/roads.md: the roads preset (whole world), and a 128-cell window of it
# where the roads climb (a tile equals the same window of the world).
road_maps='[{"map":"preview","format":"rgb8","file":"preview.png","ramp":"earth","water":true,"river_area":0.3,"min_depth":8,"min_area":400000},
 {"map":"road","format":"png8","file":"road.png","sites":7,"max_grade_percent":8,"width_m":8,"follow_layer":"road_bed","sites_layer":"road_sites","water":{"min_depth":8,"min_area":400000,"precipitation":600,"river_area":0.3}}]'
rm -rf docs/img/roads && mkdir -p docs/img/roads
"$bin" build presets/roads.json --set "outputs=$road_maps" -o "$tmp/roads" --quiet
cp "$tmp/roads/preview.png" docs/img/roads/preview.png
cp "$tmp/roads/road.png" docs/img/roads/road.png
"$bin" build presets/roads.json --size 128 --set 'world=[512,512]' --set 'origin=[280,236]' \
  --set "outputs=$road_maps" -o "$tmp/roads_zoom" --quiet
for f in preview road; do cp "$tmp/roads_zoom/$f.png" "docs/img/roads/zoom_$f.png"; done
# The same window without the turning cost (curvature_penalty 0), to compare.
"$bin" build presets/roads.json --size 128 --set 'world=[512,512]' --set 'origin=[280,236]' \
  --set stages.3.curvature_penalty=0 --set "outputs=${road_maps//\"width_m\":8,/\"width_m\":8,\"curvature_penalty\":0,}" \
  -o "$tmp/roads_zoom_straight" --quiet
for f in preview road; do cp "$tmp/roads_zoom_straight/$f.png" "docs/img/roads/zoom_${f}_no_turning_cost.png"; done
echo "docs/img/roads regenerated" >&2
