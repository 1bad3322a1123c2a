// A workload's jobs as the simulation sees them: the JobSpec the Controller schedules and
// the SimJob whose per-task work the SimExecutor plays out, from each app's model (its
// AppDescriptor::model: the calibrated task model, sched/estimate/task_model.h, or the
// work a synthetic job declares).
#pragma once

#include "datasets/workload_spec.h"
#include "engine/status.h"
#include "sched/core/job.h"
#include "sched/estimate/job_history.h"
#include "sched/estimate/task_model.h"
#include "sched/sim/sim_executor.h"

namespace mrlocal {

class AppRegistry;

struct SimJobParts {
  JobSpec spec;
  SimJob sim;
  // Size units each reduce reads (its share of the shuffle): BuildSimJob makes the job's
  // shuffle sketch of it. Empty: unknown.
  std::vector<uint64_t> reduce_input;
};

// What an app's model sees beside the job.
struct SimModelContext {
  const WorkloadSpec& workload;
  const Calibration& calibration;
};

// Validates what the simulation needs (the app is known and modelled; input files exist,
// for their sizes); errors are InvalidArgument/NotFound naming the job.
Result<SimJobParts> BuildSimJob(const AppRegistry& apps, const WorkloadJob& job,
                                const SimModelContext& context);

// What the deadline policies (rtmr, dc) know of each app in a simulation: the model's own
// task times at their worst noise draw (SimExecutor::MaxNoiseFactor), as if history had
// seen every kind of task. Source "model".
JobHistory ModelHistory(const AppRegistry& apps, const WorkloadSpec& workload,
                        const Calibration& calibration);

// The input bytes of each map task of `job` (one per block, a gzip file whole; given
// sizes split evenly over `maps` when the job names a count). Empty for input-less apps.
// Files of a job that names its maps are cut with its own block size (JobBlockSize; a
// gzip file is then unpacked first), as a real run puts them into its store.
Result<std::vector<uint64_t>> MapSplitBytes(const WorkloadJob& job, uint64_t block_size);

// The block size that cuts `bytes` of input into `maps` splits: ceil(bytes / maps),
// at least 1. It gives exactly `maps` blocks when bytes > maps * (maps - 1), fewer only
// for inputs of a few bytes per map.
uint64_t JobBlockSize(uint64_t bytes, uint32_t maps);

// The bytes a map reads of the file `path`: its size, or, when `unpack` (a gzip file of
// a job that names its maps), its inflated size.
Result<uint64_t> InputFileBytes(const std::string& path, bool unpack);

// For the models of calibrated apps: `shuffle_units` split evenly over the job's reduces,
// each timed by `model`; the job's largest reduce input when it declares its shuffle.
void ModelReduces(const AppModel& model, uint64_t shuffle_units, SimJobParts& parts);

// `total` split over parts in proportion to `weights` (evenly when they are all 0); the
// parts sum to `total` exactly. E.g. a trace job's shuffle bytes over its maps by input.
std::vector<uint64_t> SplitByWeight(uint64_t total, const std::vector<uint64_t>& weights);

}  // namespace mrlocal
