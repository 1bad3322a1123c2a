// A job made ready for the real engine: the JobSpec the Controller schedules (one map per
// block split, or per index for input-less apps) and the RealJob the RealExecutor runs
// (the app's runtime, a split reader over the block store, the output). Used by the job
// subcommands, `mrlocal workload` (real mode) and `mrlocal calibrate`.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/block_store.h"
#include "sched/core/fault_injection.h"
#include "sched/core/real_executor.h"
#include "tools/runtime/job_app.h"

namespace mrlocal {

struct RealJobRequest {
  const JobApp* app = nullptr;
  BlockStore* store = nullptr;     // must outlive the job; holds `paths`
  std::vector<std::string> paths;  // in the store; ignored when app->index_maps > 0
  std::string name;                // default: the app's name
  std::optional<Duration> deadline;
  std::optional<Duration> goal;
  uint32_t reduces = 1;
  uint32_t partitions = 1;  // >= reduces
  int sketch_rows = 4;
  int top = 10;
  bool skip_bad_records = false;
  double weight = 1.0;
  std::string queue = "default";
  std::optional<double> bid;          // JobSpec::bid
  std::shared_ptr<JobOutput> output;  // null: output computed, then discarded
  // Injected into `store` for the blocks this job's maps read (its reads only see them;
  // nothing on disk changes). InvalidArgument when a fault names a map the job lacks.
  std::vector<ReplicaFault> replica_faults;
};

struct RealJobParts {
  JobSpec spec;
  RealJob real;
};

Result<RealJobParts> PrepareRealJob(const RealJobRequest& request);

}  // namespace mrlocal
