#!/usr/bin/env python3
"""Service levels of a proportional-share run (Sandholm and Lai, sections 4.2-4.3), from a
report directory (`mrlocal workload ... --report DIR`): each queue's mean completion time
(finish - arrival) over its jobs that arrived after a warm-up and ended while every queue
still had jobs to run, as with the paper's endless streams; the ratio of the two queues'
means when there are two (q2 / q1); and Spearman's rank correlation between each queue's
bid (the spec's "queues") and its speed (1 / mean completion time), 1 when every level is in the
order of its bid.

    dynprio_levels.py SPEC.json REPORT_DIR... [--warmup S] [--until S]

--warmup (default 60) and --until (default: none) bound the jobs counted: arrived at or
after the first, ended by the second (a phase of the run: before a budget ran out, after).

The reports may be of any policy (fifo, fair...): the bids come from the spec.
"""
import csv
import json
import sys
from collections import defaultdict


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):  # ties share their mean rank
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2
        i = j + 1
    return out


def spearman(x, y):
    rx, ry = ranks(x), ranks(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = sum((a - mx) ** 2 for a in rx) ** 0.5
    vy = sum((b - my) ** 2 for b in ry) ** 0.5
    return cov / (vx * vy) if vx and vy else float("nan")


def levels(report_dir, rates, warmup, until):
    rows = list(csv.DictReader(open(f"{report_dir}/jobs.csv")))
    last = defaultdict(float)
    for r in rows:
        last[r["queue"]] = max(last[r["queue"]], float(r["finish_s"]))
    end = min(min(last.values()), until)
    times = defaultdict(list)
    for r in rows:
        arrival, finish = float(r["arrival_s"]), float(r["finish_s"])
        if arrival >= warmup and finish <= end:
            times[r["queue"]].append(finish - arrival)
    queues = [q for q in rates if times[q]]
    mean = {q: sum(times[q]) / len(times[q]) for q in queues}
    return queues, mean, {q: len(times[q]) for q in queues}


def main():
    args = sys.argv[1:]
    bounds = {"--warmup": 60.0, "--until": float("inf")}
    for flag in bounds:
        if flag in args:
            i = args.index(flag)
            bounds[flag] = float(args[i + 1])
            del args[i:i + 2]
    rates = {q["name"]: q.get("rate", 1.0) for q in json.load(open(args[0]))["queues"]}
    for d in args[1:]:
        queues, mean, counted = levels(d, rates, bounds["--warmup"], bounds["--until"])
        line = "  ".join(f"{q} {mean[q]:.1f} s ({counted[q]})" for q in queues)
        if len(queues) == 2:
            line += f"  ratio {mean[queues[1]] / mean[queues[0]]:.3f}"
        rho = spearman([rates[q] for q in queues], [1 / mean[q] for q in queues])
        print(f"{d}\t{line}  spearman {rho:.3f}")


if __name__ == "__main__":
    main()
