#!/usr/bin/env bash
# WordCount end to end, whole-process wall time, on ~500 MB of real English text: the
# texts of ../shared/datasets/text (gcide unpacked, KJV, Gutenberg, WikiText) concatenated
# and repeated. Prints MB/s (10^6 bytes) for 1 and 2 map slots and the peak RSS.
#
#   tools/bench/bench_wordcount_e2e.sh [BUILD_DIR] [RUNS]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build}
runs=${2:-3}
work=${TMPDIR:-/tmp}/mrlocal-bench
input=$("$root/tools/bench/make_text500.sh")
bytes=$(stat -c %s "$input")
cat "$input" > /dev/null  # page cache, as for every run after the first
echo "input: $input, $bytes bytes"
for cluster in "1x(1m,1r,1.0)" "2x(1m,1r,1.0)"; do
  best=""
  for ((i = 0; i < runs; i++)); do
    /usr/bin/time -f "%e %M" -o "$work/time" "$build/mrlocal" wordcount "$input" -q --cluster "$cluster" > /dev/null
    read -r wall rss_kb < "$work/time"
    mbs=$(awk -v b="$bytes" -v t="$wall" 'BEGIN { printf "%.1f", b / 1e6 / t }')
    echo "cluster $cluster run $((i + 1)): ${wall} s, ${mbs} MB/s, peak RSS $((rss_kb / 1024)) MiB"
  done
done
