#!/usr/bin/env bash
# The figures of `mrlocal serve` (README, "mrlocal serve"): submit and status throughput
# and latency over loopback with 1,000 jobs queued, and the server's memory while 100,000
# small jobs go through it. Starts its own server on a free port, in a scratch directory
# it removes at the end.
# Serve options after STREAM_JOBS go to the second server (e.g. --signature-window 10s).
#   bash tools/bench/bench_serve.sh [BUILD_DIR] [STREAM_JOBS] [SERVE OPTION...]
set -euo pipefail
build=${1:-build}
stream_jobs=${2:-100000}
shift $(($# < 2 ? $# : 2))
mrlocal="$build/mrlocal"
load="$build/bench_serve_load"
dir=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT
pid=

source "$(dirname "${BASH_SOURCE[0]}")/serve_common.sh"

echo "== submit and status with 1,000 jobs queued (cluster 1x(1m,1r,1.0), policy fifo)"
start_serve "$mrlocal" "$dir/queued" --no-pin --cluster "1x(1m,1r,1.0)" --policy fifo \
  --max-jobs 1000000 --grace 1ms
"$load" --server "$url" --key "$dir/queued.key" fill 1000 4
for clients in 1 4; do
  "$load" --server "$url" --key "$dir/queued.key" submit 2000 "$clients"
  "$load" --server "$url" --key "$dir/queued.key" status 5000 "$clients"
done
kill -TERM "$pid"; wait "$pid" || true

echo "== memory while $stream_jobs small jobs go through (cluster 1x(2m,1r,1.0), policy dynprio)"
start_serve "$mrlocal" "$dir/stream" --no-pin --cluster "1x(2m,1r,1.0)" --policy dynprio \
  --max-jobs 200 --grace 1ms "$@"
"$load" --server "$url" --key "$dir/stream.key" stream "$stream_jobs" 4 "$pid" | grep -v '^stream'
kill -TERM "$pid"; wait "$pid" || true
