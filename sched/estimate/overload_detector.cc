#include "sched/estimate/overload_detector.h"

#include <algorithm>

#include "sched/estimate/local_outlier_factor.h"
#include "sched/estimate/median.h"

namespace mrlocal {
void OverloadDetector::Observe(const TaskRef& task, SlotId slot, NodeId node, Time start, Time end,
                               double estimate_s) {
  NodeStatus& status = nodes_[node];
  status.probation_running = false;
  if (!(estimate_s > 0) || end < start) return;
  JobValues& job = jobs_[task.job];
  job.tasks.push_back({task, node, slot, Seconds(end - start) / estimate_s, 1, false});
  if (job.tasks.size() > kWindow) job.tasks.pop_front();
  job.at = end;
  Judge(job, node, end, end - start);
  // A first marking is rare: its snapshot costs one more LOF (~3 us at 100 tasks).
  if (!first_marking_ && status.overloaded) first_marking_ = LastEvaluation(task.job);
}

std::vector<double> OverloadDetector::Lof(const JobValues& job) const {
  std::vector<double> values;
  values.reserve(job.tasks.size());
  for (const TaskOutlier& t : job.tasks) values.push_back(t.value);
  const int half = std::max(1, static_cast<int>(values.size() - 1) / 2);
  return LocalOutlierFactors(values, std::min(options_.min_pts, half));
}

void OverloadDetector::Judge(const JobValues& job, NodeId node, Time now, Duration took) {
  NodeStatus& status = nodes_[node];
  std::vector<double> others;
  for (const TaskOutlier& t : job.tasks)
    if (t.node != node) others.push_back(t.value);
  if (others.empty()) {
    // One node only: nothing to compare with. An overloaded one stays so, and waits for
    // another probation.
    if (status.overloaded) status.cool_off_until = now + took;
    return;
  }
  const TaskOutlier& newest = job.tasks.back();  // the attempt just observed, on `node`
  const double typical = Median(std::move(others));
  const bool outlier =
      newest.value > kSlowSide * typical && Lof(job).back() > options_.lof_threshold;
  status.overloaded = outlier;
  status.slowdown = outlier ? newest.value / typical : 1;
  if (outlier) status.cool_off_until = now + took;
}

void OverloadDetector::ForgetJob(JobId job) { jobs_.erase(job); }

bool OverloadDetector::overloaded(NodeId node) const {
  auto it = nodes_.find(node);
  return it != nodes_.end() && it->second.overloaded;
}

double OverloadDetector::slowdown(NodeId node) const {
  auto it = nodes_.find(node);
  return it != nodes_.end() && it->second.overloaded ? it->second.slowdown : 1;
}

bool OverloadDetector::ProbationDue(NodeId node, Time now) const {
  auto it = nodes_.find(node);
  return it != nodes_.end() && it->second.overloaded && !it->second.probation_running &&
         now >= it->second.cool_off_until;
}

std::optional<Time> OverloadDetector::cool_off_until(NodeId node) const {
  auto it = nodes_.find(node);
  if (it == nodes_.end() || !it->second.overloaded) return std::nullopt;
  return it->second.cool_off_until;
}

void OverloadDetector::StartProbation(NodeId node) { nodes_[node].probation_running = true; }

std::vector<NodeId> OverloadDetector::overloaded_nodes() const {
  std::vector<NodeId> out;
  for (const auto& [node, status] : nodes_)
    if (status.overloaded) out.push_back(node);
  return out;
}

std::optional<LofEvaluation> OverloadDetector::LastEvaluation(JobId job) const {
  auto it = jobs_.find(job);
  if (it == jobs_.end() || it->second.tasks.empty()) return std::nullopt;
  LofEvaluation e{
      it->second.at, {it->second.tasks.begin(), it->second.tasks.end()}, options_.lof_threshold};
  const std::vector<double> lof = Lof(it->second);
  for (size_t i = 0; i < e.tasks.size(); ++i) {
    e.tasks[i].lof = lof[i];
    e.tasks[i].node_overloaded = overloaded(e.tasks[i].node);
  }
  return e;
}

}  // namespace mrlocal
