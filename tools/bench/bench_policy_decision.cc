// One PickTask decision for a free map slot, for fair (one queue, and 8 queues) and
// dynprio and capacity (80 queues) beside fifo, edf and llf, with 10, 100 and 1,000 running jobs on a 1000x(1m,1r,1.0) cluster. Every
// job has pending maps (3 replicas each, spread over the nodes) and 1-5 running; 3 jobs
// in 4 have a deadline, in an order unrelated to arrival; weights 1-3. The state does not
// change between calls (no launch), so each call is the same steady-state decision, asked
// for a different slot (node) each time. llf's estimates: 1 s per map (a JobHistory
// model), asked at admission only: a decision walks its laxity order.
//
// Besides Google Benchmark's mean, each call is timed on its own (steady_clock, ~20 ns of
// which is the clock itself) and the p50/p99 go to the counters p50_ns and p99_ns.
//
//   bench_policy_decision [--benchmark_filter=fair]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "sched/core/cluster_spec.h"
#include "sched/estimate/job_history.h"
#include "sched/policy/policy_registry.h"

namespace mrlocal {
namespace {

constexpr uint32_t kMapsPerJob = 32;

ClusterState MakeState(const ClusterSpec& cluster, Policy& policy, int jobs, int queues) {
  ClusterState s;
  s.nodes = cluster.nodes();
  for (const SlotInfo& slot : cluster.Slots()) s.slots.push_back({slot, {}, 0, {}});
  for (int j = 1; j <= jobs; ++j) {
    JobState job;
    job.id = j;
    job.arrival = std::chrono::seconds(j);
    if (j % 4 != 0) job.spec.deadline = std::chrono::seconds(60 + (j * 7919) % 997);
    job.spec.weight = 1 + j % 3;
    job.spec.queue = std::to_string(j % queues);
    for (uint32_t i = 0; i < kMapsPerJob; ++i) {
      TaskState t;
      for (int r = 0; r < 3; ++r)
        t.local_nodes.push_back(static_cast<NodeId>((j * 31 + i * 17 + r * 331) % s.nodes));
      job.maps.push_back(std::move(t));
    }
    job.reduces.resize(2);
    job.BuildMapIndex(s.nodes);
    const uint32_t running = 1 + (j * 13) % 5;
    for (uint32_t i = 0; i < running; ++i) job.maps[i].status = TaskStatus::kRunning;
    job.maps_running = running;
    job.spec.app = "bench";
    for (uint32_t i = 0; i < running; ++i) job.maps[i].slot = static_cast<SlotId>(i);
    policy.Admit(job, s, job.arrival);
    s.jobs.emplace(j, std::move(job));
    s.active.push_back(j);
  }
  return s;
}

void BM_PickMap(benchmark::State& bench, const char* policy_name, int queues) {
  const int jobs = static_cast<int>(bench.range(0));
  ClusterSpec cluster({NodeGroup{1000, 1, 1, 1.0}});
  JobHistory history;
  history.Set("bench", {.model = {.map_fixed_s = 1, .reduce_fixed_s = 1}});
  auto policy = MakePolicy(policy_name, &history);
  if (!policy.ok()) {
    bench.SkipWithError(policy.status().message().c_str());
    return;
  }
  ClusterState s = MakeState(cluster, **policy, jobs, queues);
  const int map_slots = cluster.map_slots();  // ids 0 .. map_slots - 1

  std::vector<int64_t> ns;
  ns.reserve(static_cast<size_t>(bench.max_iterations));
  int slot = 0;
  for (auto _ : bench) {
    const auto t0 = std::chrono::steady_clock::now();
    auto pick = (*policy)->PickTask(s.slots[slot].info, s, Time{0});
    const auto t1 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(pick);
    ns.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count());
    if (++slot == map_slots) slot = 0;
  }
  auto percentile = [&ns](double q) {
    size_t k = static_cast<size_t>(q * static_cast<double>(ns.size() - 1) + 0.5);
    std::nth_element(ns.begin(), ns.begin() + static_cast<long>(k), ns.end());
    return static_cast<double>(ns[k]);
  };
  bench.counters["jobs"] = jobs;
  bench.counters["p50_ns"] = percentile(0.50);
  bench.counters["p99_ns"] = percentile(0.99);
}

#define DECISION_BENCH(name, policy, queues)          \
  BENCHMARK_CAPTURE(BM_PickMap, name, policy, queues) \
      ->Arg(10)                                       \
      ->Arg(100)                                      \
      ->Arg(1000)                                     \
      ->Iterations(100000)                            \
      ->Unit(benchmark::kMicrosecond)

DECISION_BENCH(fifo, "fifo", 1);
DECISION_BENCH(edf, "edf", 1);
DECISION_BENCH(llf, "llf", 1);
DECISION_BENCH(fair, "fair", 1);
DECISION_BENCH(fair_8queues, "fair", 8);
// dynprio and capacity with the paper's largest setting, 80 queues (section 4.3); each
// queue opens bidding 1 at its first job, as without a spec's "queues".
DECISION_BENCH(dynprio_80queues, "dynprio", 80);
DECISION_BENCH(capacity_80queues, "capacity", 80);

}  // namespace
}  // namespace mrlocal

BENCHMARK_MAIN();
