// The control for the layering tests: what a policy may include compiles.
#include "engine/status.h"
#include "sched/core/cluster_state.h"
#include "sched/core/policy.h"
#include "sched/estimate/job_history.h"
