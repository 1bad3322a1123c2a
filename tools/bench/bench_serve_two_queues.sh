#!/usr/bin/env bash
# The dynamic proportional-share paper's two-queue experiment (section 4.2: bids 2 : 1)
# through `mrlocal serve`'s API, with the bids switched to 1 : 2 while jobs run, beside the
# same experiment from a workload spec (tools/bench/dynprio_2q_switch_workload.json, whose
# "events" switch the bids at the same moment). Both: cluster 1x(6m,1r,1.0), dynprio,
# --allocation-interval 2s, two closed-loop clients per queue of 16 jobs each (24 maps of
# 0.25 s CPU, one 0.05 s reduce). Prints, per run and phase, each queue's mean completion
# time and the ratio slower / faster, counted for both by dynprio_levels.py's rule: jobs
# that arrived in the phase (after a 5 s warm-up) and ended in it while both queues had
# jobs. About 4 minutes a run each; keep the machine otherwise idle.
#   bash tools/bench/bench_serve_two_queues.sh [BUILD_DIR] [RUNS]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build}
runs=${2:-2}
spec=$root/tools/bench/dynprio_2q_switch_workload.json
switch_s=90
jobs_per_client=16
dir=$(mktemp -d)
pid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT

# Each queue's mean completion time before and after the switch, and the ratio.
phases() {  # $1: label, $2: a directory with jobs.csv (queue, arrival_s, finish_s)
  python3 - "$spec" "$1" "$2" "$switch_s" <<'EOF'
import json, os, sys
sys.path.insert(0, os.environ["BENCH_DIR"])
from dynprio_levels import levels
spec, label, report, switch = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
rates = {q["name"]: q["rate"] for q in json.load(open(spec))["queues"]}
for phase, (warmup, until, slow, fast) in {
        "bids 2:1": (5.0, switch, "q2", "q1"),
        "bids 1:2": (switch, float("inf"), "q1", "q2")}.items():
    _, mean, count = levels(report, rates, warmup, until)
    print(f"{label:5s} {phase}: q1 {mean['q1']:5.2f} s ({count['q1']} jobs), "
          f"q2 {mean['q2']:5.2f} s ({count['q2']} jobs), {slow} / {fast} "
          f"{mean[slow] / mean[fast]:.2f}")
EOF
}
export BENCH_DIR=$root/tools/bench
source "$BENCH_DIR/serve_common.sh"

for run in $(seq "$runs"); do
  "$build/mrlocal" workload "$spec" --policy dynprio --allocation-interval 2s --seed "$run" \
    -q --report "$dir/spec-$run" >/dev/null
  phases spec "$dir/spec-$run"

  state=$dir/state-$run
  start_serve "$build/mrlocal" "$state" --cluster "1x(6m,1r,1.0)" --policy dynprio \
    --allocation-interval 2s --grace 1ms
  server=(--server "$url" --key "$state.key")
  for q in "q1 2" "q2 1"; do
    set -- $q
    "$build/mrlocal" queue create "$1" --rate "$2" "${server[@]}" >/dev/null
    "$build/mrlocal" queue deposit "$1" 1000000000 "${server[@]}" >/dev/null
  done
  mkdir -p "$dir/api-$run"
  "$build/bench_serve_load" "${server[@]}" closed "$jobs_per_client" 2 "$switch_s" |
    awk -F, 'BEGIN { print "queue,arrival_s,finish_s" } /^q[12],/ { print $1 "," $2 "," $3 }' \
      >"$dir/api-$run/jobs.csv"
  kill -TERM "$pid"; wait "$pid" || true; pid=
  phases api "$dir/api-$run"
done
