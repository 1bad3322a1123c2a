// The estimator a run's deadline policy asks (--estimator history|knn): the JobHistory
// itself, or a KnnEstimator (sched/estimate/knn_estimator.h) that starts from stored
// observations, takes the history (or a simulation's model) as its cold-start prior and
// learns from every task of the run. JobHistory learns per finished job through the
// history file (JobRun::RecordHistory), never online: a workload's estimates stay those
// it started with, so that runs under different policies are compared on the same ones.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sched/estimate/job_history.h"
#include "sched/estimate/knn_estimator.h"

namespace mrlocal {

enum class EstimatorKind { kHistory, kKnn };
std::vector<std::string> EstimatorNames();  // "history", "knn"
// None for a name that is not one of EstimatorNames().
std::optional<EstimatorKind> ParseEstimatorKind(std::string_view name);

class RunEstimator {
 public:
  // `history` (may be null: no estimates) must outlive this.
  RunEstimator(EstimatorKind kind, const JobHistory* history, KnnObservations observations = {});

  // What the policy asks; null when there is nothing to ask.
  const Estimator* estimator() const;
  // What learns from the run's tasks (RuntimeOptions::learner): the kNN estimator, else null.
  Estimator* learner() { return knn_.get(); }

 private:
  const JobHistory* history_;
  std::unique_ptr<KnnEstimator> knn_;
};

}  // namespace mrlocal
