// The priority rules of the paper's greedy baselines (Ling et al. 2016, section 5.1.3), as
// a key per task, smaller first. A rule reads only the task and its job, so an online
// policy that sees jobs at their arrival ranks the tasks of released jobs with the same
// key as the offline plans (baselines.h) rank every task.
#pragma once

#include <vector>

#include "engine/status.h"
#include "sched/plan/instance.h"

namespace mrlocal {

enum class PriorityRule {
  kHighUnitWeight,  // HUWF: the job's weight over its tasks' total work, highest first
  kHighJobWeight,   // HJWF: the job's weight, highest first
  kHighTaskWeight,  // HTWF: the task's own weight W_u (Table 1), highest first
  kShortestTask,    // STF: the task's work, shortest first
};

// UW_j = w_j / sum of p_u over the job's tasks; a job of zero work has infinite UW (it
// costs nothing to finish it first).
double UnitWeight(const PlanJob& job);

// The key of a task of `job` under `rule`, smaller first (kHighTaskWeight reads the task's
// weight). The caller breaks ties (the plans: earlier job first, maps first).
double PriorityKey(PriorityRule rule, const PlanJob& job, const PlanTask& task);

// Per task of `instance` (FlattenTasks order), its key. Without the instance's task weights
// each task weighs its job's weight, and kHighTaskWeight orders as kHighJobWeight.
// InvalidArgument (ValidateInstance's message) for an invalid instance.
Result<std::vector<double>> PriorityKeys(PriorityRule rule, const PlanInstance& instance);

}  // namespace mrlocal
