// Every app a job or a workload can run, by name. One descriptor per app holds all that is
// particular to it: what its spec jobs take, how such a job runs on the real engine, how it
// is simulated, how a first run probes it and how `mrlocal calibrate` measures it. Nothing
// outside the descriptors dispatches on an app's name: the commands, the workload runners,
// the probe and calibration look the app up here.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "datasets/app_schema.h"
#include "datasets/workload_spec.h"
#include "engine/status.h"
#include "sched/core/cluster_spec.h"
#include "sched/estimate/job_history.h"
#include "sched/estimate/task_model.h"
#include "tools/runtime/calibration_run.h"
#include "tools/runtime/job_app.h"
#include "tools/runtime/probe.h"
#include "tools/runtime/sim_jobs.h"

namespace mrlocal {

struct AppDescriptor {
  // Its name, and the fields its spec jobs take (the workload readers check them).
  AppSchema spec;
  // The real runtime of a spec job of this app, as the reader validated it.
  std::function<JobApp(const WorkloadJob&)> runtime;
  // The simulation model of a spec job: fills parts' task work (SimJob) and the sizes the
  // deadline policies read (JobSpec maps, shuffle units). BuildSimJob does the rest.
  std::function<Status(const WorkloadJob&, const SimModelContext&, SimJobParts& parts)> model;
  // What rtmr and dc assume of the app in a simulation, with every task time at the model's
  // `worst` noise factor. None: `calibration` has no model of it (BuildSimJob says so).
  std::function<std::optional<AppEstimate>(const Calibration&, double worst)> model_estimate;
  // The first-run measurement of a job of this app (request.app), before the safety
  // factors (ProbeApp applies them).
  std::function<Result<AppEstimate>(const ProbeRequest&, const ProbeNote&)> probe;
  // A real workload's estimate when history has none: what its jobs declare of themselves.
  // None: the deadline policies need history of the app.
  std::optional<AppEstimate> declared_estimate;
  // Measures the app's simulation model on `cluster` with inputs of about `size` units.
  // Null: its jobs declare their work, nothing to calibrate.
  std::function<Result<CalibrationResult>(const ClusterSpec& cluster, uint64_t size)> calibrate;
};

class AppRegistry {
 public:
  // wordcount, friendcount, pi and synthetic (tools/runtime/builtin_apps.h).
  static const AppRegistry& BuiltIn();

  // InvalidArgument when an app of that name is registered already.
  Status Register(AppDescriptor app);
  // InvalidArgument "unknown app 'x' (known: wordcount, friendcount, pi, synthetic)".
  Result<const AppDescriptor*> Find(std::string_view name) const;
  // In registration order.
  std::vector<std::string> Names() const;
  // What the workload readers accept, in registration order.
  const AppSchemas& schemas() const { return schemas_; }

 private:
  const AppDescriptor* Lookup(std::string_view name) const;  // null when unknown

  std::vector<std::unique_ptr<const AppDescriptor>> apps_;  // stable addresses for Find
  AppSchemas schemas_;
};

}  // namespace mrlocal
