// The Executor that runs real app code on the engine's slot threads (one SlotWorker per
// slot, pinned round-robin over the allowed CPUs, throttled to the slot's speed).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "engine/job_runtime.h"
#include "engine/memory_limit.h"
#include "engine/slot_worker.h"
#include "sched/core/clock.h"
#include "sched/core/executor.h"
#include "sched/core/fault_injection.h"
#include "sched/core/slot_info.h"

namespace mrlocal {

// A map task's input as read from the block store, with whatever keeps it valid.
struct SplitInput {
  MapInput input;
  std::vector<std::string> warnings;  // e.g. a replica that failed its checksum
  std::shared_ptr<void> keepalive;
};

// Where a job's reduce tasks write, and how the job commits.
class JobOutput {
 public:
  virtual ~JobOutput() = default;
  // Thread-safe for different `reduce` values. Opening a reduce again replaces the earlier
  // attempt's part.
  virtual Result<std::unique_ptr<OutputSink>> OpenPart(uint32_t reduce) = 0;
  virtual Status Commit(uint32_t parts) = 0;
  virtual void Abort() = 0;
};

struct RealJob {
  std::shared_ptr<const JobRuntime> runtime;
  // Reads map task `index`'s input, preferring replicas on `node`. Thread-safe. Null for
  // jobs without input (each map gets only its index).
  std::function<Result<SplitInput>(uint32_t index, NodeId node)> read_split;
  std::shared_ptr<JobOutput> output;  // null: reduce output is computed, then discarded
  uint32_t maps = 0;
  uint32_t reduces = 0;
  // What another rank rebuilds this job from (sched/dist; tools/runtime/job_definition.h).
  std::string definition;
};

// How a slot slows down when its speed changes (SetSpeed).
enum class SlowDown {
  kThrottle,  // its throttle runs at the new speed (engine/throttle.h)
  // A CPU load beside the slots takes the CPU (engine/cpu_burner.h): the throttles stay at
  // the slots' base speeds, SetSpeed changes nothing, and the slot threads run at
  // SCHED_IDLE, so that they get what the load leaves.
  kCpuLoad,
};

// What a reduce task reads besides the map outputs this process holds (sched/dist: map
// outputs on other ranks).
struct RemoteMaps {
  std::vector<bool> local;                // by map index: read from this process's memory
  std::shared_ptr<ShuffleSource> source;  // the others' records
};

// How the slot threads are made.
struct SlotThreads {
  bool pin = true;  // each slot thread on one CPU, round-robin over the allowed ones
  SlowDown slow_down = SlowDown::kThrottle;
  // Where the round-robin starts (processes that share a host, such as MPI ranks, start at
  // different CPUs).
  size_t first_cpu = 0;
  std::chrono::microseconds spin = SlotWorker::kDefaultSpin;  // idle spin before sleeping
};

class RealExecutor final : public Executor {
 public:
  // `clock` must be safe to read from any thread (AsioLoop's is).
  // `slots` may be a part of the cluster's (a rank's own, sched/dist): launches name slots
  // by SlotInfo::id.
  RealExecutor(const Clock& clock, const std::vector<SlotInfo>& slots, SlotThreads threads);
  ~RealExecutor() override;

  // Registers a job's code, input and output before the Controller submits it under `id`.
  void AddJob(JobId id, RealJob job);

  void SetReportFn(ReportFn fn) override { report_ = std::move(fn); }
  void Launch(const TaskLaunch& launch) override;
  void Cancel(SlotId slot, uint64_t token) override;
  void SetPlan(JobId job, const ReducePlan& plan) override;
  Status FinishJob(JobId job, bool success) override;
  double Progress(SlotId slot) const override;

  // A reduce task that reads only the map outputs `remote.local` names from memory, and the
  // rest from `remote.source`.
  void LaunchReduce(const TaskLaunch& launch, RemoteMaps remote);
  // Map output `map` of `job` as bytes for reduce task `reduce` in another process, from
  // *cursor on (JobRuntime::EncodeEntries): true when done; NotFound when this process
  // does not hold it. Call it on the thread that calls Launch, after the map's report.
  Result<bool> EncodeEntries(JobId job, uint32_t map, uint32_t reduce, uint64_t* cursor,
                             size_t max_bytes, std::string* bytes) const;
  // Whether this process runs `slot`.
  bool has_slot(SlotId slot) const {
    return slot >= 0 && static_cast<size_t>(slot) < workers_.size() && workers_[slot];
  }
  bool has_job(JobId job) const { return jobs_.count(job) > 0; }

  void SetSpeed(SlotId slot, double s) override;
  // Injected faults (fault_injection.h), from now on; null: none. Must outlive the
  // executor. Loop thread.
  void SetFaults(const FaultInjector* faults) { faults_ = faults; }
  // The process's memory limit: a task that sees it passed stops and fails its job
  // (ResourceExhausted); null: none. Must outlive the executor. Before the first Launch.
  void SetMemoryLimit(const MemoryLimit* limit) { memory_limit_ = limit; }
  // Keeps each map task's output apart instead of absorbing it into one per job: for a
  // process whose map outputs other processes fetch map by map (sched/dist). Before the
  // first AddJob.
  void KeepMapOutputsApart() { keep_apart_ = true; }
  // An injected slowdown: `slot` runs at `factor` x the speed it is given, unknown to the
  // controller (node-slow). Loop thread.
  void SetHiddenFactor(SlotId slot, double factor);

  // The CPU slot `slot`'s thread is pinned to; -1: not pinned.
  int cpu(SlotId slot) const { return workers_[slot]->cpu(); }

 private:
  struct JobData {
    RealJob job;
    ReducePlan plan;
    // The map outputs, written by the tasks' slot threads under the mutex and read by
    // reduce tasks, which start only after the Controller saw every map report
    // (happens-before via the loop). Two attempts of a map may finish (a speculative copy,
    // sched/core/speculation.h): the first to finish counts; both outputs are the same.
    // By default each finished map's output is absorbed into `combined` (the first one
    // becomes it), so that the job holds its distinct keys once, however many maps it has;
    // `done[m]`: map m's is in. With KeepMapOutputsApart, map m's output is map_outputs[m].
    std::unique_ptr<MapOutput> combined;
    std::vector<bool> done;
    std::vector<std::unique_ptr<MapOutput>> map_outputs;
    std::mutex map_outputs_mu;
  };
  class AttemptContext;
  void RunMap(JobData& data, const TaskLaunch& launch, NodeId node, AttemptContext& ctx,
              TaskReport& report);
  void RunReduce(JobData& data, const TaskLaunch& launch, const RemoteMaps* remote,
                 AttemptContext& ctx, TaskReport& report);
  void Start(const TaskLaunch& launch, std::shared_ptr<RemoteMaps> remote);

  const Clock& clock_;
  const SlowDown slow_down_;
  std::vector<SlotInfo> slots_;                       // by slot id; only ours are set
  std::vector<std::unique_ptr<SlotWorker>> workers_;  // by slot id; null: not ours
  ReportFn report_;
  // Touched on the loop thread only. A running attempt holds its job's data too: FinishJob
  // may come before an attempt it cancelled has returned (over MPI, rank 0 ends a job when a
  // rank dies, while the attempts of the others still run), and the data goes with the
  // last of them.
  std::map<JobId, std::shared_ptr<JobData>> jobs_;
  const FaultInjector* faults_ = nullptr;
  const MemoryLimit* memory_limit_ = nullptr;
  bool keep_apart_ = false;
  std::vector<double> speed_, hidden_factor_;  // by slot id: as told, and injected
};

}  // namespace mrlocal
