#include "tools/runtime/run_estimator.h"

namespace mrlocal {

std::vector<std::string> EstimatorNames() { return {"history", "knn"}; }

std::optional<EstimatorKind> ParseEstimatorKind(std::string_view name) {
  if (name == "history") return EstimatorKind::kHistory;
  if (name == "knn") return EstimatorKind::kKnn;
  return std::nullopt;
}

RunEstimator::RunEstimator(EstimatorKind kind, const JobHistory* history,
                           KnnObservations observations)
    : history_(history) {
  if (kind == EstimatorKind::kKnn)
    knn_ = std::make_unique<KnnEstimator>(history, std::move(observations));
}

const Estimator* RunEstimator::estimator() const {
  if (knn_) return knn_.get();
  return history_;
}

}  // namespace mrlocal
