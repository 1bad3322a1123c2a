# Sourced by the `mrlocal serve` benchmarks (bench_serve.sh, bench_serve_decisions.sh,
# bench_serve_two_queues.sh).
#
# start_serve MRLOCAL STATE [SERVE OPTION...]: an admin key STATE.key, then `mrlocal serve`
# on a free loopback port in the background, its stderr in STATE.log; waits until it
# listens and sets `pid` and `url`. Returns 1, printing its log, when it does not start.
start_serve() {
  local mrlocal=$1 state=$2
  shift 2
  "$mrlocal" keys add root --role admin --state "$state" -o "$state.key" 2>/dev/null
  "$mrlocal" serve --listen 127.0.0.1:0 --state "$state" "$@" 2>"$state.log" &
  pid=$!
  url=
  for _ in $(seq 200); do
    url=$(grep -o 'http://127.0.0.1:[0-9]*' "$state.log" | head -1) && [ -n "$url" ] && return 0
    sleep 0.05
  done
  echo "the server did not start" >&2
  cat "$state.log" >&2
  return 1
}
