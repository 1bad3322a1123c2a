#!/usr/bin/env bash
# friend-count on soc-Slashdot0902 (../shared/datasets): run time, and the shuffle's
# skewness and Balance with hash against dp-sketch, on the default cluster and on one with
# a node at half speed. Runs alternate between the partitioners; prints each run's
# figures from metrics.json.
#
#   tools/bench/bench_friendcount.sh [BUILD_DIR] [RUNS] [GRAPH]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build}
runs=${2:-3}
graph=${3:-$root/../shared/datasets/graphs/soc-Slashdot0902.txt.gz}
work=${TMPDIR:-/tmp}/mrlocal-bench
mkdir -p "$work"
[ -s "$graph" ] || { echo "no graph at $graph" >&2; exit 2; }
echo "graph $graph"
for cluster in "2x(1m,1r,1.0)" "1x(1m,1r,1.0)+1x(1m,1r,0.5)"; do
  for reduces in 2 4; do
    echo "cluster $cluster, R = $reduces"
    for ((i = 0; i < runs; i++)); do
      for p in hash dp-sketch; do
        "$build/mrlocal" friendcount "$graph" -q --top 0 --cluster "$cluster" --reduces "$reduces" \
          --partitioner "$p" --report "$work/fc-$p" > /dev/null
        python3 - "$work/fc-$p/metrics.json" "$p" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["per_job"][0]  # the one job
print(f"  {sys.argv[2]:>9}: total {m['elapsed_s']*1000:6.1f} ms (map {m['map_phase_s']*1000:6.1f}, "
      f"reduce {m['reduce_phase_s']*1000:6.1f}), p = {m['partitions']:2d}, skewness {m['skewness']:5.1f}, "
      f"balance {m['balance']:5.1f}, loads {m['plan']['reduce_load']}")
PY
      done
    done
  done
done
