#!/usr/bin/env bash
# The figures of `mrlocal serve` (README, "mrlocal serve"): submit and status throughput
# and latency over loopback with 1,000 jobs queued, and the server's memory while 100,000
# small jobs go through it. Starts its own server on a free port, in a scratch directory
# it removes at the end.
#   bash tools/bench/bench_serve.sh [BUILD_DIR] [STREAM_JOBS]
set -euo pipefail
build=${1:-build}
stream_jobs=${2:-100000}
mrlocal="$build/mrlocal"
load="$build/bench_serve_load"
dir=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$dir"' EXIT

start_server() {  # $1: a state directory of its own; then serve options. Sets pid and url.
  local state="$dir/$1"
  shift
  "$mrlocal" keys add root --role admin --state "$state" -o "$state.key" 2>/dev/null
  "$mrlocal" serve --listen 127.0.0.1:0 --state "$state" --no-pin "$@" 2>"$dir/serve.log" &
  pid=$!
  for _ in $(seq 200); do
    url=$(grep -o 'http://127.0.0.1:[0-9]*' "$dir/serve.log" | head -1) && [ -n "$url" ] && return
    sleep 0.05
  done
  echo "the server did not start" >&2; cat "$dir/serve.log" >&2; exit 1
}

echo "== submit and status with 1,000 jobs queued (cluster 1x(1m,1r,1.0), policy fifo)"
start_server queued --cluster "1x(1m,1r,1.0)" --policy fifo --max-jobs 1000000 --grace 1ms
"$load" --server "$url" --key "$dir/queued.key" fill 1000 4
for clients in 1 4; do
  "$load" --server "$url" --key "$dir/queued.key" submit 2000 "$clients"
  "$load" --server "$url" --key "$dir/queued.key" status 5000 "$clients"
done
kill -TERM "$pid"; wait "$pid" || true

echo "== memory while $stream_jobs small jobs go through (cluster 1x(2m,1r,1.0), policy dynprio)"
start_server stream --cluster "1x(2m,1r,1.0)" --policy dynprio --max-jobs 200 --grace 1ms
"$load" --server "$url" --key "$dir/stream.key" stream "$stream_jobs" 4 "$pid" | grep -v '^stream'
kill -TERM "$pid"; wait "$pid" || true
