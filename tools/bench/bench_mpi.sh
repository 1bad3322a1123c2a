#!/usr/bin/env bash
# mrlocal over MPI ranks (issue 18; page: sched/dist/README.md). Keep the machine otherwise
# idle. Output goes to $TMPDIR/mrlocal-bench/mpi/.
#
#   tools/bench/bench_mpi.sh ranks FILE [BUILD_DIR]   WordCount on FILE with 1, 2 and 4 ranks
#       on this host (shared memory), one cluster for all (4x(1m,1r,1.0)), with hash and
#       dp-sketch partitioning: time, and bytes fetched across ranks.
#   tools/bench/bench_mpi.sh mrmpi FILE [BUILD_DIR]   the same WordCount on MR-MPI
#       (bench_mrmpi_wordcount, with and without its combiner) beside mrlocal, on 1, 2 and
#       4 ranks, in one run.
#   tools/bench/bench_mpi.sh netns FILE [BUILD_DIR]   2 ranks on two emulated hosts: network
#       namespaces joined by a veth pair shaped to 1 Gbit/s (tc tbf), mpirun launching the
#       second host's daemon through `ip netns exec` instead of ssh. Needs root.
#   tools/bench/bench_mpi.sh calibrate GRAPH [BUILD_DIR] friend lists of GRAPH on 2 ranks over
#       shared memory and over the 1 Gbit/s link, 3 times: the reduce phase's extra time
#       against the bytes that crossed (the simulated network's calibration).
#   tools/bench/bench_mpi.sh control [BUILD_DIR]      the control loop's cost per task with
#       slots on other ranks (bench_control_loop, one process against mpirun -np 2 and 4).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
mode=${1:?usage: bench_mpi.sh ranks|mrmpi|netns|calibrate FILE [BUILD_DIR] | control [BUILD_DIR]}
if [ "$mode" = control ]; then build=${2:-$root/build}; else
  file=$(realpath "${2:?a FILE to count}"); build=${3:-$root/build}; fi
work=${TMPDIR:-/tmp}/mrlocal-bench/mpi
mkdir -p "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
shm=(--mca btl self,vader --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo)
cluster='4x(1m,1r,1.0)'
cleanup() { ip netns del mrl-a 2>/dev/null || true; ip netns del mrl-b 2>/dev/null || true; }

# Two emulated hosts: network namespaces mrl-a (10.77.0.1) and mrl-b (10.77.0.2) joined by
# a veth pair shaped to $LINK_RATE (default 1gbit); sets `net`, the mpirun options.
two_hosts() {
  trap cleanup EXIT
  cleanup
  ip netns add mrl-a && ip netns add mrl-b
  ip link add mrl-va type veth peer name mrl-vb
  ip link set mrl-va netns mrl-a && ip link set mrl-vb netns mrl-b
  ip -n mrl-a addr add 10.77.0.1/24 dev mrl-va && ip -n mrl-b addr add 10.77.0.2/24 dev mrl-vb
  for ns in mrl-a mrl-b; do ip -n $ns link set lo up; done
  ip -n mrl-a link set mrl-va up && ip -n mrl-b link set mrl-vb up
  tc -n mrl-a qdisc add dev mrl-va root tbf rate "${LINK_RATE:-1gbit}" burst 256kb latency 50ms
  tc -n mrl-b qdisc add dev mrl-vb root tbf rate "${LINK_RATE:-1gbit}" burst 256kb latency 50ms
  printf '10.77.0.1 slots=1\n10.77.0.2 slots=1\n' > "$work/hosts"
  # mpirun's "ssh": run the daemon's command line in the other namespace.
  cat > "$work/netns-agent" <<'EOF'
#!/bin/sh
host=$1; shift
case $host in 10.77.0.1) ns=mrl-a ;; *) ns=mrl-b ;; esac
exec ip netns exec $ns /bin/sh -c "$*"
EOF
  chmod +x "$work/netns-agent"
  # Both "hosts" are this machine's cores: mpirun would bind each rank to core 0 of its host.
  net=(--hostfile "$work/hosts" --mca plm_rsh_agent "$work/netns-agent" --bind-to none
       --mca btl self,tcp --mca btl_tcp_if_include 10.77.0.0/24
       --mca oob_tcp_if_include 10.77.0.0/24 -x OMPI_ALLOW_RUN_AS_ROOT
       -x OMPI_ALLOW_RUN_AS_ROOT_CONFIRM)
}


# mrlocal's closing report: wall time, and what crossed between ranks.
summary() {
  local label=$1 log=$2
  local secs bytes
  secs=$(grep -oE 'SUCCEEDED in [0-9.]+ (ms|s)' "$log" | awk '{v=$3; if ($4=="ms") v/=1000; print v}')
  bytes=$(grep -oE 'ranks +[0-9.]+ [KMG]?i?B' "$log" | awk '{print $2, $3}' || true)
  printf '%-34s %8.2f s  %6.1f MB/s  across ranks: %s\n' "$label" "$secs" \
    "$(awk -v s="$secs" -v b="$(stat -c %s "$file")" 'BEGIN{print b/1e6/s}')" "${bytes:-0 B}"
}

run_mrlocal() {  # ranks partitioner
  local n=$1 part=$2 log=$work/mrlocal-$1-$2.log
  local args=(wordcount "$file" --cluster "$cluster" --reduces 4 --partitioner "$part" -q)
  [ "$part" = hash ] && args+=(--partitions 4)
  if [ "$n" = 1 ]; then "$build/mrlocal" "${args[@]}" > "$log"
  else mpirun -np "$n" "${shm[@]}" "$build/mrlocal" "${args[@]}" > "$log"; fi
  summary "mrlocal $n rank(s), $part" "$log"
}

case $mode in
  ranks)
    for part in dp-sketch hash; do
      for n in 1 2 4; do run_mrlocal "$n" "$part"; done
    done ;;
  mrmpi)
    for n in 1 2 4; do
      run_mrlocal "$n" dp-sketch
      for combine in "" --combine; do
        mpirun -np "$n" "${shm[@]}" "$build/bench_mrmpi_wordcount" "$file" $combine
      done
    done ;;
  control)
    # Rank 0's node first: "1x(0m,1r,1.0)+..." leaves every map slot on rank 1 (remote).
    for c in '2x(1m,1r,1.0)' '1x(0m,1r,1.0)+1x(1m,1r,1.0)' '2x(4m,1r,1.0)' \
             '1x(0m,1r,1.0)+1x(4m,1r,1.0)'; do
      "$build/bench_control_loop" --tasks 20000 --runs 5 --cluster "$c" | grep median
      mpirun -np 2 "${shm[@]}" "$build/bench_control_loop" --tasks 20000 --runs 5 \
        --cluster "$c" | grep median
    done
    mpirun -np 4 "${shm[@]}" "$build/bench_control_loop" --tasks 20000 --runs 5 \
      --cluster '4x(1m,1r,1.0)' | grep median ;;
  netns)
    two_hosts
    for part in dp-sketch hash; do
      args=(wordcount "$file" --cluster "$cluster" --reduces 4 --partitioner "$part" -q)
      [ "$part" = hash ] && args+=(--partitions 4)
      log=$work/netns-$part.log
      ip netns exec mrl-a mpirun -np 2 "${net[@]}" "$build/mrlocal" "${args[@]}" > "$log"
      summary "mrlocal 2 hosts at 1 Gbit/s, $part" "$log"
    done ;;
  calibrate)
    # The simulated network's calibration (sched/sim/network_model.h): friend lists of FILE (a
    # graph with a large shuffle) on 2 ranks over shared memory and over the 1 Gbit/s link;
    # the reduce phase's extra time against the bytes that crossed.
    two_hosts
    args=(friendcount "$file" --list --cluster "$cluster" --reduces 4 --block-size 16MiB -q)
    for i in 1 2 3; do
      mpirun -np 2 --bind-to none "${shm[@]}" "$build/mrlocal" "${args[@]}" > "$work/cal-shm-$i.log"
      ip netns exec mrl-a mpirun -np 2 "${net[@]}" "$build/mrlocal" "${args[@]}" \
        > "$work/cal-net-$i.log"
      for where in shm net; do
        printf '%s run %d: %s; %s\n' $where $i \
          "$(grep -oE 'reduce [0-9.]+ (ms|s)' "$work/cal-$where-$i.log")" \
          "$(grep -oE '[0-9.]+ [KMG]iB of map output fetched' "$work/cal-$where-$i.log")"
      done
    done ;;
  *) echo "bench_mpi.sh: error: mode must be ranks, mrmpi, netns, calibrate or control" >&2
     exit 2 ;;
esac
