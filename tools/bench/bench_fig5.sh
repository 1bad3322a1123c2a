#!/usr/bin/env bash
# DynamicShare's Fig. 5: deadline misses against the number of concurrent jobs, in
# simulation and on the real engine, with the dynshare preset (README, "Workload presets").
# Prints both tables and the wall time of each; the reports (sweep.md, sweep.csv for
# tools/bench/plot_csv) go to $TMPDIR/mrlocal-bench/fig5-{sim,real}.
#
#   tools/bench/bench_fig5.sh [BUILD_DIR] [POLICIES] [SEEDS] [SIM_SWEEP] [REAL_SWEEP]
#
# Defaults: llf,edf,fifo,fair (the policies this build has), 10 seeds, concurrency=1:10
# in simulation; the real sweep is off unless REAL_SWEEP is given (JOBS jobs per run,
# default 40: C = 1..10 with 4 policies and 10 seeds takes about 70 minutes on 2 cores).
# The real sweep's llf learns task times with the kNN estimator (the paper's), from a
# history file this script writes first: one friend-count job on each graph, on the
# preset's cluster.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build}
seeds=${3:-10}
sim_sweep=${4:-concurrency=1:10}
real_sweep=${5:-}
jobs=${JOBS:-40}
mrlocal=$build/mrlocal
if [ -n "${2:-}" ]; then
  policies=$2
else  # llf when this build has it
  policies=edf,fifo,fair
  "$mrlocal" compare --help | grep -q '\bllf\b' && policies=llf,$policies
fi
work=${TMPDIR:-/tmp}/mrlocal-bench
mkdir -p "$work"
cd "$root"  # the preset finds ../shared/datasets from here (or $MRLOCAL_DATASETS)

run() {  # run NAME ARGS...: one sweep, timed
  local name=$1
  shift
  echo "## $name: mrlocal compare --preset dynshare --policies $policies --seeds $seeds $*"
  local t0=$SECONDS
  "$mrlocal" compare --preset dynshare --policies "$policies" --seeds "$seeds" "$@" \
    --report "$work/fig5-$name" 2> >(grep -v '^compare: ' >&2)
  echo "wall $((SECONDS - t0)) s, load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
}

run sim --sim --sweep "$sim_sweep"
[ -n "$real_sweep" ] || exit 0

history=$work/fig5-history.json
rm -f "$history"
graphs=${MRLOCAL_DATASETS:-../shared/datasets}/graphs
for g in soc-Slashdot0902.txt.gz facebook_combined.txt; do
  [ -f "$graphs/$g" ] || { echo "bench_fig5.sh: the real sweep needs $graphs/$g" >&2; exit 1; }
  "$mrlocal" friendcount -q --top 0 --deadline 1h --history "$history" --reduces 4 \
    --cluster '2x(1m,1r,0.25)+4x(1m,1r,0.125)' "$graphs/$g" >/dev/null
done
run real --sweep "$real_sweep" --jobs "$jobs" --history "$history" --estimator knn
