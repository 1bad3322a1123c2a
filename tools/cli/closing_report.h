// What a job prints when it ends: its top keys, then a short report (time, throughput,
// phases, deadline, shuffle plan, scheduler overhead, output).
#pragma once

#include <ostream>
#include <string>

#include "sched/report/workload_metrics.h"

namespace mrlocal {

void PrintTop(std::ostream& out, const JobMetrics& job);
// `run`: the figures of the run of the one job `job`.
void PrintClosingReport(std::ostream& out, const WorkloadMetrics& run, const JobMetrics& job,
                        const std::string& output_dir);

}  // namespace mrlocal
