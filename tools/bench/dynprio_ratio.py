#!/usr/bin/env python3
"""Completion-time ratio of queue q2 to queue q1 in a report's jobs.csv (Sandholm and Lai,
section 4.2): mean finish - arrival of each queue's jobs that arrived after a warm-up and
finished while every queue still had jobs to run, as with the paper's endless streams.

    dynprio_ratio.py REPORT_DIR... [--warmup S]
"""
import csv
import sys
from collections import defaultdict


def ratio(report_dir, warmup):
    rows = list(csv.DictReader(open(f"{report_dir}/jobs.csv")))
    last = defaultdict(float)
    for r in rows:
        last[r["queue"]] = max(last[r["queue"]], float(r["finish_s"]))
    end = min(last.values())
    times = defaultdict(list)
    for r in rows:
        arrival, finish = float(r["arrival_s"]), float(r["finish_s"])
        if arrival >= warmup and finish <= end:
            times[r["queue"]].append(finish - arrival)
    mean = {q: sum(v) / len(v) for q, v in times.items()}
    return mean["q2"] / mean["q1"], mean


def main():
    args = sys.argv[1:]
    warmup = 60.0
    if "--warmup" in args:
        i = args.index("--warmup")
        warmup = float(args[i + 1])
        del args[i:i + 2]
    for d in args:
        r, mean = ratio(d, warmup)
        print(f"{d}\tq1 {mean['q1']:.1f} s\tq2 {mean['q2']:.1f} s\tratio {r:.3f}")


if __name__ == "__main__":
    main()
