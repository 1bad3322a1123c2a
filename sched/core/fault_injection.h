// Faults injected into a run (--inject, a workload's "faults"), for tests and for research
// on schedulers under failures. The same decisions in the real engine and in simulation:
// an attempt's fate is a pure function of (seed, job, task, attempt, slot, time), so a
// simulated run and a real one of the same workload meet the same faults.
//
//   task-fail:P[,app=NAME][,kind=map|reduce][,seed=N]
//                                              each attempt fails with probability P, at a
//                                              uniformly drawn point of its work (draws
//                                              seeded by N, else by the run's seed)
//   slot-fail:SLOT[,from=T]                    every attempt on SLOT fails from time T on
//   node-fail:NODE[,from=T]                    ... on every slot of NODE
//   node-slow:NODE,factor=F[,from=T]           NODE's slots run at F x their speed from T
//                                              on, and the scheduler is not told (a straggler)
//   replica-corrupt:MAP[,node=N]               the replica of map MAP's block on node N
//   replica-lost:MAP[,node=N]                  (default: the first) fails its checksum, or
//                                              is missing: the read falls back to another
//
// T is a duration from the run's start (30s, 1500ms); 0 or absent: from the start.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/status.h"
#include "sched/core/clock.h"
#include "sched/core/job.h"
#include "sched/core/slot_info.h"
#include "sched/core/speed_profile.h"

namespace mrlocal {

struct Fault {
  enum class Kind { kTaskFail, kSlotFail, kNodeFail, kNodeSlow, kReplicaCorrupt, kReplicaLost };
  Kind kind = Kind::kTaskFail;
  double probability = 0;             // task-fail
  std::string app;                    // task-fail: empty: every app
  std::optional<TaskKind> task_kind;  // task-fail: none: both
  std::optional<uint64_t> seed;       // task-fail: none: the injector's
  int target = 0;                     // the slot, node or map index
  int node = -1;                      // replica faults: -1: the block's first replica
  Duration from{0};                   // slot-fail, node-fail, node-slow
  double factor = 1;                  // node-slow, in (0, 1]
  std::string text;                   // as given, for messages
  bool of_replica() const { return kind == Kind::kReplicaCorrupt || kind == Kind::kReplicaLost; }
};

// One fault as above; InvalidArgument names what is wrong with it.
Result<Fault> ParseFault(std::string_view text);
// Every one of `texts`, or the first error.
Result<std::vector<Fault>> ParseFaults(const std::vector<std::string>& texts);

// How an attempt fails, if it does: at a fraction of its work, or at a time, whichever
// comes first.
struct AttemptFault {
  std::optional<double> at_fraction;  // task-fail: once it has done this much of its work
  std::optional<Time> at_time;        // slot-fail, node-fail: no later than this
  std::string why;
  bool fails() const { return at_fraction || at_time; }
  // The failure an executor reports.
  Status status() const { return Status::IoError("injected fault: " + why); }
};

// A replica fault of one job's map task, for whoever reads its block.
struct ReplicaFault {
  uint32_t map = 0;
  int node = -1;      // -1: the block's first replica
  bool lost = false;  // lost (missing) rather than corrupt
};

class FaultInjector {
 public:
  FaultInjector() = default;
  FaultInjector(std::vector<Fault> faults, uint64_t seed);

  bool empty() const { return faults_.empty(); }
  const std::vector<Fault>& faults() const { return faults_; }
  // InvalidArgument when a fault names a slot or node the cluster does not have.
  Status CheckCluster(const std::vector<SlotInfo>& slots, int nodes) const;

  // Registers a job's app (task-fail may apply to one app only). Loop thread.
  void AddJob(JobId job, std::string app) { apps_[job] = std::move(app); }
  void RemoveJob(JobId job) { apps_.erase(job); }

  // The fate of an attempt launched on `slot` (node `node`) at `start`. Loop thread.
  AttemptFault ForAttempt(const TaskRef& task, uint32_t attempt, SlotId slot, NodeId node,
                          Time start) const;
  // node-slow: each slowed node's factor over time, for the executors only.
  std::map<NodeId, SpeedProfile> SlowProfiles() const;
  // replica-corrupt, replica-lost.
  std::vector<ReplicaFault> ReplicaFaults() const;

 private:
  std::vector<Fault> faults_;
  uint64_t seed_ = 1;
  std::unordered_map<JobId, std::string> apps_;
};

}  // namespace mrlocal
