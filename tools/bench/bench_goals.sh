#!/usr/bin/env bash
# Reverse-Adaptive's experiments 1-3 (sched/policy/reverse-adaptive.md): goal misses against
# the offered load for every policy, in simulation, on the presets ra-alone, ra-web and
# ra-bursty; then reverse-adaptive under each forecast (known, learned, constant, and known
# but a quarter of a day early or late) on ra-web. Prints every table and writes the
# reports and charts to $TMPDIR/mrlocal-bench/goals-*/ (sweep.md, sweep.csv, sweep.svg).
#
#   tools/bench/bench_goals.sh [BUILD_DIR] [SEEDS] [LOADS]
#
# Defaults: 20 seeds, load=0.2:1.2:0.2; about a minute on 2 cores. The real engine's runs
# are a command each in the page (they take an hour).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build}
seeds=${2:-20}
loads=${3:-load=0.2:1.2:0.2}
mrlocal=$build/mrlocal
work=${TMPDIR:-/tmp}/mrlocal-bench
mkdir -p "$work"
policies=fifo,fair,edf,llf,adaptive,reverse-adaptive

sweep() {  # sweep NAME PRESET POLICIES ARGS...: one sweep, its table and chart
  local name=$1 preset=$2 pols=$3
  shift 3
  echo "## $name: mrlocal compare --preset $preset --sim --policies $pols --seeds $seeds --sweep $loads $*"
  "$mrlocal" compare --preset "$preset" --sim --policies "$pols" --seeds "$seeds" \
    --sweep "$loads" "$@" -q --report "$work/goals-$name" | grep -v '^report in'
  "$build/plot_csv" "$work/goals-$name/sweep.csv" -o "$work/goals-$name/sweep.svg" \
    --title "$preset: goals missed against the load ($seeds seeds)" \
    --subtitle "mean over seeds, whiskers min-max${*:+; $*}${edf_note:-}" \
    --x-label "offered load (map work / mean map capacity)" --y-label "goals missed (%)"
  echo
}

# edf and llf read deadlines, which these jobs lack: they decide as fifo, under its line.
edf_note="; edf and llf (no deadlines here) under fifo"
for preset in ra-alone ra-web ra-bursty; do
  sweep "$preset" "$preset" "$policies"
done
edf_note=

# The forecast: one sweep per kind, then one table, columns the forecasts.
for f in known learned constant; do
  sweep "web-$f" ra-web reverse-adaptive --forecast "$f"
done
sweep web-early ra-web reverse-adaptive --param forecast-shift=-0.25
sweep web-late ra-web reverse-adaptive --param forecast-shift=0.25
{
  echo "series,x,y,ymin,ymax"
  for f in known learned constant early late; do
    tail -n +2 "$work/goals-web-$f/sweep.csv" | sed "s/^reverse-adaptive,/$f,/"
  done
} >"$work/goals-forecasts.csv"
"$build/plot_csv" "$work/goals-forecasts.csv" -o "$work/goals-forecasts.svg" \
  --title "ra-web: reverse-adaptive under each forecast ($seeds seeds)" \
  --subtitle "known: the day; early/late: the day a quarter off; constant: adaptive's view" \
  --x-label "offered load (map work / mean map capacity)" --y-label "goals missed (%)"
echo "charts: $work/goals-*/sweep.svg, $work/goals-forecasts.svg"
