#!/usr/bin/env bash
# The scheduler's decision latency with and without `mrlocal serve` attached (issue 22:
# the service must not slow the scheduler's decisions by more than 10 %). The same 100
# synthetic jobs (4 maps of 50 ms, one 10 ms reduce; queues q1 and q2 bidding 2 : 1), one
# every 100 ms, on the same cluster under dynprio: once from a workload spec (`mrlocal
# workload`), once submitted through the API by one client over one connection
# (bench_serve_load paced); each run prints the Controller's own decision percentiles
# (SchedulerStats: every policy call). Alternated RUNS times (default 3).
#   bash tools/bench/bench_serve_decisions.sh [BUILD_DIR] [RUNS]
set -euo pipefail
build=${1:-build}
runs=${2:-3}
mrlocal="$build/mrlocal"
dir=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT
pid=
source "$(dirname "${BASH_SOURCE[0]}")/serve_common.sh"
cluster="1x(2m,1r,1.0)"
job() {  # $1: index
  local q=q$((1 + $1 % 2))
  echo "{\"app\": \"synthetic\", \"maps\": 4, \"reduces\": 1, \"map_s\": 0.05, \"reduce_s\": 0.01, \"queue\": \"$q\""
}
{
  echo "{\"cluster\": \"$cluster\", \"queues\": [{\"name\": \"q1\", \"budget\": 1000000, \"rate\": 2}, {\"name\": \"q2\", \"budget\": 1000000, \"rate\": 1}], \"jobs\": ["
  for i in $(seq 0 99); do
    sep=$([ "$i" -lt 99 ] && echo , || true)
    echo "$(job "$i"), \"arrival_s\": $(awk -v i="$i" 'BEGIN {printf "%.1f", i * 0.1}')}$sep"
  done
  echo "]}"
} >"$dir/spec.json"

for run in $(seq "$runs"); do
  echo -n "run $run, workload spec: "
  "$mrlocal" workload "$dir/spec.json" --policy dynprio 2>&1 | grep -o 'scheduler .*'

  state="$dir/state$run"
  start_serve "$mrlocal" "$state" --cluster "$cluster" --grace 1ms
  for q in "q1 2" "q2 1"; do
    set -- $q
    "$mrlocal" queue create "$1" --rate "$2" --server "$url" --key "$state.key" >/dev/null
    "$mrlocal" queue deposit "$1" 1000000 --server "$url" --key "$state.key" >/dev/null
  done
  for i in $(seq 0 99); do echo "$(job "$i")}"; done |
    "$build/bench_serve_load" --server "$url" --key "$state.key" paced 100 0.1
  until curl -s "$url/metrics" | grep -q 'mrlocal_jobs{phase="succeeded"} 100'; do sleep 0.2; done
  echo -n "run $run, through the API: "
  curl -s "$url/metrics" | awk '/^mrlocal_scheduler_decisions /{n=$2}
    /^mrlocal_scheduler_decision_seconds\{quantile="0.5"\}/{p50=$2*1e6}
    /^mrlocal_scheduler_decision_seconds\{quantile="0.99"\}/{p99=$2*1e6}
    END {printf "scheduler %d decisions, p50 %.2f us, p99 %.2f us\n", n, p50, p99}'
  kill -TERM "$pid"; wait "$pid" || true
  pid=
done
