#!/usr/bin/env bash
# DynamicShare's skew figures (Figs. 8-12) on the real engine: friend-count on graphs with
# controlled skew, on a heterogeneous cluster made by throttling. Writes OUT_DIR/runs.csv
# (one row per run), figN.csv, figN.svg and figures.md (tables, goals, the model beside
# each measurement). Runs alternate between partitioners (the machine is shared).
#
#   tools/bench/bench_skew_figures.sh OUT_DIR [fig8] [psweep] [real] [plan]   (default: all)
#   environment: BUILD (build dir, default build), RUNS (runs per point, default 3)
#
#   fig8    reduce phase against skewness, p = R: hash, lb, dp (Fig. 8)
#   psweep  reduce phase and Balance against p = R, 2R, 4R, 6R, 10R on two skewed graphs: hash,
#           lb, lb-sketch, dp, dp-sketch (Figs. 9, 10, 11, 12)
#   real    the shared graphs (facebook_combined, soc-Slashdot0902), p = R and 4R
#   plan    plan time at 45 partitions, with and without sketches (bench_partitioner)
#
# The cluster: two full-speed map slots (the map phase ends before the reduce phase
# starts), then 8 reduce slots at speeds 0.5, 0.5, 0.25, 0.25, 0.125 x 4: 2.0 cores in
# all, 1.0 per core (reduce slots go round-robin over the 2 CPUs), a 4:1 spread of speeds.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${BUILD:-$root/build}
runs=${RUNS:-3}
[ $# -ge 1 ] || { echo "usage: $0 OUT_DIR [fig8] [psweep] [real] [plan]" >&2; exit 2; }
out=$1
shift
what=${*:-fig8 psweep real plan}
for w in $what; do
  case $w in fig8 | psweep | real | plan) ;; *) echo "$0: unknown experiment '$w' (fig8, psweep, real, plan)" >&2; exit 2 ;; esac
done
mkdir -p "$out/work"
work=$out/work
mrlocal=$build/mrlocal
figures=$root/tools/bench/skew_figures.py
cluster="2x(1m,0r,1.0)+2x(0m,1r,0.5)+2x(0m,1r,0.25)+4x(0m,1r,0.125)"
R=8
shared=$root/../shared/datasets/graphs

# The base graph: power-law degrees (max/mean distinct degree 300), 20,000 users.
base=$work/base.txt
[ -s "$base" ] || "$mrlocal" gen graph --nodes 20000 --edges 80000 --skew 300 --seed 1 -o "$base"

# star FILE HUBS LEAVES: HUBS users (ids 1,000,000 + 7919 k) with LEAVES new friends each
# (ids from 10,000,000 up), the skewed tuple sizes of the paper (a user with a huge list).
star() {
  [ -s "$1" ] || awk -v hubs="$2" -v leaves="$3" 'BEGIN {
    for (k = 0; k < hubs; k++) for (i = 0; i < leaves; i++)
      printf "%d\t%d\n", 1000000 + 7919 * k, 10000000 + k * 1000000 + i }' > "$1"
}

# run FIG DATASET PARTITIONER P RUN FILE... [-- EXTRA OPTIONS...]
run() {
  local fig=$1 ds=$2 part=$3 p=$4 n=$5
  shift 5
  local files=() extra=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do files+=("$1"); shift; done
  [ $# -gt 0 ] && shift && extra=("$@")
  rm -rf "$work/rep"
  "$mrlocal" friendcount "${files[@]}" -q --cluster "$cluster" --reduces $R --partitions "$p" \
    --partitioner "$part" --report "$work/rep" "${extra[@]}" > /dev/null
  python3 "$figures" record "$out/runs.csv" "$work/rep" "$fig" "$ds" "$part" "$p" "$n" "$cluster"
}

if [[ " $what " == *" fig8 "* ]]; then
  echo "fig8: reduce phase against skewness, p = R = $R"
  # One hub of L leaves on top of the base graph: the skewness at p = R grows with L
  # (one star can reach at most (R + 1) / 2 x the mean partition: 77.8 % at R = 8).
  for L in 0 10000 30000 80000 300000; do star "$work/star-1x$L.txt" 1 "$L"; done
  for ((n = 1; n <= runs; n++)); do
    for L in 0 10000 30000 80000 300000; do
      for part in hash lb dp; do
        run fig8 "hub-$L" $part $R $n "$base" "$work/star-1x$L.txt"
      done
    done
  done
fi

if [[ " $what " == *" psweep "* ]]; then
  echo "psweep: reduce phase against p (Figs. 9-12)"
  # The most skewed graph of fig8 whose runs stay short (one hub of 80,000), and 16 hubs of
  # 20,000 whose partitions more partitions (and other sketch rows) can split.
  star "$work/star-1x80000.txt" 1 80000
  star "$work/star-16x20000.txt" 16 20000
  for ((n = 1; n <= runs; n++)); do
    for ds in hub-80000 hubs-16x20000; do
      if [ $ds = hub-80000 ]; then s=$work/star-1x80000.txt; else s=$work/star-16x20000.txt; fi
      run psweep $ds hash $R $n "$base" "$s"
      for k in 1 2 4 6 10; do
        for part in lb lb-sketch dp dp-sketch; do
          run psweep $ds $part $((k * R)) $n "$base" "$s"
        done
      done
    done
  done
fi

if [[ " $what " == *" real "* ]]; then
  echo "real: the shared graphs"
  slashdot=$work/soc-Slashdot0902.txt  # unpacked: a .gz is one split, this gives 3 maps
  [ -s "$slashdot" ] || gzip -dc "$shared/soc-Slashdot0902.txt.gz" > "$slashdot"
  for ((n = 1; n <= runs; n++)); do
    for ds in facebook slashdot; do
      if [ $ds = facebook ]; then f=$shared/facebook_combined.txt; else f=$slashdot; fi
      run real $ds hash $R $n "$f" -- --block-size 4MiB
      for part in lb lb-sketch dp dp-sketch; do
        for k in 1 4; do run real $ds $part $((k * R)) $n "$f" -- --block-size 4MiB; done
      done
    done
  done
fi

if [[ " $what " == *" plan "* ]]; then
  echo "plan: time to plan 45 partitions (bench_partitioner)"
  "$build/bench_partitioner" --benchmark_filter='Paper' --benchmark_format=csv \
    > "$out/plan.csv" 2> /dev/null
  cat "$out/plan.csv"
fi

if [ -s "$out/runs.csv" ]; then
  python3 "$figures" summarize "$out/runs.csv" "$out"
  plot() {  # plot NAME TITLE XLABEL YLABEL [plot_csv options]
    [ "$(wc -l < "$out/$1.csv")" -gt 1 ] || return 0
    "$build/plot_csv" "$out/$1.csv" -o "$out/$1.svg" --title "$2" --x-label "$3" --y-label "$4" \
      --subtitle "friend-count, R = $R reduce slots at speeds 0.5-0.125; median of $runs runs, min-max whiskers" \
      "${@:5}"
  }
  plot fig8 "Fig. 8: reduce phase against skewness (p = R)" "skewness of the partitions (%)" "reduce phase (ms)"
  for ds in hub-80000 hubs-16x20000; do
    plot "fig9-$ds" "Fig. 9: hash, LB and DP against p ($ds)" "partitions p" "reduce phase (ms)"
    plot "fig10-$ds" "Fig. 10: Balance against p ($ds)" "partitions p" "Balance (%)"
    plot "fig11-$ds" "Fig. 11: DP with and without sketches ($ds)" "partitions p" "reduce phase (ms)"
    plot "fig12-$ds" "Fig. 12: LB and DP, both with sketches ($ds)" "partitions p" "reduce phase (ms)"
  done
  echo "wrote $out/figures.md and the charts"
fi
