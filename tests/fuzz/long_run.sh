#!/usr/bin/env bash
# The longer runs whose figures tests/fuzz/README.md gives: each fuzzer in turn (one at a
# time, niced) for RUNS inputs or SECONDS, whichever comes first, from its seeds and the
# corpus of earlier long runs in OUT/<fuzzer> (merged first). Prints one line per fuzzer:
# executions, exec/s, coverage (libFuzzer's cov: edges) and findings; a finding's input
# stays in OUT/<fuzzer>/ (crash-*, leak-*, timeout-*, oom-*).
#
# libFuzzer's -timeout is wall-clock time, and a niced fuzzer on a busy machine may wait
# over a second for a CPU: a timeout whose input then runs in under a second three times
# is counted as "starved" (renamed starved-*) and fuzzing resumes; any other finding ends
# the fuzzer's run.
#   long_run.sh BUILD_DIR OUT RUNS SECONDS [FUZZER...]
set -uo pipefail
build=$1 out=$2 runs=$3 seconds=$4
shift 4
src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fuzzers=("$@")
[ ${#fuzzers[@]} -gt 0 ] || fuzzers=(cluster_spec_fuzz units_fuzz store_namespace_fuzz
  swim_trace_fuzz split_reader_fuzz edge_list_fuzz workload_spec_fuzz history_file_fuzz
  calibration_file_fuzz)

# True when the input `$2` runs under `$1` within the 1 s timeout three times in a row, not
# niced: the replay asks whether the input is slow, not whether the machine is busy.
replays_fast() {
  for _ in 1 2 3; do
    "$1" -timeout=1 -rss_limit_mb=2048 "$2" >/dev/null 2>&1 || return 1
  done
}

for f in "${fuzzers[@]}"; do
  dir="$out/$f"
  mkdir -p "$dir/corpus"
  max_len=4096
  case "$f" in split_reader_fuzz | edge_list_fuzz) max_len=1024 ;; esac  # as CMakeLists.txt
  # A restart reloads the corpus, and a long run's corpus, unmerged, can take minutes to
  # load on a busy machine: first merge it to the inputs that add coverage (fuzzer's own).
  if [ -n "$(ls -A "$dir/corpus")" ]; then
    rm -rf "$dir/corpus.merged" && mkdir "$dir/corpus.merged"
    if "$build/$f" -merge=1 -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" \
      "$dir/corpus.merged" "$dir/corpus" >"$dir/merge.log" 2>&1; then
      rm -rf "$dir/corpus" && mv "$dir/corpus.merged" "$dir/corpus"
    else
      rm -rf "$dir/corpus.merged"
    fi
  fi
  start=$(date +%s) execs=0 segment=0 starved=0 end="ran out its budget"
  while :; do
    segment=$((segment + 1))
    left_runs=$((runs - execs)) left_time=$((seconds - ($(date +%s) - start)))
    [ "$left_runs" -gt 0 ] && [ "$left_time" -gt 0 ] || break
    nice -n 19 "$build/$f" -seed="$segment" -runs="$left_runs" -max_total_time="$left_time" \
      -timeout=1 -rss_limit_mb=2048 -max_len="$max_len" -print_final_stats=1 \
      -artifact_prefix="$dir/" "$dir/corpus" "$src/corpus/$f" >"$dir/log.$segment" 2>&1
    rc=$?
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log.$segment")
    execs=$((execs + ${n:-0}))
    [ "$rc" -eq 0 ] && continue
    t=$(ls "$dir"/timeout-* 2>/dev/null | head -1)
    if [ -n "$t" ] && replays_fast "$build/$f" "$t"; then
      mv "$t" "$dir/starved-$(basename "$t")"
      starved=$((starved + 1))
      continue
    fi
    end="stopped by a finding (exit $rc, log.$segment)"
    break
  done
  wall=$(($(date +%s) - start))
  cov=$(cat "$dir"/log.* | grep -oE 'cov: [0-9]+' | cut -d' ' -f2 | sort -n | tail -1)
  found=$(ls "$dir" | grep -cE '^(crash|leak|timeout|oom|slow-unit)-')
  echo "$f executions $execs wall ${wall}s exec/s $((execs / (wall > 0 ? wall : 1)))" \
    "cov ${cov:-?} findings $found starved-timeouts $starved segments $segment: $end"
done
