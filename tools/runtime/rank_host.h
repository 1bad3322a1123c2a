// A rank other than 0 of an MPI run of a job command (issue 18): serves its share of the
// cluster's slots (sched/dist/slot_host.h) until rank 0 is done, rebuilding each job rank
// 0 sends from its definition (tools/runtime/job_definition.h) with `app`: this rank parsed
// the same command line, so it has the same app with the same settings.
#pragma once

#include "engine/status.h"
#include "sched/core/cluster_spec.h"
#include "sched/dist/slot_host.h"
#include "sched/dist/transport.h"
#include "tools/runtime/job_app.h"

namespace mrlocal {

// Returns when rank 0 says the run is over (OK), or with why this rank cannot go on.
Status ServeRank(Transport& transport, const ClusterSpec& cluster, const JobApp& app,
                 const SlotHostOptions& options);

// The same for any run: `jobs` rebuilds each job rank 0 sends from its definition.
Status ServeSlots(Transport& transport, const ClusterSpec& cluster, SlotHost::JobFactory jobs,
                  const SlotHostOptions& options);

}  // namespace mrlocal
