#include "datasets/plan_instance.h"

#include <string>

namespace mrlocal {
namespace {

// n works from a synthetic job's key: its list, or its single entry n times.
std::vector<double> Works(const WorkloadJob& job, const char* key, uint32_t n) {
  const std::vector<double>& given = job.params.TaskSeconds(key);
  if (given.size() == 1) return std::vector<double>(n, given[0]);
  return given;
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
    p.maps = std::move(w->maps);
    p.reduces = std::move(w->reduces);
  }
  MRLOCAL_RETURN_IF_ERROR(ValidateInstance(in));
  return in;
}

}  // namespace mrlocal
