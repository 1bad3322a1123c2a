#include "tools/runtime/estimator_feed.h"

namespace mrlocal {

void EstimatorFeed::OnTaskReport(const TaskReport& r) {
  const ClusterState& state = controller_.state();
  const JobState& job = state.job(r.task.job);
  if (job.finished()) return;
  learner_.Observe(RecordOf(r, job.task(r.task.kind, r.task.index)), state);
}

void EstimatorFeed::OnJobFinished(const JobState& job, const JobOutcome&, Time) {
  learner_.ObserveJobEnd(job);
}

}  // namespace mrlocal
