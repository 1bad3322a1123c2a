#!/usr/bin/env bash
# Issue 19's figures on the real engine, WordCount over ~500 MB of English text
# (make_text500.sh), RUNS runs of each variant, interleaved so that the machine's drift
# hits both alike:
#   retries      clean vs --inject task-fail:0.05 on 8 MiB blocks (65 tasks), the draws
#                seeded by the run's number: byte-identical output, time ratio
#   stragglers   a node slowed to 0.1 unknown to the scheduler (--inject node-slow), and a
#                slot known to run at 0.1 (--cluster), each --no-speculative vs --speculative
# Prints each run's time and the medians' ratio.
#
#   tools/bench/bench_faults.sh [BUILD_DIR] [RUNS] [retries|stragglers|all]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build}
runs=${2:-10}
which=${3:-all}
mrlocal=$build/mrlocal
input=$("$root/tools/bench/make_text500.sh")
work=$(mktemp -d "${TMPDIR:-/tmp}/mrlocal-faults.XXXXXX")
trap 'rm -rf "$work"' EXIT
cat "$input" > /dev/null

# The job's time as its report says it ("SUCCEEDED in 2.46 s" or "in 692.0 ms"), in s.
elapsed() {
  sed -n 's/^job [a-z]*: SUCCEEDED in \([0-9.]*\) \(m\?s\)$/\1 \2/p' "$1" |
    awk '{ print ($2 == "ms") ? $1 / 1000 : $1 }'
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# compare NAME "ARGS A" "ARGS B": RUNS runs of each, interleaved; the medians and ratio A/B.
# "{i}" in ARGS is the run's number.
compare() {
  local name=$1 a=$2 b=$3
  : > "$work/a"; : > "$work/b"
  for ((i = 1; i <= runs; i++)); do
    for v in a b; do
      local args=$a; [ "$v" = b ] && args=$b
      args=${args//\{i\}/$i}  # {i}: the run's number
      # shellcheck disable=SC2086
      "$mrlocal" wordcount "$input" -q $args -o "$work/out-$v" --overwrite > "$work/report" 2>&1
      elapsed "$work/report" >> "$work/$v"
      grep -E "^  (faults|copies) " "$work/report" | head -2 | sed "s/^/    [$v $i] /" || true
    done
    for part in "$work"/out-a/part-r-*; do
      cmp -s "$part" "$work/out-b/$(basename "$part")" || { echo "$name: run $i: $(basename "$part") differs"; exit 1; }
    done
  done
  local ma mb
  ma=$(median < "$work/a"); mb=$(median < "$work/b")
  echo "$name: [$a] median ${ma} s, [$b] median ${mb} s, ratio $(awk -v x="$ma" -v y="$mb" 'BEGIN { printf "%.3f", x / y }'); outputs byte-identical in all $runs runs"
  echo "    [$a] runs: $(tr '\n' ' ' < "$work/a")"
  echo "    [$b] runs: $(tr '\n' ' ' < "$work/b")"
}

echo "input: $input, $(stat -c %s "$input") bytes; $runs runs each"
[ "$which" = stragglers ] || compare retries "--block-size 8MiB --inject task-fail:0.05,seed={i}" "--block-size 8MiB"
[ "$which" = retries ] && exit 0
compare straggler-unknown "--inject node-slow:1,factor=0.1 --no-speculative" "--inject node-slow:1,factor=0.1 --speculative"
compare straggler-known "--cluster 1x(1m,1r,1.0)+1x(1m,1r,0.1) --no-speculative" "--cluster 1x(1m,1r,1.0)+1x(1m,1r,0.1) --speculative"
