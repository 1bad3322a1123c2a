# Writes tools/bench/rtmr_real_workload.json: RTMR workload I's shape (section V: 88 jobs, mostly
# small, exponential gaps of mean 14 s, deadlines by job size) with real jobs sized for a
# 2-core machine, to run with --time-scale 0.1 (about 2 minutes).
#   python3 tools/bench/make_rtmr_real_workload.py > tools/bench/rtmr_real_workload.json
import json, random
random.seed(11)
TEXT = lambda mib: {"generate": "text", "size": f"{mib}MiB", "seed": 3}
GRAPH = {"generate": "graph", "nodes": 100000, "edges": 1000000, "seed": 1}
# (weight, app, input or maps, deadline interval in seconds before --time-scale)
KINDS = [
    (38, "pi", 1, (15, 25)),
    (16, "friendcount", GRAPH, (15, 25)),
    (14, "wordcount", TEXT(64), (30, 50)),
    (12, "wordcount", TEXT(256), (100, 150)),
    (8, "wordcount", TEXT(512), (200, 300)),
]
jobs, t = [], 0.0
for i in range(88):
    w, app, inp, (lo, hi) = random.choices(KINDS, weights=[k[0] for k in KINDS])[0]
    j = {"name": f"{app}{i}", "arrival_s": round(t, 1), "app": app, "reduces": 1}
    if app == "pi":
        j["maps"] = inp
        j["samples"] = 100000000
    else:
        j["input"] = inp
    j["deadline_s"] = random.randint(lo, hi)
    jobs.append(j)
    t += random.expovariate(1 / 14)
print(json.dumps({"name": "rtmr-real", "description": "RTMR workload I's shape with real jobs; run with --time-scale 0.1",
                  "cluster": "1x(1m,1r,0.5)+1x(1m,0r,1.0)", "block_size": "16MiB",
                  "reduce_slowstart": 0.05, "jobs": jobs}, indent=1))
