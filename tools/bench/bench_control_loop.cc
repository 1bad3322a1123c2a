// Per-task overhead of the whole control loop, and policy decision latency under load.
//
// 1. A job of N map tasks that do no work runs on a real Runtime (AsioLoop, RealExecutor,
//    pinned slot threads, FIFO): wall time per task = what the scheduler, the event loop
//    and the slot hand-off cost. Issue target: <= 20 us per task (median over runs).
// 2. FIFO's PickTask with 1,000 queued jobs: decision latency p50/p99 (target p99 <= 10 us).
//
//   bench_control_loop [--tasks N] [--runs N] [--jobs N] [--cluster SPEC] [--thread-ranks N]
//
// Under mpirun (issue 18) the cluster's nodes go to the ranks round-robin, as in
// `mpirun -np N mrlocal ...`: rank 0 runs the loop over MpiExecutor, every rank runs its
// slots, and (1) is the cost per task of a remote launch and report:
//   mpirun -np 2 bench_control_loop --tasks 20000 --cluster 2x(1m,1r,1.0)
// --thread-ranks N runs the same over N ranks that are threads of this process
// (ThreadTransportGroup): the executor's own cost, without MPI's.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "sched/core/cluster_spec.h"
#include "sched/dist/mpi_executor.h"
#include "sched/dist/mpi_transport.h"
#include "sched/dist/slot_host.h"
#include "sched/dist/thread_transport.h"
#include "sched/policy/fifo_policy.h"
#include "tools/runtime/runtime.h"

namespace mrlocal {
namespace {

class EmptyOutput final : public MapOutput {
 public:
  explicit EmptyOutput(const std::vector<PartitionHash>& h) { sketch_ = CountMinSketch(h); }
  uint64_t memory_bytes() const override { return 0; }
};

// Map and reduce tasks that do nothing but report back.
class NoopRuntime final : public JobRuntime {
 public:
  explicit NoopRuntime(std::vector<PartitionHash> h) : hashes_(std::move(h)) {}
  std::string_view app() const override { return "noop"; }
  Result<std::unique_ptr<MapOutput>> RunMap(const MapInput&, TaskContext& ctx) const override {
    ctx.Checkpoint(1.0);
    return std::unique_ptr<MapOutput>(std::make_unique<EmptyOutput>(hashes_));
  }
  Result<ReduceResult> RunReduce(std::span<const MapOutput* const>, const ReducePlan&, uint32_t,
                                 OutputSink*, TaskContext& ctx, ShuffleSource*) const override {
    ctx.Checkpoint(1.0);
    return ReduceResult{};
  }
  bool EncodeEntries(const MapOutput&, const ReducePlan&, uint32_t, uint64_t*, size_t,
                     std::string*) const override {
    return true;
  }
  Status Absorb(MapOutput&, const MapOutput&) const override { return Status::OK(); }

 private:
  std::vector<PartitionHash> hashes_;
};

RealJob NoopJob(const std::vector<PartitionHash>& hashes, uint32_t tasks) {
  RealJob job;
  job.runtime = std::make_shared<NoopRuntime>(hashes);
  job.maps = tasks;
  job.reduces = 1;
  job.definition = std::to_string(tasks);
  return job;
}

double RunNoopJob(uint32_t tasks, const ClusterSpec& cluster, Transport* world,
                  SchedulerStats* stats_out) {
  RuntimeOptions options;
  options.cluster = cluster;
  options.policy = "fifo";
  options.transport = world;
  auto runtime = Runtime::Real(std::move(options));
  if (!runtime.ok()) {
    std::fprintf(stderr, "bench_control_loop: %s\n", runtime.status().message().c_str());
    std::exit(2);
  }
  JobSpec spec;
  spec.app = "noop";
  spec.reduces = 1;
  spec.partition_hashes = MakePartitionHashes(1, 1, 1);
  spec.maps.resize(tasks);
  for (uint32_t i = 0; i < tasks; ++i)
    spec.maps[i].nodes = {static_cast<NodeId>(i % cluster.nodes())};
  RealJob job = NoopJob(spec.partition_hashes, tasks);
  auto t0 = std::chrono::steady_clock::now();
  (*runtime)->Submit({std::move(spec), std::move(job)});
  (*runtime)->Run();
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (stats_out) *stats_out = (*runtime)->controller().stats();
  return secs;
}

// A rank other than 0: serves its slots until rank 0 shuts the ranks down.
Status ServeSlots(Transport& transport, const ClusterSpec& cluster) {
  SteadyClock clock;
  const auto hashes = MakePartitionHashes(1, 1, 1);
  SlotHost host(transport, clock, SlotsOfRank(cluster.Slots(), transport.size(), transport.rank()),
                [&hashes](JobId, const std::string& definition) -> Result<RealJob> {
                  return NoopJob(hashes, static_cast<uint32_t>(std::stoul(definition)));
                });
  return host.Serve();
}

void DecisionLatency(int jobs) {
  ClusterState s;
  s.nodes = 2;
  s.slots.push_back({{0, SlotKind::kMap, 0, 1.0}, {}, 0, {}});
  s.slots.push_back({{1, SlotKind::kReduce, 1, 1.0}, {}, 0, {}});
  for (int j = 1; j <= jobs; ++j) {
    JobState job;
    job.id = j;
    job.maps.resize(16);
    for (uint32_t i = 0; i < 16; ++i) job.maps[i].local_nodes = {static_cast<NodeId>(i % 2)};
    job.reduces.resize(2);
    job.BuildMapIndex(2);
    if (j % 2) {
      job.reduces_planned = true;
      job.reduces_running = 2;
      for (auto& r : job.reduces) r.status = TaskStatus::kRunning;
      s.reducing.push_back(j);
    }
    s.jobs.emplace(j, std::move(job));
    s.active.push_back(j);
  }
  // Half the queued jobs are in their reduce phase with every reduce running, so a reduce
  // slot's decision walks 500 jobs and finds nothing: FIFO's worst case.
  FifoPolicy fifo;
  LatencySamples map_ns, reduce_ns;
  for (int k = 0; k < 20000; ++k) {
    for (int kind = 0; kind < 2; ++kind) {
      auto t0 = std::chrono::steady_clock::now();
      auto pick = fifo.PickTask(s.slots[kind].info, s, Time{0});
      auto dt = std::chrono::steady_clock::now() - t0;
      (kind ? reduce_ns : map_ns)
          .Add(std::chrono::duration_cast<std::chrono::nanoseconds>(dt).count());
      if (pick) asm volatile("" ::: "memory");
    }
  }
  std::printf(
      "fifo decision latency, %d queued jobs: map slot p50 %.2f us p99 %.2f us; "
      "reduce slot (walks %d reducing jobs) p50 %.2f us p99 %.2f us\n",
      jobs, map_ns.PercentileUs(0.5), map_ns.PercentileUs(0.99),
      static_cast<int>(s.reducing.size()), reduce_ns.PercentileUs(0.5),
      reduce_ns.PercentileUs(0.99));
}

}  // namespace
}  // namespace mrlocal

int main(int argc, char** argv) {
  using namespace mrlocal;
  uint32_t tasks = 100000;
  int runs = 5, jobs = 1000, thread_ranks = 1;
  std::string cluster_text = "2x(1m,1r,1.0)";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--tasks")) tasks = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--runs")) runs = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--jobs")) jobs = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--cluster")) cluster_text = argv[i + 1];
    if (!std::strcmp(argv[i], "--thread-ranks")) thread_ranks = std::atoi(argv[i + 1]);
  }
  auto cluster = ClusterSpec::Parse(cluster_text);
  if (!cluster.ok()) {
    std::fprintf(stderr, "bench_control_loop: %s\n", cluster.status().message().c_str());
    return 2;
  }
  std::unique_ptr<MpiTransport> world;
  if (MpiTransport::Launched()) {
    auto joined = MpiTransport::Init();
    if (!joined.ok()) {
      std::fprintf(stderr, "bench_control_loop: %s\n", joined.status().message().c_str());
      return 2;
    }
    world = std::move(joined).value();
  }
  // Ranks as threads of this process: the executor's own cost, without MPI's.
  std::unique_ptr<ThreadTransportGroup> threads;
  std::vector<std::thread> thread_hosts;
  if (!world && thread_ranks > 1) {
    threads = std::make_unique<ThreadTransportGroup>(thread_ranks);
    for (int r = 1; r < thread_ranks; ++r)
      thread_hosts.emplace_back([&, r] { (void)ServeSlots(threads->Rank(r), *cluster); });
  }
  Transport* transport = world           ? static_cast<Transport*>(world.get())
                         : threads.get() ? &threads->Rank(0)
                                         : nullptr;
  const int ranks = transport ? transport->size() : 1;
  if (world && ranks > 1 && world->rank() != 0)  // serve this rank's slots until rank 0 is done
    return ServeSlots(*world, *cluster).ok() ? 0 : 1;
  std::vector<double> per_task;
  SchedulerStats stats;
  for (int r = 0; r < runs; ++r) {
    double secs = RunNoopJob(tasks, *cluster, ranks > 1 ? transport : nullptr, &stats);
    per_task.push_back(secs / tasks * 1e6);
    std::printf(
        "run %d: %u no-op map tasks in %.3f s = %.2f us/task; decisions %lu, "
        "decision p50 %.2f us p99 %.2f us, dispatch p50 %.2f us p99 %.2f us\n",
        r + 1, tasks, secs, per_task.back(), static_cast<unsigned long>(stats.decisions),
        stats.decision_ns.PercentileUs(0.5), stats.decision_ns.PercentileUs(0.99),
        stats.dispatch_ns.PercentileUs(0.5), stats.dispatch_ns.PercentileUs(0.99));
  }
  std::sort(per_task.begin(), per_task.end());
  std::printf("median over %d runs: %.2f us per task (cluster %s, %d %s%s)\n", runs,
              per_task[per_task.size() / 2], cluster_text.c_str(), ranks,
              threads ? "thread rank" : "rank", ranks > 1 ? "s" : "");
  if (ranks > 1) ShutDownRanks(*transport);
  for (std::thread& t : thread_hosts) t.join();
  DecisionLatency(jobs);
  return 0;
}
