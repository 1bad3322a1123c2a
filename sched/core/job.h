// Jobs and tasks as the control plane tracks them. Vocabulary of RTMR: a job
// J = (A, D, M, R, sigma): arrival, relative deadline, map tasks, reduce tasks, input bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/partition_hash.h"
#include "sched/core/clock.h"
#include "sched/core/slot_info.h"

namespace mrlocal {

using JobId = uint32_t;

enum class TaskKind : uint8_t { kMap, kReduce };
inline std::string_view ToString(TaskKind k) { return k == TaskKind::kMap ? "map" : "reduce"; }

struct TaskRef {
  JobId job = 0;
  TaskKind kind = TaskKind::kMap;
  uint32_t index = 0;
  friend bool operator==(const TaskRef&, const TaskRef&) = default;
};

enum class TaskStatus : uint8_t { kPending, kRunning, kDone };

struct TaskState {
  TaskStatus status = TaskStatus::kPending;
  uint64_t input_bytes = 0;         // map: split bytes; reduce: planned load (size units)
  std::vector<NodeId> local_nodes;  // map: nodes holding a replica of the split
  SlotId planned_slot = -1;         // reduce: the slot the partitioner planned it for
  SlotId slot = -1;                 // where the current/last attempt runs
  SlotId copy_slot = -1;            // where its speculative copy runs, if one does
  uint32_t attempts = 0;
  uint32_t failures = 0;  // attempts that failed (RetryOptions)
  // Where its attempts failed: a retry runs elsewhere while there is an elsewhere.
  std::vector<NodeId> failed_nodes;
  // Attempts of any job running on the other slots of its slot's node when the current/last
  // attempt launched: a feature learned estimators regress on (TaskFeatures::node_tasks).
  int node_tasks = 0;
  Time ready_since{0};  // when it last became runnable
  Time start{0};
  Time end{0};
};

enum class JobPhase : uint8_t { kMap, kShuffle, kReduce, kDone, kFailed, kRejected };
std::string_view ToString(JobPhase p);

// What a submitter says about a job before it runs.
struct JobSpec {
  std::string name;
  std::string app;
  std::optional<Duration> deadline;  // D, relative to arrival; none = best effort
  // A soft completion-time goal, relative to arrival; none = no goal. Unlike a deadline it
  // is never a reason to reject a job: missing it costs utility (goal_utility.h). A job
  // command's goal runs from the command's start, so what is left of it at submission may
  // be <= 0: the job is past its goal on arrival.
  std::optional<Duration> goal;
  uint64_t input_bytes = 0;       // sigma
  uint32_t reduces = 1;           // R
  double weight = 1.0;            // MarS
  std::string queue = "default";  // dynamic proportional share
  // dynprio: while the job is admitted and not finished its queue bids this per slot per
  // interval instead of its rate, from the next interval (the paper's section 4.4 boost: a
  // user paying more for one job). None: the queue's rate.
  std::optional<double> bid;
  // W_u of each task, its maps then its reduces (MarS section 4.4's TWTCT); empty: every
  // task weighs `weight`.
  std::vector<double> task_weights;
  // The job's partition functions (sketch rows, p partitions each); row 0 = hash mod p.
  std::vector<PartitionHash> partition_hashes;
  // One entry per map task: its split's bytes and the nodes that hold a replica. Consumed
  // at arrival: JobState::maps has them afterwards.
  struct MapSplit {
    uint64_t bytes = 0;
    std::vector<NodeId> nodes;
  };
  std::vector<MapSplit> maps;
  // What the submitter knows of the reduce input, in size units: in all, and the largest
  // reduce task's share. 0: unknown, and the deadline policies estimate it from history
  // (α·σ and the app's skew). Synthetic jobs and traces know theirs.
  uint64_t shuffle_units = 0;
  uint64_t max_reduce_units = 0;
  // MarS's map->reduce delay d (eq. 2: S_v >= S_u + p_u + d): the reduces are planned and
  // become runnable this long after the map stage ends, holding no slot meanwhile (a
  // reduce released early by slow-start keeps the slot it holds).
  Duration shuffle_delay{0};
};

struct JobState {
  JobId id = 0;
  JobSpec spec;
  Time arrival{0};  // A
  JobPhase phase = JobPhase::kMap;
  std::vector<TaskState> maps;
  std::vector<TaskState> reduces;  // created at submission; runnable once planned
  uint32_t maps_done = 0, maps_running = 0;
  uint32_t reduces_done = 0, reduces_running = 0;
  // Attempts running besides one per running task: speculative copies, and attempts a
  // copy beat (cancelled, their reports due).
  uint32_t extra_running = 0;
  bool reduces_planned = false;
  // Reduce slow-start (ControllerOptions::reduce_slowstart) let the reduces launch before
  // the plan: one launched then holds its slot, doing nothing, until the plan is made.
  bool reduces_early = false;
  Time map_phase_end{0};
  Time finish{0};
  std::string failure;  // why it failed, when phase == kFailed

 private:
  // Stacks of map indexes, lowest index on top; entries that are no longer pending are
  // dropped when met. A cache only: it never changes what NextPendingMap means.
  mutable std::vector<std::vector<uint32_t>> pending_by_node_;
  mutable std::vector<uint32_t> pending_any_;
  mutable std::vector<uint32_t> retries_;  // maps pending again after a failed attempt
  int nodes_ = 1;                          // the cluster's (BuildMapIndex)
  // Whether map `i` may run on `node`: not where it failed, unless it failed everywhere.
  bool MayRunOn(uint32_t i, NodeId node) const;

 public:
  uint32_t M() const { return static_cast<uint32_t>(maps.size()); }
  uint32_t R() const { return static_cast<uint32_t>(reduces.size()); }
  std::optional<Time> absolute_deadline() const {
    if (!spec.deadline) return std::nullopt;
    return arrival + *spec.deadline;
  }
  std::optional<Time> absolute_goal() const {
    if (!spec.goal) return std::nullopt;
    return arrival + *spec.goal;
  }
  bool finished() const {
    return phase == JobPhase::kDone || phase == JobPhase::kFailed || phase == JobPhase::kRejected;
  }
  uint32_t maps_pending() const { return M() - maps_done - maps_running; }
  uint32_t reduces_pending() const {
    return reduces_planned || reduces_early ? R() - reduces_done - reduces_running : 0;
  }
  // A pending map task, preferring one with a replica on `node` (Hadoop's data-local
  // first); with local_only, only those. Without local_only a retry of a task that
  // failed elsewhere comes first, as Hadoop runs failed tasks first; a task never runs
  // again on a node where it failed while some node has not failed it. Amortized O(1): lazily
  // cleaned index stacks.
  std::optional<uint32_t> NextPendingMap(NodeId node, bool local_only) const;
  // Puts a map task back in the pending indexes (after a failed or preempted attempt).
  void IndexPendingMap(uint32_t index);
  // Builds the pending indexes; called once at submission.
  void BuildMapIndex(int nodes);

  TaskState& task(TaskKind k, uint32_t i) { return k == TaskKind::kMap ? maps[i] : reduces[i]; }
  const TaskState& task(TaskKind k, uint32_t i) const {
    return k == TaskKind::kMap ? maps[i] : reduces[i];
  }
};

}  // namespace mrlocal
