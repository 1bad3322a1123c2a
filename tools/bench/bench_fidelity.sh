#!/usr/bin/env bash
# Fidelity of the simulator: runs a small mixed workload (WordCount, friend-count, Pi;
# 20 jobs) for real and in simulation with the same calibrated model, and prints each
# job's completion time (finish - arrival) both ways and the median absolute relative error.
#
#   tools/bench/bench_fidelity.sh [BUILD_DIR] [SPEC] [extra mrlocal workload options...]
# e.g. tools/bench/bench_fidelity.sh build tools/bench/fidelity_workload.json --calibration cal.json
set -euo pipefail
build=${1:-build}
spec=${2:-tools/bench/fidelity_workload.json}
shift $(( $# >= 2 ? 2 : $# ))
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$build/mrlocal" workload "$spec" --report "$out/real" -q "$@" > "$out/real.txt"
"$build/mrlocal" workload "$spec" --sim --report "$out/sim" -q "$@" > "$out/sim.txt"
# jobs.csv columns: 2 name, 12 response_s (header on line 1).
paste -d, <(cut -d, -f2,12 "$out/real/jobs.csv") <(cut -d, -f12 "$out/sim/jobs.csv") |
  awk -F, -v errs="$out/errors" '
    NR == 1 { printf "%-8s %10s %10s %8s\n", "job", "real_s", "sim_s", "error"; next }
    { err = ($3 - $2) / $2; if (err < 0) err = -err; print err > errs;
      printf "%-8s %10.3f %10.3f %7.1f%%\n", $1, $2, $3, 100 * err }'
sort -g "$out/errors" |
  awk '{ e[NR] = $1 } END { m = (NR % 2) ? e[(NR + 1) / 2] : (e[NR / 2] + e[NR / 2 + 1]) / 2;
         printf "median absolute error %.1f%% over %d jobs (target <= 15%%)\n", 100 * m, NR }'
grep -E 'makespan' "$out/real.txt" | sed 's/^/real: /'
grep -E 'makespan' "$out/sim.txt" | sed 's/^/sim:  /'
