#include "tools/runtime/job_set_preview.h"

#include <utility>

#include "datasets/plan_instance.h"
#include "tools/runtime/sim_jobs.h"

namespace mrlocal {

Result<PlanPreview> JobSetPreview(const WorkloadSpec& spec, const ClusterSpec& cluster,
                                  const AppRegistry& apps, const Calibration& calibration) {
  bool modelled = false;
  const SimModelContext context{spec, calibration};
  auto work = [&](const WorkloadJob& job) -> Result<JobWork> {
    auto app = apps.Find(job.app);
    if (!app.ok()) return app.status().WithContext("job '" + job.name + "': ");
    if (!(*app)->model_estimate(calibration, 1.0))
      return Status::InvalidArgument("job '" + job.name + "': app '" + job.app +
                                     "' has no task-time model in the " + calibration.source +
                                     " calibration, and a plan needs every task's time (run "
                                     "`mrlocal calibrate --apps " +
                                     job.app + "`, or give --calibration FILE)");
    auto built = BuildSimJob(apps, job, context);
    if (!built.ok()) return built.status();
    modelled |= (*app)->calibrate != nullptr;  // null: the job declares its work
    return JobWork{std::move(built->sim.map_work_s), std::move(built->sim.reduce_work_s)};
  };
  auto instance = PlanInstanceOf(spec, cluster, work);
  if (!instance.ok()) return instance.status();
  return PlanPreview{.instance = std::move(instance).value(), .lp = {}, .modelled_work = modelled};
}

}  // namespace mrlocal
