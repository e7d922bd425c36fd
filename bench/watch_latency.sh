#!/usr/bin/env bash
# Save-to-outputs latency of `landform watch`: the default preset at 256 x 256
# in a temporary folder, saved N times (written to a temporary and renamed
# over the preset, as editors save); each time, the wall time from the rename
# to the new manifest.json in the output folder. Each save changes
#   seed        the seed: every stage runs again (the default)
#   last-stage  the talus erosion's iterations: the stages before it come
#               from the watch's cache of the last build
#
#   bench/watch_latency.sh [LANDFORM] [N] [SIZE] [seed|last-stage]
#       (default: build/landform 10 256 seed)
#
# Prints each save's latency and the build's own total from the status line,
# then the median, min and max. The latency includes the 75 ms of quiet the
# watch waits for after a save before it builds.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-build/landform}")
saves=${2:-10}
size=${3:-256}
mode=${4:-seed}
[ -x "$bin" ] || { echo "build first: scripts/build.sh" >&2; exit 1; }
python3 - "$bin" "$saves" "$size" "$mode" <<'PY'
import json, os, re, signal, statistics, subprocess, sys, tempfile, time

bin, saves, size, mode = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
if mode not in ("seed", "last-stage"):
    sys.exit(f"mode: seed or last-stage, not {mode}")
preset = json.load(open("presets/default.json"))
talus = next(s for s in preset["stages"] if s["type"] == "thermal_erosion")
with tempfile.TemporaryDirectory() as tmp:
    path, out, err_path = os.path.join(tmp, "p.json"), os.path.join(tmp, "out"), os.path.join(tmp, "stderr")
    manifest = os.path.join(out, "manifest.json")

    def save(k):
        preset["size"] = size
        if mode == "seed":
            preset["seed"] = k
        else:
            talus["iterations"] = 20 + k
        with open(path + ".tmp", "w") as f:
            json.dump(preset, f)
        start = time.monotonic()
        os.rename(path + ".tmp", path)
        return start

    def wait_for(k, limit=60.0):
        want = json.load(open(path))
        end = time.monotonic() + limit
        while time.monotonic() < end:
            try:
                got = json.load(open(manifest))["preset"]
                if got["seed"] == want["seed"] and got["stages"][4]["iterations"] == talus["iterations"]:
                    return time.monotonic()
            except (OSError, ValueError, KeyError, IndexError):
                pass
            time.sleep(0.001)
        sys.exit(f"no build for save {k} within {limit} s")

    save(0)
    with open(err_path, "w") as err:
        watch = subprocess.Popen([bin, "watch", path, "-o", out, "-q"], stderr=err)
    try:
        wait_for(0)
        latencies = []
        for seed in range(1, saves + 1):
            time.sleep(0.3)  # a save at a time
            start = save(seed)
            latencies.append(wait_for(seed) - start)
    finally:
        watch.send_signal(signal.SIGTERM)
        watch.wait(timeout=30)
    builds = [float(m) for m in re.findall(r" ok ([0-9.]+) ms", open(err_path).read())][1:]
    for k, latency in enumerate(latencies):
        build = f"{builds[k]:.1f}" if k < len(builds) else "?"
        print(f"save {k + 1}: {latency * 1e3:.1f} ms to the new manifest (build {build} ms)")
    print(f"{size}x{size}, {saves} saves ({mode}): median {statistics.median(latencies) * 1e3:.1f} ms, "
          f"min {min(latencies) * 1e3:.1f} ms, max {max(latencies) * 1e3:.1f} ms")
PY
