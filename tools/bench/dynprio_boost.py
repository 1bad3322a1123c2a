#!/usr/bin/env python3
"""Dynamic boost (Sandholm and Lai section 4.4, Figs. 10-11), from report directories of
`mrlocal workload tools/bench/dynprio_boost_workload.json --report DIR`: the mean completion
time (finish - arrival) of the jobs that bid more than their queue (the spec's job "bid")
and of the others, over the jobs that ended while every queue still had jobs to run (as
the paper's concurrent users), and their ratio: the speed-up a boost bought.

    dynprio_boost.py SPEC.json REPORT_DIR...

Prints a line per report, then the mean completion time of each user's jobs by position
in its sequence (the paper's figure: valleys where job n of user n is boosted), over all
reports, as CSV on --csv FILE when given (series,x,y: the queue, the job's number, its
mean completion time; for plot_csv).
"""
import csv
import json
import sys
from collections import defaultdict


def main():
    args = sys.argv[1:]
    out = None
    if "--csv" in args:
        i = args.index("--csv")
        out = args[i + 1]
        del args[i:i + 2]
    spec = json.load(open(args[0]))
    boosted = {j["name"] for j in spec["jobs"] if "bid" in j}
    by_position = defaultdict(list)  # (queue, position) -> completion times
    for d in args[1:]:
        rows = list(csv.DictReader(open(f"{d}/jobs.csv")))
        last = defaultdict(float)
        for r in rows:
            last[r["queue"]] = max(last[r["queue"]], float(r["finish_s"]))
        end = min(last.values())
        times = {True: [], False: []}
        for r in rows:
            t = float(r["finish_s"]) - float(r["arrival_s"])
            by_position[(r["queue"], int(r["name"].rsplit("-", 1)[1]))].append(t)
            if float(r["finish_s"]) <= end:
                times[r["name"] in boosted].append(t)
        b, o = (sum(v) / len(v) for v in (times[True], times[False]))
        print(f"{d}\tboosted {b:.1f} s ({len(times[True])})  others {o:.1f} s "
              f"({len(times[False])})  speed-up {o / b:.2f}")
    if out:
        with open(out, "w") as f:
            f.write("series,x,y\n")
            for (q, n), v in sorted(by_position.items(), key=lambda k: (int(k[0][0][1:]), k[0][1])):
                f.write(f"{q},{n},{sum(v) / len(v):.1f}\n")


if __name__ == "__main__":
    main()
