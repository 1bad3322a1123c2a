// DynamicShare's Fig. 6 as a standalone SVG (overload.svg in a report): the tasks of one job
// as its overload detector last judged them when it first marked a node overloaded. Two
// panels over the same tasks (oldest left): each task's slowdown (measured over estimated
// time; the paper plots laxity, which falls as slowdown rises) and its local outlier
// factor with the threshold; tasks on a node marked overloaded are red, and named.
// Deterministic: same snapshot, same bytes.
#pragma once

#include <string>

#include "sched/core/lof_snapshot.h"

namespace mrlocal {

// `job_name` heads the chart. An evaluation without tasks gives a chart that says so.
std::string LofSnapshotSvg(const LofEvaluation& snapshot, const std::string& job_name);

}  // namespace mrlocal
