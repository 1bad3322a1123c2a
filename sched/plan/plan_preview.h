// What an offline policy sees of a run before it starts (clairvoyance): every job of the
// workload as an MSJO instance, in the workload's order, each named as the run will name
// it. MarS, MARES and the greedy baselines plan over the whole job set (Ling et al. 2016,
// section 5.1.3); SubmitAt alone reveals a job only at its arrival.
#pragma once

#include <optional>

#include "engine/status.h"
#include "sched/plan/instance.h"
#include "sched/plan/lp_bound.h"

namespace mrlocal {

struct PlanPreview {
  PlanInstance instance;
  // The instance's LP (SolvePlanningLp), when a front end solved it once for several
  // policies of the same job set (`compare`); none: each planner that needs it solves it.
  std::optional<Result<LpBound>> lp;
  // Some job's task works are a calibrated model's estimates (an app's simulation model),
  // not declared by the job: the LP then bounds the model's times. A simulation plays
  // those times (its noise aside), a real run does not: its measured times differ.
  bool modelled_work = false;
  // Its task-level LP (SolvePlanningLp with LpObjective::kTaskCompletion, T-MarS's and the
  // bound on TWTCT), the same way.
  std::optional<Result<LpBound>> task_lp = {};
};

}  // namespace mrlocal
