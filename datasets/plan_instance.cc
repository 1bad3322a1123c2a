#include "datasets/plan_instance.h"

#include <algorithm>
#include <string>

namespace mrlocal {
namespace {

// n works from a synthetic job's key: its list, or its single entry n times.
std::vector<double> Works(const WorkloadJob& job, const char* key, uint32_t n) {
  const std::vector<double>& given = job.params.TaskSeconds(key);
  if (given.size() == 1) return std::vector<double>(n, given[0]);
  return given;
}

// The jobs' W_u (FlattenTasks order) when any job gives them: the others' tasks weigh
// their job's weight. None given: empty, as the instance's default means the same.
void AddTaskWeights(const WorkloadSpec& spec, PlanInstance& in) {
  const auto given = [](const WorkloadJob& job) { return !job.task_weights.empty(); };
  if (std::none_of(spec.jobs.begin(), spec.jobs.end(), given)) return;
  for (size_t j = 0; j < spec.jobs.size(); ++j) {
    const std::vector<double>& w = spec.jobs[j].task_weights;
    const size_t tasks = in.jobs[j].maps.size() + in.jobs[j].reduces.size();
    if (w.empty())
      in.task_weights.insert(in.task_weights.end(), tasks, in.jobs[j].weight);
    else
      in.task_weights.insert(in.task_weights.end(), w.begin(), w.end());
  }
}

}  // namespace

Result<JobWork> DeclaredWork(const WorkloadJob& job) {
  if (job.app != "synthetic")
    return Status::InvalidArgument("job '" + job.name + "' (" + job.app +
                                   "): a plan needs per-task times, which only synthetic "
                                   "jobs give");
  JobWork w{Works(job, "map_s", job.maps), Works(job, "reduce_s", job.reduces)};
  if (w.maps.size() != job.maps || w.reduces.size() != job.reduces)
    return Status::InvalidArgument("job '" + job.name +
                                   "': map_s and reduce_s must give one time or one per task");
  return w;
}

Result<PlanInstance> PlanInstanceOf(const WorkloadSpec& spec, const ClusterSpec& cluster,
                                    const JobWorkFn& work) {
  PlanInstance in;
  for (const NodeGroup& g : cluster.groups())
    for (int i = 0; i < g.count; ++i) in.machine_speeds.push_back(g.speed);
  for (const WorkloadJob& job : spec.jobs) {
    auto w = work(job);
    if (!w.ok()) return w.status();
    PlanJob& p = in.jobs.emplace_back();
    p.name = job.name;
    p.release = job.arrival_s;
    p.weight = job.weight;
    p.delay = job.shuffle_delay_s + spec.model.shuffle_delay_s;
    MRLOCAL_RETURN_IF_ERROR(CheckTaskWeightCount(job, w->maps.size(), w->reduces.size()));
    p.maps = std::move(w->maps);
    p.reduces = std::move(w->reduces);
  }
  AddTaskWeights(spec, in);
  MRLOCAL_RETURN_IF_ERROR(ValidateInstance(in));
  return in;
}

}  // namespace mrlocal
