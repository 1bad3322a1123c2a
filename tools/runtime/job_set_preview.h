// What a planning policy sees of a workload before it starts (sched/plan/plan_preview.h),
// for any app the registry models: every task's work is what `workload --sim` would play
// for it (BuildSimJob, at noise 0). A synthetic job declares its task seconds; a job of an
// input app (wordcount, friendcount) has one map per split of its input (the spec's block
// size, or its input cut into its `maps`), each taking the calibrated model's
// map_fixed_s + map_s_per_unit x split bytes, and its reduces share the model's shuffle
// (alpha x input bytes) evenly, each reduce_fixed_s + reduce_s_per_unit x its share; pi's
// maps are timed by their samples. Such works are estimates: the LP over them bounds the
// model's times, which a simulation plays and a real run does not (PlanPreview's
// modelled_work).
#pragma once

#include "datasets/workload_spec.h"
#include "engine/status.h"
#include "sched/core/cluster_spec.h"
#include "sched/estimate/task_model.h"
#include "sched/plan/plan_preview.h"
#include "tools/runtime/app_registry.h"

namespace mrlocal {

// The preview of `spec` (its times as given: scale them first) on `cluster`, its LP not
// solved. InvalidArgument naming the job for an unknown app, for an app `calibration` has
// no model of ("run `mrlocal calibrate`"), or for what BuildSimJob refuses (a missing
// input file).
Result<PlanPreview> JobSetPreview(const WorkloadSpec& spec, const ClusterSpec& cluster,
                                  const AppRegistry& apps, const Calibration& calibration);

}  // namespace mrlocal
