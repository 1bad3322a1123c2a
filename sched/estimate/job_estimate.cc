#include "sched/estimate/job_estimate.h"

#include <algorithm>
#include <cmath>

namespace mrlocal {

std::string NoEstimateReason(const JobState& job) {
  return "no execution history for app '" + job.spec.app + "': cannot estimate its tasks";
}

double SlowestSpeed(const ClusterState& state, SlotKind kind) {
  double slowest = 0;
  for (const SlotState& s : state.slots)
    if (s.info.kind == kind && (slowest == 0 || s.info.speed < slowest)) slowest = s.info.speed;
  return slowest > 0 ? slowest : 1.0;
}

std::optional<ShuffleEstimate> ReduceInput(const JobState& job, const Estimator& estimator) {
  if (job.spec.max_reduce_units == 0 && job.spec.shuffle_units == 0) return estimator.Shuffle(job);
  ShuffleEstimate s;
  s.total_units = static_cast<double>(job.spec.shuffle_units);
  s.largest_units = job.spec.max_reduce_units > 0 ? static_cast<double>(job.spec.max_reduce_units)
                                                  : std::ceil(s.total_units / job.R());
  return s;
}

std::optional<JobEstimate> EstimateJob(const JobState& job, const ClusterState& state,
                                       const Estimator& estimator, double margin) {
  const double map_speed = SlowestSpeed(state, SlotKind::kMap) / margin;
  const double reduce_speed = SlowestSpeed(state, SlotKind::kReduce) / margin;
  JobEstimate e;
  double largest_split = 0, work = 0;
  for (const TaskState& m : job.maps) {
    const double units = static_cast<double>(m.input_bytes);
    largest_split = std::max(largest_split, units);
    // At speed 1.0, summed, then spread over the slowest slot: DC's fluid map stage.
    auto seconds = estimator.TaskSeconds(job, {TaskKind::kMap, units, 1.0});
    if (!seconds) return std::nullopt;
    work += *seconds;
  }
  auto map_task = estimator.TaskSeconds(job, {TaskKind::kMap, largest_split, map_speed});
  if (!map_task) return std::nullopt;
  e.map_task = FromSeconds(*map_task);
  e.map_work = FromSeconds(work / map_speed);
  e.source = estimator.Source(job);
  e.map_spread = estimator.Spread(job, TaskKind::kMap);
  if (job.R() == 0) return e;
  e.reduce_spread = estimator.Spread(job, TaskKind::kReduce);
  const std::optional<ShuffleEstimate> shuffle = ReduceInput(job, estimator);
  if (!shuffle) return std::nullopt;
  e.shuffle_units = shuffle->total_units;
  auto reduce_task =
      estimator.TaskSeconds(job, {TaskKind::kReduce, shuffle->largest_units, reduce_speed});
  if (!reduce_task) return std::nullopt;
  e.reduce_task = FromSeconds(*reduce_task);
  return e;
}

}  // namespace mrlocal
