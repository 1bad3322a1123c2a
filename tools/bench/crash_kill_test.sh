#!/usr/bin/env bash
# Crash safety of the whole process (issue 19; engine/crash-safety.md): kills a WordCount
# with -o, a persistent block store and a history file with `kill -9` at random moments
# (uniform over the job's clean duration, fixed seed), at each named kill point of the
# commit (MRLOCAL_KILL_AT), and kills `fs put` mid-copy. After every kill it checks what
# a user would see:
#   - the output is absent, or complete: a _SUCCESS with every part, byte-identical to a
#     clean run's (never a _SUCCESS without its parts, never a partial part file);
#   - `mrlocal history show` loads the history file; `mrlocal fs fsck` is clean;
#   - the next run with the same arguments (plus --overwrite when the killed run had
#     completed its output) succeeds, removes every temporary the kill left and says so
#     in one line each, and leaves output byte-identical to the clean run's.
# Prints the kills per phase, the clean outcomes and the longest recovery (the rerun's
# wall time); exits 0 only when every outcome was clean.
#
#   tools/bench/crash_kill_test.sh [--kills 200] [--put-kills 20] [--seed 19]
#       [--size 48MiB] [--mrlocal build/mrlocal] [--work DIR] [--no-kill-points]
set -euo pipefail

kills=200 put_kills=20 seed=19 size=48MiB work="" kill_points=1
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
mrlocal="$root/build/mrlocal"
while [ $# -gt 0 ]; do
  case "$1" in
    --kills) kills=$2; shift 2 ;;
    --put-kills) put_kills=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --mrlocal) mrlocal=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --no-kill-points) kill_points=0; shift ;;
    *) echo "crash_kill_test: unknown option '$1'" >&2; exit 2 ;;
  esac
done
mrlocal=$(cd "$(dirname "$mrlocal")" && pwd)/$(basename "$mrlocal")
if [ -z "$work" ]; then
  work=$(mktemp -d "${TMPDIR:-/tmp}/crash_kill_test.XXXXXX")
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
cd "$work"
RANDOM=$seed  # every delay below comes from this sequence

now_ms() { date +%s%3N; }
fail() { echo "crash_kill_test: FAIL: $*" >&2; failures=$((failures + 1)); }
failures=0

# The job, as a user would type it; "$@" adds --overwrite. Killed runs start the binary
# itself in the background ("$mrlocal" "${job_args[@]}" &), so that $! is its PID.
job_args=(wordcount --store store /input.txt -o out --reduces 4 --history hist.json)
job() { "$mrlocal" "${job_args[@]}" "$@"; }

# --- Set-up: an input in the store, and a clean run's output and duration. -------------
"$mrlocal" gen text --size "$size" --seed 7 -o input.txt >/dev/null 2>&1
"$mrlocal" fs --store store put input.txt /input.txt --nodes 3 --block-size 4MiB >/dev/null
cp input.txt put.txt
job -q 2>/dev/null >/dev/null  # warm the page cache and the history
rm -rf out
# The clean run as the killed ones run (with progress lines), each line stamped when it
# arrives: its duration, and when its maps start (the admission line) and end. The median
# of three runs: on a busy machine one run may take twice as long as the next.
durations=()
for k in 1 2 3; do
  rm -rf out
  t0=$(now_ms)
  job 2>&1 >clean.out.$k | while IFS= read -r line; do echo "$(( $(now_ms) - t0 )) $line"; done >clean.err.$k
  durations+=($(( $(now_ms) - t0 )))
done
clean_ms=$(printf '%s\n' "${durations[@]}" | sort -n | sed -n 2p)
for k in 1 2 3; do [ "${durations[$((k - 1))]}" = "$clean_ms" ] && cp clean.err.$k clean.err && cp clean.out.$k clean.out; done
mv out clean
maps_from=$(awk '/admitted/ { print $1; exit }' clean.err)
map_ms=$(awk '$1 == "phases" && $2 == "map" { v = $3; if ($4 ~ /^s/) v *= 1000; printf "%d", v; exit }' clean.out)
maps_to=$((maps_from + map_ms))
t0=$(now_ms)
"$mrlocal" fs --store store put put.txt /put-probe.txt >/dev/null
put_ms=$(( $(now_ms) - t0 ))
"$mrlocal" fs --store store rm /put-probe.txt >/dev/null
echo "crash_kill_test: clean run ${clean_ms} ms (maps from ${maps_from} to ${maps_to} ms)," \
     "put ${put_ms} ms, seed $seed, input $size ($(ls clean | grep -c part-r) parts), work dir $work" >&2

# Temporaries a kill may leave beside the output and the history file.
leftovers() { { ls -A . | grep -cE '^\.(out|hist\.json)\.mrlocal-tmp-'; } || true; }

# The outcome right after a kill: the output is absent or complete and identical to the
# clean run's; the history loads; the store is clean.
check_after_kill() {
  local what=$1
  if [ -e out ]; then
    [ -f out/_SUCCESS ] || fail "$what: out/ has no _SUCCESS"
    diff -r out clean >/dev/null 2>&1 || fail "$what: out/ differs from the clean run's"
  fi
  local h
  h=$("$mrlocal" history show --history hist.json 2>&1 >/dev/null) ||
    fail "$what: history does not load: $h"
  case "$h" in *corrupt*) fail "$what: history is corrupt: $h" ;; esac
  "$mrlocal" fs --store store fsck >/dev/null 2>&1 || fail "$what: fsck is not clean"
}

# The rerun a user would type; its wall time goes to the recovery figures.
rerun() {
  local what=$1 left extra=() said t r
  left=$(leftovers)
  if [ "$mode" = overwrite ] || { [ -e out ] && [ -f out/_SUCCESS ]; }; then extra=(--overwrite); fi
  t=$(now_ms)
  r=0
  job -q "${extra[@]}" >/dev/null 2>rerun.err || r=$?
  t=$(( $(now_ms) - t ))
  [ "$r" -eq 0 ] || fail "$what: rerun exited $r: $(head -c 300 rerun.err)"
  diff -r out clean >/dev/null 2>&1 || fail "$what: rerun's output differs from the clean run's"
  [ "$(leftovers)" -eq 0 ] || fail "$what: rerun left temporaries: $(ls -A | tr '\n' ' ')"
  said=$({ grep -cE '^mrlocal: (removed a stale|put back|removed .* replaced)' rerun.err; } || true)
  [ "$said" -eq "$left" ] || fail "$what: $left temporaries left, rerun said $said: $(cat rerun.err)"
  removed_total=$((removed_total + said))
  echo "$what,$mode,$left,$said,$t" >>trials.csv
  recover_sum=$((recover_sum + t)); recover_n=$((recover_n + 1))
  if [ "$t" -gt "$max_recover" ]; then max_recover=$t; fi
}

# Phase of a killed run, from what it left and printed: its output in place (after
# commit); its hidden directory with _SUCCESS, or a previous output moved aside (commit);
# its hidden directory (reduce: a reduce writes its part); else its last progress line
# ("map 100% reduce 0%": shuffle); else when it was killed, against the clean run's
# timeline (setup before its admission line, map until its maps ended, then shuffle).
phase_of() {
  local log=$1 committed=$2 delay=$3 last m r
  if [ "$committed" = 1 ]; then echo "after commit"; return; fi
  if compgen -G '.out.mrlocal-tmp-*/_SUCCESS' >/dev/null || compgen -G '.out.mrlocal-tmp-*.old' >/dev/null; then
    echo "commit"; return
  fi
  if compgen -G '.out.mrlocal-tmp-*' >/dev/null; then echo "reduce"; return; fi
  last=$({ grep -E '^mrlocal: map +[0-9]+% reduce' "$log" || true; } | tail -1)
  if [ -n "$last" ]; then
    m=$(sed -E 's/^mrlocal: map +([0-9]+)%.*/\1/' <<<"$last")
    r=$(sed -E 's/.*reduce +([0-9]+)%.*/\1/' <<<"$last")
    if [ "$m" -lt 100 ]; then echo "map"; elif [ "$r" -eq 0 ]; then echo "shuffle"; else echo "reduce"; fi
  elif [ "$delay" -lt "$maps_from" ]; then echo "setup"
  elif [ "$delay" -lt "$maps_to" ]; then echo "map"
  else echo "shuffle"; fi
}

inode() { if [ -e out ]; then stat -c %i out; else echo none; fi; }

echo "trial,mode,temporaries left,lines said,rerun ms" >trials.csv
declare -A phase_kills phase_clean
max_recover=0 removed_total=0 recover_sum=0 recover_n=0 finished_first=0

# Before trial i: "fresh" (no output, no --overwrite) or "overwrite" (a previous output).
set_mode() {
  if [ $(( $1 % 2 )) -eq 1 ]; then mode=fresh; rm -rf out; else mode=overwrite; fi
}

# --- Kills at random moments: until $kills runs were killed (a run may end first). -------
i=0 trial=0
while [ "$i" -lt "$kills" ]; do
  trial=$((trial + 1))
  set_mode "$trial"
  extra=(); [ "$mode" = overwrite ] && extra=(--overwrite)
  delay_ms=$(( (RANDOM * 32768 + RANDOM) % clean_ms ))
  before=$(inode)
  fails_before=$failures
  "$mrlocal" "${job_args[@]}" "${extra[@]}" >/dev/null 2>run.err &
  pid=$!
  sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
  kill -9 "$pid" 2>/dev/null || true
  rc=0; { wait "$pid"; } 2>/dev/null || rc=$?
  if [ "$rc" -ne 137 ]; then  # it finished first: not a kill; its output is checked below
    finished_first=$((finished_first + 1))
    [ "$rc" -eq 0 ] && diff -r out clean >/dev/null 2>&1 || fail "trial $trial: exit $rc, not a clean run"
    continue
  fi
  i=$((i + 1))
  committed=0
  [ "$(inode)" != "$before" ] && [ -f out/_SUCCESS ] && committed=1
  phase=$(phase_of run.err "$committed" "$delay_ms")
  check_after_kill "kill $i ($phase at ${delay_ms} ms)"
  rerun "kill $i ($phase at ${delay_ms} ms)"
  phase_kills[$phase]=$(( ${phase_kills[$phase]:-0} + 1 ))
  [ "$failures" -eq "$fails_before" ] && phase_clean[$phase]=$(( ${phase_clean[$phase]:-0} + 1 ))
done

# --- Kills at each named point of the reduce, the commit and the history save. ----------
point_kills=0 point_clean=0
if [ "$kill_points" = 1 ]; then
  for point in part-published commit-success-written commit-marker-removed commit-moved-aside \
               commit-renamed output-removing atomic-file-written; do
    for m in 1 2; do
      set_mode "$m"
      extra=(); [ "$mode" = overwrite ] && extra=(--overwrite)
      fails_before=$failures
      rc=0; MRLOCAL_KILL_AT=$point job -q "${extra[@]}" >/dev/null 2>&1 || rc=$?
      [ "$rc" -eq 137 ] || continue  # not on this path (nothing to replace in a fresh run)
      point_kills=$((point_kills + 1))
      check_after_kill "kill point $point ($mode)"
      rerun "kill point $point ($mode)"
      [ "$failures" -eq "$fails_before" ] && point_clean=$((point_clean + 1))
      phase_kills["kill point $point"]=$(( ${phase_kills["kill point $point"]:-0} + 1 ))
      [ "$failures" -eq "$fails_before" ] &&
        phase_clean["kill point $point"]=$(( ${phase_clean["kill point $point"]:-0} + 1 ))
    done
  done
fi

# --- Kills of `fs put`: the store stays clean and the put can be run again. --------------
put_clean=0
for i in $(seq 1 "$put_kills"); do
  fails_before=$failures
  delay_ms=$(( (RANDOM * 32768 + RANDOM) % (put_ms > 0 ? put_ms : 1) ))
  "$mrlocal" fs --store store put put.txt /put.txt >/dev/null 2>&1 &
  pid=$!
  sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
  kill -9 "$pid" 2>/dev/null || true
  { wait "$pid"; } 2>/dev/null || true
  "$mrlocal" fs --store store fsck >/dev/null 2>&1 || fail "put kill $i: fsck is not clean"
  "$mrlocal" fs --store store rm /put.txt >/dev/null 2>&1 || true  # a put that completed
  "$mrlocal" fs --store store put put.txt /put.txt >/dev/null 2>&1 || fail "put kill $i: put again failed"
  "$mrlocal" fs --store store cat /put.txt | cmp -s - put.txt || fail "put kill $i: put.txt differs"
  "$mrlocal" fs --store store rm /put.txt >/dev/null 2>&1
  [ "$(ls -A store store/node-* | grep -c mrlocal-tmp || true)" -eq 0 ] ||
    fail "put kill $i: temporaries left in the store"
  [ "$failures" -eq "$fails_before" ] && put_clean=$((put_clean + 1))
done

# --- Report. -------------------------------------------------------------------------------
total=$((kills + point_kills))
clean_total=0
for p in "${!phase_clean[@]}"; do clean_total=$((clean_total + phase_clean[$p])); done
printf '%-34s %6s %6s\n' "phase at the kill" kills clean
for p in setup map shuffle reduce commit "after commit"; do
  printf '%-34s %6d %6d\n' "$p" "${phase_kills[$p]:-0}" "${phase_clean[$p]:-0}"
done
for p in "${!phase_kills[@]}"; do
  case "$p" in "kill point "*) printf '%-34s %6d %6d\n' "$p" "${phase_kills[$p]}" "${phase_clean[$p]:-0}" ;; esac
done | sort
printf '%-34s %6d %6d\n' "fs put" "$put_kills" "$put_clean"
echo "kills: $((total + put_kills)), clean outcomes: $((clean_total + put_clean))" \
     "($finished_first more runs finished before their kill: complete, identical output)"
echo "temporaries removed (or put back) by the reruns: $removed_total"
p95=$(tail -n +2 trials.csv | awk -F, '{ print $NF }' | sort -n | awk '{ v[NR] = $1 } END { i = int(NR * 0.95 + 0.999); if (i < 1) i = 1; print v[i] + 0 }')
echo "recovery (rerun wall time): max ${max_recover} ms, p95 ${p95} ms," \
     "mean $(( recover_n ? recover_sum / recover_n : 0 )) ms; clean run ${clean_ms} ms"
echo "slowest reruns (trial,mode,temporaries left,lines said,rerun ms):"
tail -n +2 trials.csv | sort -t, -k5 -n -r | head -3 | sed 's/^/  /'
[ "$failures" -eq 0 ] || { echo "crash_kill_test: $failures failed checks" >&2; exit 1; }
