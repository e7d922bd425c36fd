#!/usr/bin/env bash
# Renders the images of docs/generators.md from the seed presets, and a
# 128 x 128 thumbnail of every registered stage from its defaults into
# docs/img/stages/<name>.png. Run after changing a generator or a preset:
#   scripts/build.sh && scripts/gen-generator-images.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/landform
[ -x "$bin" ] || { echo "build first: scripts/build.sh" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
img=docs/img

# render NAME PRESET FILE [landform build options...]: builds PRESET and copies
# its output FILE to docs/img/NAME.png.
render() {
  local name=$1 preset=$2 file=$3
  shift 3
  rm -rf "$tmp/out"
  "$bin" build "$preset" -o "$tmp/out" --quiet "$@"
  cp "$tmp/out/$file" "$img/$name.png"
}

# Seed 001 at half resolution over the same 1024-unit world (cell_size 2):
# passes of spacing 2..512 world units; only the original's per-pixel pass
# (amplitude 0.25 of 255) is left out.
render value-noise presets/value-noise.json height_preview.png --size 512 --set cell_size=2 \
  --set stages.0.spacing=2 --set stages.0.scale=0.5 --set stages.0.passes=9
render value-noise-fbm presets/value-noise.json height_preview.png --size 256 \
  --set 'stages=[{"type":"value_noise","mode":"fbm","feature_size":96,"octaves":7,"interpolation":"quintic","normalize":true},{"type":"normalize","mode":"min_max"}]'

render fault-line presets/fault-line.json height_preview.png
render fault-line-60 presets/fault-line.json height_preview.png --size 256 --set stages.0.iterations=60
render fault-line-sigmoid presets/fault-line.json height_preview.png --size 256 \
  --set stages.0.profile=sigmoid --set stages.0.width=6

render floating-islands presets/floating-islands.json height_preview.png
render floating-islands-dots presets/floating-islands.json height_preview.png --size 256 --set stages.0.erosion=0
render floating-islands-four presets/floating-islands.json height_preview.png --size 256 --set stages.0.neighbourhood=four
render floating-islands-continent presets/floating-islands.json height_preview.png --size 256 \
  --set stages.0.land_area=0.6 --set stages.0.land_type=1

render voronoi-biomes presets/voronoi-biomes.json biome.png
render voronoi-elevation presets/voronoi-biomes.json height_preview.png --size 256
render voronoi-moisture presets/voronoi-biomes.json moisture.png --size 256
for mode in f1 f2_minus_f1; do
  for metric in euclidean manhattan chebyshev; do
    render "worley-$mode-$metric" presets/voronoi-biomes.json height_preview.png --size 256 \
      --set "stages=[{\"type\":\"voronoi\",\"mode\":\"$mode\",\"metric\":\"$metric\",\"grid_size\":8,\"distribution\":\"uniform\"},{\"type\":\"normalize\",\"mode\":\"min_max\"}]"
  done
done

# Layers composed with blend and mask.
render layers-height presets/layered-island.json height_preview.png --size 256 --set stages.0.feature_size=128
render layers-biome presets/layered-island.json biome.png --size 256 --set stages.0.feature_size=128

# docs/erosion.md, hydraulic erosion: the 256 x 256 top-left window of
# eroded-mountains with hydraulic erosion only (no talus erosion), shaded.
erode() {
  local name=$1
  shift
  render "erosion-hydraulic-$name" presets/eroded-mountains.json p.png --size 256 --set stages.2.enabled=false \
    --set 'outputs=[{"map":"preview","format":"rgb8","file":"p.png"}]' "$@"
}
erode input --set stages.1.enabled=false
erode preset
erode droplets-0.5 --set stages.1.droplets_per_cell=0.5
erode droplets-6 --set stages.1.droplets_per_cell=6
erode lifetime-30 --set stages.1.max_lifetime=30
erode inertia-0.4 --set stages.1.inertia=0.4
erode radius-1 --set stages.1.erosion_radius=1
erode radius-6 --set stages.1.erosion_radius=6
erode spawn-high --set stages.1.spawn=high_ground
erode deposit-0.05 --set stages.1.deposit_speed=0.05
erode deposit-1 --set stages.1.deposit_speed=1

# One thumbnail per stage from its defaults. Generators are stretched to
# [0, 1]; filters are applied to a [0, 1] fBm input. `image` needs a file, so
# its thumbnail reads the value-noise image rendered above.
mkdir -p "$img/stages"
"$bin" stages | while read -r category name _; do
  case "$name" in
    image) stage='{"type":"image","path":"docs/img/value-noise.png"}' ;;
    # 128 cells of 1 m and 1 m of relief: K and D scaled to the tiny map, then stretched to [0, 1].
    stream_power_erosion) stage='{"type":"stream_power_erosion","erodibility":2e-3,"diffusivity":0.0005,"time_step":200,"duration":20000},{"type":"normalize","mode":"min_max"}' ;;
    # 128 cells of 1 m: rivers from 0.0005 km^2 (500 cells), channels 3 cells wide, 20 x d(Q) deep.
    river_carve) stage='{"type":"river_carve","river_area":0.0005,"depth_scale":20,"bank_m":3}' ;;
    *) stage="{\"type\":\"$name\"}" ;;
  esac
  if [ "$category" = generator ]; then
    stages="[$stage,{\"type\":\"normalize\",\"mode\":\"min_max\"}]"
  else
    stages="[{\"type\":\"value_noise\",\"mode\":\"fbm\",\"feature_size\":48,\"normalize\":true},{\"type\":\"scale_bias\",\"scale\":0.5,\"bias\":0.5},$stage]"
  fi
  printf '{"landform":1,"size":128,"seed":1,"stages":%s,"outputs":[{"map":"height","format":"png8","file":"t.png"}]}\n' \
    "$stages" > "$tmp/thumb.json"
  if render "stages/$name" "$tmp/thumb.json" t.png 2> "$tmp/err"; then :; else
    echo "no thumbnail for $name: $(head -1 "$tmp/err")" >&2
  fi
done
echo "docs/img regenerated" >&2
