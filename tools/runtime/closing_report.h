// What a job prints when it ends: its top keys, then a short report (time, throughput,
// phases, deadline, shuffle plan, scheduler overhead, output).
#pragma once

#include <ostream>
#include <string>

#include "sched/report/workload_metrics.h"
#include "tools/runtime/job_app.h"

namespace mrlocal {

void PrintTop(std::ostream& out, const JobMetrics& job);
// What a job prints on stdout when it ends, run locally or by `mrlocal serve` (shown by
// `mrlocal submit --wait`): its result (the app's print_result when it succeeded, its top
// keys otherwise), then the closing report.
void PrintJobEnd(std::ostream& out, const JobApp& app, const WorkloadMetrics& run,
                 const JobMetrics& job, const std::string& output_dir);
// `run`: the figures of the run of the one job `job`.
void PrintClosingReport(std::ostream& out, const WorkloadMetrics& run, const JobMetrics& job,
                        const std::string& output_dir);

}  // namespace mrlocal
