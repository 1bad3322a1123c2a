#!/usr/bin/env bash
# WordCount end to end, whole-process wall time, side by side in one run: mrlocal, the
# hand-written counter (tools/bench/hand_wordcount.cc) and, when PHOENIX names a checkout of
# Phoenix++ (github.com/kozyraki/phoenix, or its phoenix++-1.0 directory), Phoenix++'s
# word_count, built here from a copy of that checkout (never fetched, never built in place).
# At 1 and 2 threads (mrlocal: that many map and reduce slots), RUNS rounds, the engines
# alternating within each round. Prints one line per run, then per thread count each
# engine's median time, MB/s (10^6 bytes) and peak RSS, and the ratio of mrlocal's speed
# to each other engine's (above 1: mrlocal is faster).
#
#   [PHOENIX=DIR] tools/bench/bench_wordcount_e2e.sh [BUILD_DIR] [RUNS] [INPUT]
#
# INPUT defaults to ~500 MB of real English text (tools/bench/make_text500.sh). Phoenix++
# reads its whole input into memory first (its word_count defines NO_MMAP); mrlocal and the
# counter map it.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build}
runs=${2:-3}
input=${3:-$("$root/tools/bench/make_text500.sh")}
work=${TMPDIR:-/tmp}/mrlocal-bench
mkdir -p "$work"
[ -x "$build/mrlocal" ] && [ -x "$build/hand_wordcount" ] ||
  { echo "bench_wordcount_e2e: build mrlocal and hand_wordcount in $build first" >&2; exit 2; }
[ -r "$input" ] || { echo "bench_wordcount_e2e: cannot read $input" >&2; exit 2; }

phoenix_bin=""
if [ -n "${PHOENIX:-}" ]; then
  src=$PHOENIX
  [ -d "$src/phoenix++-1.0" ] && src=$src/phoenix++-1.0
  [ -f "$src/tests/word_count/word_count.cpp" ] ||
    { echo "bench_wordcount_e2e: PHOENIX=$PHOENIX holds no Phoenix++ word_count" >&2; exit 2; }
  copy=$work/phoenix++
  rm -rf "$copy" && cp -r "$src" "$copy"
  # Phoenix++ 1.0 predates GCC's two-phase name lookup (-fpermissive), and its library's
  # Makefile copies into a lib/ it does not make.
  mkdir -p "$copy/lib"
  { make -C "$copy/src" -s CXX="g++ -fpermissive -w" &&
    make -C "$copy/tests/word_count" -s CXX="g++ -fpermissive -w"; } > "$work/phoenix-build.log" 2>&1 ||
    { echo "bench_wordcount_e2e: building Phoenix++ failed; see $work/phoenix-build.log" >&2; exit 1; }
  phoenix_bin=$copy/tests/word_count/word_count
fi

bytes=$(stat -c %s "$input")
cat "$input" > /dev/null  # page cache, as for every run after the first
echo "input: $input, $bytes bytes"

# run NAME THREADS CMD...: one timed run, appended to $work/e2e.runs as "name threads s kib".
: > "$work/e2e.runs"
run() {
  local name=$1 threads=$2
  shift 2
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" > /dev/null 2> "$work/stderr" ||
    { echo "$name failed:" >&2; cat "$work/stderr" >&2; exit 1; }
  read -r wall rss_kb < "$work/time"
  echo "$name $threads $wall $rss_kb" >> "$work/e2e.runs"
  awk -v n="$name" -v t="$threads" -v w="$wall" -v k="$rss_kb" -v b="$bytes" \
    'BEGIN { printf "%-8s %d thread(s): %6.2f s, %7.1f MB/s, peak RSS %5d MiB\n", n, t, w, b / 1e6 / w, k / 1024 }'
}

for threads in 1 2; do
  for ((i = 0; i < runs; i++)); do
    run mrlocal "$threads" "$build/mrlocal" wordcount "$input" -q --cluster "${threads}x(1m,1r,1.0)"
    run hand "$threads" "$build/hand_wordcount" "$input" "$threads"
    [ -z "$phoenix_bin" ] || run phoenix "$threads" env MR_NUMTHREADS="$threads" "$phoenix_bin" "$input"
  done
done

echo "medians:"
awk -v b="$bytes" '
  { t[$1 " " $2] = t[$1 " " $2] " " $3; r[$1 " " $2] = r[$1 " " $2] " " $4 }
  function median(list,   a, n, i, j, x) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { x = a[j]; a[j] = a[j - 1]; a[j - 1] = x }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  END {
    for (threads = 1; threads <= 2; threads++) {
      m = median(t["mrlocal " threads])
      split("mrlocal hand phoenix", names, " ")
      for (k = 1; k <= 3; k++) {
        key = names[k] " " threads
        if (!(key in t)) continue
        s = median(t[key])
        line = sprintf("%-8s %d thread(s): %6.2f s, %7.1f MB/s, peak RSS %5d MiB", names[k], threads, s, b / 1e6 / s, median(r[key]) / 1024)
        if (names[k] != "mrlocal") line = line sprintf(", mrlocal %.2fx its speed", s / m)
        print line
      }
    }
  }' "$work/e2e.runs"
