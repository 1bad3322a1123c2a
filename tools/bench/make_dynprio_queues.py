#!/usr/bin/env python3
"""A workload of N queues for dynprio's service levels (Sandholm and Lai section 4.3, Figs.
5-6 and 8-9): queue n bids n (share n / sum of 1..N), each a closed loop of 2n + 2 jobs (so
that every queue stays busy about equally long) of MAPS maps of 3 s and REDUCES reduces of
0.5 s, on a cluster of NODES x (M map, R reduce slots), log-normal noise 0.3.

    make_dynprio_queues.py N NODES M R [--maps MAPS] [--reduces REDUCES] > spec.json

tools/bench/dynprio_10q_workload.json is `make_dynprio_queues.py 10 10 11 1 --maps 440`.
"""
import argparse
import json

p = argparse.ArgumentParser()
p.add_argument("queues", type=int)
p.add_argument("nodes", type=int)
p.add_argument("map_slots", type=int)
p.add_argument("reduce_slots", type=int)
p.add_argument("--maps", type=int, default=440)
p.add_argument("--reduces", type=int, default=1)
a = p.parse_args()
jobs = []
for n in range(1, a.queues + 1):
    for j in range(2 * n + 2):
        job = {"name": f"q{n}-{j}", "app": "synthetic", "arrival_s": 0, "maps": a.maps,
               "reduces": a.reduces, "map_s": 3, "reduce_s": 0.5, "queue": f"q{n}"}
        if j:
            job["after"] = f"q{n}-{j - 1}"
        jobs.append(job)
spec = {"name": f"dynprio-{a.queues}q",
        "description": f"Sandholm and Lai section 4.3: {a.queues} queues, queue n bidding n, each a "
                       f"closed loop of 2n + 2 jobs of {a.maps} maps of 3 s and {a.reduces} reduces "
                       f"of 0.5 s, on {a.nodes * a.map_slots} map and {a.nodes * a.reduce_slots} "
                       "reduce slots, noise 0.3",
        "cluster": f"{a.nodes}x({a.map_slots}m,{a.reduce_slots}r,1.0)", "model": {"noise": 0.3},
        "queues": [{"name": f"q{n}", "rate": n} for n in range(1, a.queues + 1)], "jobs": jobs}
print(json.dumps(spec, indent=1))
