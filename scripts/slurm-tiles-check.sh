#!/usr/bin/env bash
# Runs a small tile plan as a Slurm array job on a single-node Slurm started
# on localhost for the occasion (issue 12, acceptance 4), and checks that the
# stitched world equals the single build byte for byte. Not part of ctest:
# it needs root, the Debian packages slurm-wlm and munge, and starts daemons.
#
#   sudo scripts/slurm-tiles-check.sh [path/to/landform]
#
# Installs slurm-wlm and munge when missing, writes a throwaway slurm.conf
# under a temporary folder, starts munged, slurmctld -D and slurmd -D in the
# background and stops them (and removes the folder) on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
cli="$(realpath "${1:-build/landform}")"
[ -x "$cli" ] || { echo "build first: scripts/build.sh" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "slurm-tiles-check: needs root (slurmd runs jobs as the submitting user)" >&2; exit 1; }

need=()
for pkg in slurm-wlm munge; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

host="$(hostname -s)"
cpus="$(nproc)"
mem="$(awk '/MemTotal/ {print int($2 / 1024 / 2)}' /proc/meminfo)"
mkdir -p "$work"/{spool,state,munge,log}
chmod 700 "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
cat > "$work/slurm.conf" <<EOF
ClusterName=landform-check
SlurmctldHost=$host
AuthType=auth/munge
CryptoType=crypto/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmctldPidFile=$work/state/slurmctld.pid
SlurmdPidFile=$work/state/slurmd.pid
SlurmdSpoolDir=$work/spool
StateSaveLocation=$work/state
SlurmUser=root
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=check Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$work/slurm.conf"
munged --foreground --key-file="$work/munge/munge.key" --socket="$work/munge/munge.socket" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/log/munged.log" --seed-file="$work/munge/seed" --force &
pids+=($!)
sleep 1
export MUNGE_SOCKET="$work/munge/munge.socket"  # read by libmunge through slurm's auth plugin
printf 'AuthInfo=socket=%s\n' "$work/munge/munge.socket" >> "$work/slurm.conf"
slurmctld -D -f "$work/slurm.conf" &
pids+=($!)
slurmd -D -f "$work/slurm.conf" &
pids+=($!)
for _ in $(seq 30); do
  sinfo -h -o %T 2>/dev/null | grep -q idle && break
  sleep 1
done
sinfo

cat > "$work/world.json" <<'EOF'
{"landform": 1, "size": 132, "seed": 5,
 "stages": [{"type": "opensimplex", "octaves": 4, "feature_size": 30},
            {"type": "perturb", "magnitude": 5},
            {"type": "thermal_erosion", "iterations": 6}],
 "outputs": [{"map": "height", "format": "r32", "file": "height.r32"}]}
EOF
"$cli" build "$work/world.json" -o "$work/single" --quiet
"$cli" tiles plan "$work/world.json" --tile 33 -o "$work/plan" > /dev/null
sbatch --wait "$work/plan/slurm.sbatch"
"$cli" tiles finish "$work/plan"
gdal_translate -q -of ENVI "$work/plan/world.vrt" "$work/mosaic.bin"
cmp "$work/mosaic.bin" "$work/single/height.r32"
echo "slurm-tiles-check: the Slurm array job's stitched world equals the single build"
