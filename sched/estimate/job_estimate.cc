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

JobEstimate EstimateJob(const JobState& job, const AppEstimate& app, double slowest_map_speed,
                        double slowest_reduce_speed, double margin) {
  slowest_map_speed /= margin;
  slowest_reduce_speed /= margin;
  JobEstimate e;
  double largest_split = 0, input = 0, work = 0;
  for (const TaskState& m : job.maps) {
    const double units = static_cast<double>(m.input_bytes);
    largest_split = std::max(largest_split, units);
    input += units;
    work += app.MapSeconds(units);
  }
  e.map_task = FromSeconds(app.MapSeconds(largest_split) / slowest_map_speed);
  e.map_work = FromSeconds(work / slowest_map_speed);
  if (job.R() > 0) {
    double largest_reduce;
    if (job.spec.max_reduce_units > 0 || job.spec.shuffle_units > 0) {
      e.shuffle_units = static_cast<double>(job.spec.shuffle_units);
      largest_reduce = job.spec.max_reduce_units > 0
                           ? static_cast<double>(job.spec.max_reduce_units)
                           : std::ceil(e.shuffle_units / job.R());
    } else {
      e.shuffle_units = app.alpha * input;
      largest_reduce = std::max(1.0, app.reduce_skew) * e.shuffle_units / job.R();
    }
    e.reduce_task = FromSeconds(app.ReduceSeconds(largest_reduce) / slowest_reduce_speed);
  }
  return e;
}

}  // namespace mrlocal
