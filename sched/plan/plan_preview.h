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
  // Its task-level LP (SolvePlanningLp with LpObjective::kTaskCompletion, T-MarS's and the
  // bound on TWTCT), the same way.
  std::optional<Result<LpBound>> task_lp = {};
};

}  // namespace mrlocal
