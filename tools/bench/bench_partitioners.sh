#!/usr/bin/env bash
# dp-sketch against hash on a skewed input with a heterogeneous cluster: the reduce phase
# of WordCount on Zipf text (a large vocabulary, so that reduces have real work), with one
# node at half speed. Runs alternate between the partitioners; prints each run's reduce
# phase, skewness, Balance and the sketch costs, from metrics.json.
#
#   tools/bench/bench_partitioners.sh [BUILD_DIR] [RUNS]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build}
runs=${2:-5}
work=${TMPDIR:-/tmp}/mrlocal-bench
mkdir -p "$work"
input=$work/zipf-2m-words.txt
[ -s "$input" ] || "$build/mrlocal" gen text -o "$input" --size 256MiB --vocab 2000000 --zipf 1.0 --seed 7
cluster="1x(1m,1r,1.0)+1x(1m,1r,0.5)"
echo "input $input, cluster $cluster, R = 2"
for ((i = 0; i < runs; i++)); do
  for p in hash dp-sketch; do
    extra=()
    [ "$p" = dp-sketch ] && extra=(--partitions 16)
    "$build/mrlocal" wordcount "$input" -q --cluster "$cluster" --reduces 2 --partitioner "$p" \
      "${extra[@]}" --report "$work/rep-$p" > /dev/null
    python3 - "$work/rep-$p/metrics.json" "$p" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["per_job"][0]  # the one job
print(f"{sys.argv[2]:>9}: reduce phase {m['reduce_phase_s']*1000:7.1f} ms, map phase {m['map_phase_s']*1000:7.1f} ms, "
      f"skewness {m['skewness']:5.1f}, balance {m['balance']:5.1f}, loads {m['plan']['reduce_load']}, "
      f"sketch fill {m['plan']['sketch_fill_us']:.0f} us (all maps), plan {m['plan']['cost_us']:.1f} us")
PY
  done
done
