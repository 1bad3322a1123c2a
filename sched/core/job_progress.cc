#include "sched/core/job_progress.h"

#include <algorithm>

namespace mrlocal {

std::pair<double, double> JobProgress(const JobState& job, const ClusterState& state,
                                      const Executor& exec) {
  double map = job.maps_done, reduce = job.reduces_done;
  for (const SlotState& s : state.slots) {
    if (!s.task || s.task->job != job.id) continue;
    (s.task->kind == TaskKind::kMap ? map : reduce) += exec.Progress(s.info.id);
  }
  map = job.M() ? map / job.M() : 1.0;
  reduce = job.R() ? reduce / job.R() : 1.0;
  return {std::min(map, 1.0), std::min(reduce, 1.0)};
}

}  // namespace mrlocal
