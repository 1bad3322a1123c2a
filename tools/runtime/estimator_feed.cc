#include "tools/runtime/estimator_feed.h"

namespace mrlocal {

void EstimatorFeed::OnTaskReport(const TaskReport& r) {
  const ClusterState& state = controller_.state();
  const JobState& job = state.job(r.task.job);
  if (job.finished()) return;
  const TaskState& t = job.task(r.task.kind, r.task.index);
  const TaskRecord record{r.task, t.attempts,    r.slot,         r.status.ok(), r.start,
                          r.end,  r.input_bytes, r.output_bytes, t.node_tasks};
  learner_.Observe(record, state);
}

void EstimatorFeed::OnJobFinished(const JobState& job, const JobOutcome&, Time) {
  learner_.ObserveJobEnd(job);
}

}  // namespace mrlocal
