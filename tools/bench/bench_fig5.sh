#!/usr/bin/env bash
# DynamicShare's Fig. 5: deadline misses against the number of concurrent jobs, in
# simulation and on the real engine, with the dynshare preset (README, "Workload presets").
# Prints both tables and the wall time of each; the reports (sweep.md, sweep.csv for
# tools/bench/plot_csv) go to $TMPDIR/mrlocal-bench/fig5-{sim,real}.
#
#   tools/bench/bench_fig5.sh [BUILD_DIR] [POLICIES] [SEEDS] [SIM_SWEEP] [REAL_SWEEP]
#
# Defaults: llf,edf,fifo,fair (the policies this build has), 10 seeds, concurrency=1:10
# in simulation; the real sweep is off unless REAL_SWEEP is given (the full one,
# concurrency=1:10 with 4 policies and 10 seeds, takes about half an hour on 2 cores).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build}
seeds=${3:-10}
sim_sweep=${4:-concurrency=1:10}
real_sweep=${5:-}
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
[ -z "$real_sweep" ] || run real --sweep "$real_sweep"
