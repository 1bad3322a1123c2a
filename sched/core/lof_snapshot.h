// What an overload detector saw when it marked a node overloaded: the local outlier factor
// of each of one job's recent tasks (DynamicShare Fig. 6). A policy that detects overload
// offers it (Policy::OverloadSnapshot) and the report draws it (overload.svg); a plain
// struct so that neither needs the other.
#pragma once

#include <vector>

#include "sched/core/clock.h"
#include "sched/core/job.h"
#include "sched/core/slot_info.h"

namespace mrlocal {

// One task of an evaluation.
struct TaskOutlier {
  TaskRef task;
  NodeId node = 0;
  SlotId slot = -1;
  double value = 0;  // slowdown: measured over estimated time
  double lof = 1;
  bool node_overloaded = false;  // its node's status when the evaluation was made
};

struct LofEvaluation {
  Time at{0};                      // when the newest task ended
  std::vector<TaskOutlier> tasks;  // oldest first
  double lof_threshold = 0;        // above which (and on the slow side) a node is marked
};

}  // namespace mrlocal
