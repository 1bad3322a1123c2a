// What a job prints when it ends: its top keys, then a short report (time, throughput,
// phases, deadline, shuffle plan, scheduler overhead, output).
#pragma once

#include <ostream>
#include <string>

#include "sched/report/run_summary.h"

namespace mrlocal {

void PrintTop(std::ostream& out, const RunSummary& s);
void PrintClosingReport(std::ostream& out, const RunSummary& s, const std::string& output_dir);

}  // namespace mrlocal
