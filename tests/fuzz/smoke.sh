#!/usr/bin/env bash
# A fuzzer's smoke run (ctest -L fuzz): its seed corpus replayed, then RUNS mutated inputs
# of at most MAX_LEN bytes from a fixed seed. New inputs go to a scratch corpus in the build
# tree, never to the seeds in the repository; the head of each DATASET that exists is an
# extra seed.
#   smoke.sh FUZZER SEED_DIR WORK_DIR RUNS MAX_LEN [DATASET...]
set -euo pipefail
fuzzer=$1 seeds=$2 work=$3 runs=$4 max_len=$5
shift 5
rm -rf "$work"
mkdir -p "$work/corpus" "$work/datasets"
for f in "$@"; do
  [ -f "$f" ] || continue
  out="$work/datasets/$(basename "$f")"
  # The first 4 KB only: libFuzzer's inputs are no longer than its largest seed (or
  # MAX_LEN: it cuts longer ones).
  case "$f" in
    *.gz) { gzip -dc "$f" 2>/dev/null || true; } | head -c 4096 | gzip -n >"$out" ;;
    *) head -c 4096 "$f" >"$out" ;;
  esac
done
exec "$fuzzer" -seed=1 -runs="$runs" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix="$work/" "$work/corpus" "$seeds" "$work/datasets"
