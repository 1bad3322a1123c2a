// A first-run estimate (README, "Deadlines"): when a deadline policy has no history for the
// job's app, the app runs for real on a small sample of the job, under fifo and with no
// output, before the job is submitted. Its tasks' measured times, widened by a safety
// factor, are what the policy assumes of the job. The probe's time is set-up time: it
// counts against the deadline.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/block_store.h"
#include "sched/core/cluster_spec.h"
#include "sched/estimate/job_history.h"
#include "tools/runtime/job_app.h"

namespace mrlocal {

struct AppDescriptor;

struct ProbeRequest {
  const JobApp* app = nullptr;
  const BlockStore* store = nullptr;  // holds `paths`; unused by apps without input files
  std::vector<std::string> paths;
  ClusterSpec cluster;  // the job's
  bool pin = true;
  bool skip_bad_records = false;
};

// Told what is probed ("a 8.0 MiB sample") just before it runs.
using ProbeNote = std::function<void(std::string_view what)>;

// The first-run estimate of request.app: `app`'s probe (AppDescriptor::probe), widened by
// the safety factors below. Source "probe", jobs 1. A failing sample fails as the job
// would ("job failed: ...", with the job's status code).
Result<AppEstimate> ProbeApp(const AppDescriptor& app, const ProbeRequest& request,
                             const ProbeNote& before_run);

// The probes of the apps, unwidened. Apps reading files: the first 8 MiB, or 4/3 of a split
// if more, of the first non-empty input (cut after a line end) as two maps of about 3/4
// and 1/4 of it (the first one a split's size), so the affine fit of JobHistory::Record
// sees two sizes (a gzip input: the sample recompressed, one map, measured in compressed
// bytes as the job's map is). One reduce.
Result<AppEstimate> ProbeInputSample(const ProbeRequest& request, const ProbeNote& before_run);
// Apps without input files: `small`, a small job of the same app, run once ("`what`" is
// what `before_run` is told). One reduce.
Result<AppEstimate> ProbeSmallJob(const ProbeRequest& request, const JobApp& small,
                                  const std::string& what, const ProbeNote& before_run);

// The safety factors applied to the probe's measurements.
inline constexpr double kProbeCostFactor = 2.0;   // every fixed and per-unit cost
inline constexpr double kProbeShapeFactor = 1.5;  // alpha and the reduce skew

}  // namespace mrlocal
