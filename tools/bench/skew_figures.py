#!/usr/bin/env python3
"""The skew figures' two halves, for tools/bench/bench_skew_figures.sh.

  skew_figures.py record RUNS_CSV REPORT_DIR FIG DATASET PARTITIONER P RUN CLUSTER
      appends one run (its --report directory) to RUNS_CSV.
  skew_figures.py summarize RUNS_CSV OUT_DIR
      writes OUT_DIR/figN.csv (series,x,y,ymin,ymax for plot_csv) and OUT_DIR/figures.md.

A run's row: the measured reduce phase (map phase end to job end), the plan's skewness,
Balance, estimated phase (max_r load_r / speed_r, in list entries at speed 1) and cost,
and the run's rate: list entries a speed-1 slot reduces per second, the median over the
run's non-empty reduce tasks of load / (speed x duration). The model's reduce phase is the
estimated phase over the median rate of every run of the same figure and dataset: one rate
per experiment, so that the model does not borrow each run's own noise.
"""
import csv
import json
import os
import re
import statistics
import sys
from collections import defaultdict

FIELDS = ["fig", "dataset", "partitioner", "R", "p", "run", "reduce_ms", "skewness", "balance",
          "model_units", "plan_us", "row", "rate"]


def slot_speeds(cluster):
    """Speed of every slot by id, as ClusterSpec numbers them: groups in order, N nodes
    each, a node's map slots then its reduce slots."""
    speeds = []
    for n, m, r, s in re.findall(r"(\d+)x\((\d+)m,(\d+)r,([\d.]+)\)", cluster):
        speeds += [float(s)] * ((int(m) + int(r)) * int(n))
    return speeds


def record(runs_csv, report, fig, dataset, partitioner, p, run, cluster):
    job = json.load(open(os.path.join(report, "metrics.json")))["per_job"][0]
    loads = job["plan"]["reduce_load"]
    tasks = [t for t in csv.DictReader(open(os.path.join(report, "tasks.csv")))
             if t["kind"] == "reduce" and t["ok"] == "true"]
    speed = slot_speeds(cluster)
    model, rates = 0.0, []
    for t in tasks:
        load, s = loads[int(t["index"])], speed[int(t["slot"])]
        model = max(model, load / s)
        took = float(t["duration_s"])
        if load > 0 and took > 0:
            rates.append(load / (s * took))
    row = {"fig": fig, "dataset": dataset, "partitioner": partitioner, "R": len(loads), "p": p,
           "run": run, "reduce_ms": round(job["reduce_phase_s"] * 1000, 3),
           "skewness": round(job["skewness"], 2), "balance": round(job["balance"], 2),
           "model_units": round(model), "plan_us": round(job["plan"]["cost_us"], 2),
           "row": job["plan"]["row"], "rate": round(statistics.median(rates)) if rates else ""}
    new = not os.path.exists(runs_csv)
    with open(runs_csv, "a", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        if new:
            w.writeheader()
        w.writerow(row)
    print(f"  {fig} {dataset:>12} {partitioner:>9} p={p:>3} run {run}: reduce "
          f"{row['reduce_ms']:8.1f} ms, skewness {row['skewness']:5.1f}, balance "
          f"{row['balance']:5.1f}, plan {row['plan_us']:.1f} us", flush=True)


def med(xs):
    return statistics.median(xs) if xs else float("nan")


class Point:
    def __init__(self, rows, rate):
        ms = [float(r["reduce_ms"]) for r in rows]
        self.n = len(ms)
        self.med, self.lo, self.hi = med(ms), min(ms), max(ms)
        self.skew = med([float(r["skewness"]) for r in rows])
        self.balance = med([float(r["balance"]) for r in rows])
        self.plan_us = med([float(r["plan_us"]) for r in rows])
        self.model_ms = med([float(r["model_units"]) for r in rows]) / rate * 1000


def group(rows):
    """(fig, dataset) -> rate, and (fig, dataset, partitioner, p) -> Point."""
    rates = defaultdict(list)
    for r in rows:
        if r["rate"]:
            rates[(r["fig"], r["dataset"])].append(float(r["rate"]))
    rate = {k: med(v) for k, v in rates.items()}
    cells = defaultdict(list)
    for r in rows:
        cells[(r["fig"], r["dataset"], r["partitioner"], int(r["p"]))].append(r)
    return rate, {k: Point(v, rate[k[:2]]) for k, v in cells.items()}


def write_csv(path, series_points):
    """plot_csv's input; the whisker columns only when some point has a spread."""
    spread = any(lo != hi for _, _, _, lo, hi in series_points)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["series", "x", "y"] + (["ymin", "ymax"] if spread else []))
        for name, x, y, lo, hi in series_points:
            w.writerow([name, x, round(y, 3)] + ([round(lo, 3), round(hi, 3)] if spread else []))


def ratio(a, b):
    return f"{a / b:.2f}" if b > 0 else "-"


def summarize(runs_csv, out):
    rows = list(csv.DictReader(open(runs_csv)))
    rate, cells = group(rows)
    md = ["# Skew figures (DynamicShare Figs. 8-12), measured", "",
          "Medians of the runs, [min-max] beside; *model*: the plan's estimated phase over "
          "the experiment's median rate (list entries per second at speed 1).", ""]
    figs = sorted({r["fig"] for r in rows})
    for fig in figs:
        # In order of skewness (at the smallest p), the x axis of Fig. 8.
        datasets = sorted({k[1] for k in cells if k[0] == fig},
                          key=lambda d: min((k[3], c.skew) for k, c in cells.items()
                                            if k[:2] == (fig, d))[1])
        for ds in datasets:
            mine = {k: v for k, v in cells.items() if k[0] == fig and k[1] == ds}
            parts = []
            for k in mine:
                if k[2] not in parts:
                    parts.append(k[2])
            order = ["hash", "lb", "lb-sketch", "dp", "dp-sketch"]
            parts.sort(key=lambda n: order.index(n) if n in order else 99)
            ps = sorted({k[3] for k in mine})
            md += [f"## {fig}, {ds} (rate {rate.get((fig, ds), 0):,.0f} entries/s at speed 1)",
                   "", "| partitioner | p | runs | skewness | Balance | reduce phase ms "
                   "[min-max] | model ms | model / measured | plan µs |", "|---|---|---|---|---|---|---|---|---|"]
            for name in parts:
                for p in ps:
                    c = mine.get((fig, ds, name, p))
                    if not c:
                        continue
                    md.append(f"| {name} | {p} | {c.n} | {c.skew:.1f} | {c.balance:.1f} | "
                              f"{c.med:.0f} [{c.lo:.0f}-{c.hi:.0f}] | {c.model_ms:.0f} | "
                              f"{ratio(c.model_ms, c.med)} | {c.plan_us:.1f} |")
            md.append("")
    md += goals(cells)
    with open(os.path.join(out, "figures.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    write_figure_csvs(cells, out)


def goals(cells):
    """The issue's goals in the p sweep: dp-sketch <= 0.7 x lb (same p), <= 0.5 x hash."""
    out = ["## Goals (issue 13): dp-sketch <= 0.7 x lb and <= 0.5 x hash", "",
           "| dataset | p | dp-sketch ms | lb ms | hash ms (p = R) | dp-sketch / lb | "
           "dp-sketch / hash |", "|---|---|---|---|---|---|---|"]
    for (fig, ds, name, p), c in sorted(cells.items()):
        if fig != "psweep" or name != "dp-sketch" or (fig, ds, "lb", p) not in cells:
            continue
        lb = cells[(fig, ds, "lb", p)]
        h = [v for k, v in cells.items() if k[:3] == (fig, ds, "hash")]
        hash_ms = h[0].med if h else float("nan")
        out.append(f"| {ds} | {p} | {c.med:.0f} | {lb.med:.0f} | {hash_ms:.0f} | "
                   f"{ratio(c.med, lb.med)} | {ratio(c.med, hash_ms) if h else '-'} |")
    return out + [""]


def write_figure_csvs(cells, out):
    def points(fig, ds, names, x_of, y_of):
        pts = []
        for (f, d, name, p), c in sorted(cells.items(), key=lambda kv: (kv[0][2], kv[0][3])):
            if f == fig and (ds is None or d == ds) and name in names:
                pts.append((name, x_of(c, p), *y_of(c)))
        return sorted(pts, key=lambda t: (names.index(t[0]), t[1]))

    phase = lambda c: (c.med, c.lo, c.hi)
    balance = lambda c: (c.balance, c.balance, c.balance)
    write_csv(os.path.join(out, "fig8.csv"),
              points("fig8", None, ["hash", "lb", "dp"], lambda c, p: round(c.skew, 1), phase))
    for ds in sorted({k[1] for k in cells if k[0] == "psweep"}):
        at_p = lambda c, p: p
        write_csv(os.path.join(out, f"fig9-{ds}.csv"),
                  points("psweep", ds, ["hash", "lb", "dp"], at_p, phase))
        write_csv(os.path.join(out, f"fig10-{ds}.csv"),
                  points("psweep", ds, ["lb", "dp"], at_p, balance))
        write_csv(os.path.join(out, f"fig11-{ds}.csv"),
                  points("psweep", ds, ["dp", "dp-sketch"], at_p, phase))
        write_csv(os.path.join(out, f"fig12-{ds}.csv"),
                  points("psweep", ds, ["lb-sketch", "dp-sketch"], at_p, phase))


if __name__ == "__main__":
    if len(sys.argv) == 10 and sys.argv[1] == "record":
        record(*sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == "summarize":
        summarize(*sys.argv[2:])
    else:
        sys.exit(__doc__)
