#!/usr/bin/env python3
"""Fidelity to granted shares against throughput (Sandholm and Lai section 4.3, Fig. 7 and
Table 3), from report directories of runs of one two-queue workload under several policies
(`mrlocal workload SPEC --policy P --report DIR`, several seeds each):

    dynprio_fidelity.py SPEC.json LABEL=DIR[,DIR...]... [--csv FILE]

The first LABEL is the baseline (fifo). Per label, over its seeds: each queue's mean
completion time (as dynprio_levels.py counts them: arrived after --warmup, default 60 s,
ended while both queues had jobs), the ratio q2 / q1, and the throughput while both queues
were busy, sum over queues of clients / mean completion time (each client is a closed
loop, one job at a time, so a queue of C clients finishes C / T jobs per second, Little's
law), with its loss against the baseline's. --csv writes the Fig. 7 points (series,x,y: x the queue number, y its mean
completion time) for plot_csv, with the "ideal" series: the bids' ratio at the baseline's
throughput (q1 and q2 getting 2/3 and 1/3 of it with bids 2 : 1).
"""
import json
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from dynprio_levels import levels  # noqa: E402


def main():
    args = sys.argv[1:]
    out, warmup = None, 60.0
    if "--csv" in args:
        i = args.index("--csv")
        out = args[i + 1]
        del args[i:i + 2]
    if "--warmup" in args:
        i = args.index("--warmup")
        warmup = float(args[i + 1])
        del args[i:i + 2]
    spec = json.load(open(args[0]))
    rates = {q["name"]: q.get("rate", 1.0) for q in spec["queues"]}
    names = list(rates)
    # A queue's clients: its closed loops, the jobs that follow no other.
    clients = {q: sum(1 for j in spec["jobs"] if j.get("queue") == q and "after" not in j)
               for q in names}
    rows, base = [], None
    for arg in args[1:]:
        label, dirs = arg.split("=", 1)
        means = {q: [] for q in names}
        for d in dirs.split(","):
            _, mean, _ = levels(d, rates, warmup, float("inf"))
            for q in names:
                means[q].append(mean[q])
        t = {q: sum(v) / len(v) for q, v in means.items()}
        ratios = [b / a for a, b in zip(means[names[0]], means[names[1]])]
        throughput = sum(clients[q] / t[q] for q in names)
        base = base or throughput
        rows.append((label, t))
        print(f"{label:21s} {names[0]} {t[names[0]]:7.1f} s  {names[1]} {t[names[1]]:7.1f} s  "
              f"ratio {min(ratios):.2f}-{max(ratios):.2f} (mean {sum(ratios) / len(ratios):.3f})  "
              f"throughput {throughput * 3600:.1f} jobs/h, loss {100 * (1 - throughput / base):+.1f}%")
    if out:
        total = sum(rates.values())
        with open(out, "w") as f:
            f.write("series,x,y\n")
            for n, q in enumerate(names, 1):  # queue q's share of the baseline's jobs per second
                f.write(f"ideal,{n},{clients[q] / (base * rates[q] / total):.2f}\n")
            for label, t in rows:
                for n, q in enumerate(names, 1):
                    f.write(f"{label},{n},{t[q]:.2f}\n")


if __name__ == "__main__":
    main()
