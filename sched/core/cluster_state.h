// The control plane's view of the cluster: slots and what runs on them, and the jobs.
// Owned and mutated by the Controller on its thread; policies get it read-only.
#pragma once

#include <map>
#include <optional>
#include <vector>

#include "sched/core/job.h"
#include "sched/core/slot_info.h"

namespace mrlocal {

struct SlotState {
  SlotInfo info;
  std::optional<TaskRef> task;  // the attempt running here, if any
  uint64_t token = 0;           // that attempt's token
  Time free_since{0};
  // That attempt's job was admitted best effort (Admission::best_effort): it gives way to
  // admitted jobs, so a policy reserving slots for those may count this one free.
  bool best_effort = false;
  // Its node is excluded after failed attempts (RetryOptions): it takes nothing meanwhile.
  bool excluded = false;
  // The attempt here is a speculative copy (sched/core/speculation.h); it is extra when
  // it is not its task's counted attempt (a copy, or an attempt its copy beat).
  bool speculative = false;
  bool extra = false;
  // Whether a task planned for this slot has to go elsewhere now (it is busy or excluded).
  bool unavailable() const { return task.has_value() || excluded; }
};

struct ClusterState {
  std::vector<SlotState> slots;
  int nodes = 1;
  std::map<JobId, JobState> jobs;  // every job submitted, by id (= arrival order)
  std::vector<JobId> active;       // admitted and not finished, in arrival order
  std::vector<JobId> reducing;     // the active jobs whose reduces are planned, same order
  // Attempts running per node, kept by the Controller (TaskState::node_tasks, the feature
  // estimators learn from); empty in a state built by hand.
  std::vector<int> running_on_node;

  const JobState& job(JobId id) const { return jobs.at(id); }
  JobState& job(JobId id) { return jobs.at(id); }
};

}  // namespace mrlocal
