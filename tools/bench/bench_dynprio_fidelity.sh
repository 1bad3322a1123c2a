#!/usr/bin/env bash
# Fidelity to granted shares against throughput (dynprio section 4.3, Fig. 7; page:
# sched/policy/dynprio.md): two queues bidding 2 : 1 under fifo, capacity and dynprio, with
# and without preemption at several intervals, over several seeds; prints each variant's
# queue means, ratio and throughput loss against fifo (dynprio_fidelity.py) and draws the
# Fig. 7 chart. Reports and charts go to $TMPDIR/mrlocal-bench/dynprio-fidelity-MODE/.
#
#   tools/bench/bench_dynprio_fidelity.sh sim|real|real-stream [BUILD_DIR] [SEEDS]
#
# sim: tools/bench/dynprio_2q_workload.json (3 s tasks, 16 map slots), 5 seeds, preemption
# after 60 s, 10 s, 3 s, 1 s and 0.3 s (20x to 0.1x a task); a few seconds.
# real: tools/bench/dynprio_2q_real_workload.json on the local cores (6 map slots, tasks of
# 0.25 s CPU, ~0.75 s on 2 cores), --allocation-interval 2s, preemption after 2.5 s, 0.75 s
# and 0.25 s; 2 seeds, about 2.5 minutes a run (35 minutes). Keep the machine otherwise idle.
# real-stream: the same with two clients per queue (dynprio_2q_real_stream_workload.json),
# so a queue always has a job waiting; fifo and dynprio without and with preemption (20
# minutes).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
mode=${1:?usage: bench_dynprio_fidelity.sh sim|real|real-stream [BUILD_DIR] [SEEDS]}
build=${2:-$root/build}
work=${TMPDIR:-/tmp}/mrlocal-bench/dynprio-fidelity-$mode
mkdir -p "$work"
case $mode in
  sim)
    seeds=${3:-5}
    spec=$root/tools/bench/dynprio_2q_workload.json
    common=(--sim) queue_args=() warmup=60
    variants=(fifo capacity capacity:1s dynprio dynprio:60s dynprio:10s dynprio:3s dynprio:1s dynprio:0.3s) ;;
  real)
    seeds=${3:-2}
    spec=$root/tools/bench/dynprio_2q_real_workload.json
    common=() queue_args=(--allocation-interval 2s) warmup=5
    variants=(fifo capacity dynprio dynprio:2.5s dynprio:0.75s dynprio:0.25s) ;;
  real-stream)
    seeds=${3:-2}
    spec=$root/tools/bench/dynprio_2q_real_stream_workload.json
    common=() queue_args=(--allocation-interval 2s) warmup=5
    variants=(fifo dynprio dynprio:0.75s dynprio:0.25s) ;;
  *) echo "bench_dynprio_fidelity.sh: error: mode must be sim, real or real-stream" >&2; exit 2 ;;
esac
labels=()
for v in "${variants[@]}"; do
  policy=${v%%:*}
  extra=()
  [[ $v == *:* ]] && extra=(--preempt "${v#*:}")
  run_args=("${common[@]}")
  [[ $policy != fifo ]] && run_args+=("${queue_args[@]}")
  dirs=()
  for seed in $(seq 1 "$seeds"); do
    dir=$work/${v/:/-preempt-}-$seed
    "$build/mrlocal" workload "$spec" --policy "$policy" ${run_args[@]+"${run_args[@]}"} ${extra[@]+"${extra[@]}"} \
      --seed "$seed" -q --report "$dir" > "$dir.txt"
    dirs+=("$dir")
  done
  labels+=("${v/:/ preempt }=$(IFS=,; echo "${dirs[*]}")")
done
echo "## $mode: $(basename "$spec"), $seeds seeds"
python3 "$root/tools/bench/dynprio_fidelity.py" "$spec" "${labels[@]}" --warmup "$warmup" \
  --csv "$work/fig7.csv"
"$build/plot_csv" "$work/fig7.csv" -o "$work/fig7.svg" --y-free \
  --title "Two queues bidding 2 : 1: fidelity and throughput ($mode, $seeds seeds)" \
  --subtitle "mean completion time per queue; ideal: 2 : 1 at fifo's throughput" \
  --x-label "queue" --y-label "mean completion time (s)"
echo "chart: $work/fig7.svg"
