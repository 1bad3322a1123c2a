// A job of a workload spec (datasets/workload_spec.h) made ready for the real engine: its
// input put in a block store (files mapped, generated inputs generated) and the JobSpec
// and RealJob of it. `mrlocal workload` builds every job of a spec so; `mrlocal serve`
// builds each submitted job so, since a submission is a spec's job.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "datasets/workload_spec.h"
#include "engine/block_store.h"
#include "tools/runtime/job_app.h"
#include "tools/runtime/real_job.h"

namespace mrlocal {

// The store paths of a job's input, putting each file (generating each input) once per
// distinct setting named in `present`.
Result<std::vector<std::string>> MaterializeInput(const WorkloadJob& j, BlockStore& store,
                                                  std::map<std::string, bool>& present);

// The job `j` of app `app` (the app descriptor's runtime of it; both must outlive the
// job), its input in `store`; errors name the job. `partitioner` sets its partition count
// (hash: one per reduce; the others four), `model_shuffle_delay_s` is the spec's; its
// report keeps its `top` best keys (a workload's reports list none; a served job's, 10).
Result<RealJobParts> BuildRealSpecJob(const WorkloadJob& j, const JobApp& app, BlockStore& store,
                                      std::map<std::string, bool>& present,
                                      const std::string& partitioner, double model_shuffle_delay_s,
                                      int top = 0);

}  // namespace mrlocal
