// Online learning for a run's estimator: every finished attempt, with its features at
// launch, and every job's end reach Estimator::Observe and ObserveJobEnd, as the contract
// in sched/estimate/estimator.h says. A ControllerObserver, so that sched/core knows
// nothing of estimators; the Runtime installs one when RuntimeOptions::learner is set.
#pragma once

#include "sched/core/controller.h"
#include "sched/estimate/estimator.h"

namespace mrlocal {

class EstimatorFeed final : public ControllerObserver {
 public:
  // Both must outlive the feed; `controller` is the one this feed observes.
  EstimatorFeed(Estimator& learner, const Controller& controller)
      : learner_(learner), controller_(controller) {}

  // The attempt as the policy's OnTaskFinished sees it (TaskRecord); a cancelled straggler
  // of a job that already ended is not told, as the Controller does not tell the policy.
  void OnTaskReport(const TaskReport& report) override;
  void OnJobFinished(const JobState& job, const JobOutcome& outcome, Time now) override;

 private:
  Estimator& learner_;
  const Controller& controller_;
};

}  // namespace mrlocal
