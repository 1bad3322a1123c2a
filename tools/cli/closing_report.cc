#include "tools/cli/closing_report.h"

#include <cmath>
#include <cstdio>
#include <iomanip>

#include "sched/core/units.h"

namespace mrlocal {
namespace {

std::string Fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

void PrintTop(std::ostream& out, const JobMetrics& job) {
  if (job.top.empty()) return;
  size_t width = 0;
  for (auto& t : job.top) width = std::max(width, t.key.size());
  width = std::min<size_t>(width, 40);
  out << "top " << job.top.size() << ":\n";
  for (auto& t : job.top)  // a long value (a friend list) is cut: the output has it whole
    out << "  " << std::left << std::setw(static_cast<int>(width)) << t.key << std::right << "  "
        << (t.value.size() > 60 ? t.value.substr(0, 57) + "..." : t.value) << "\n";
}

void PrintClosingReport(std::ostream& out, const WorkloadMetrics& run, const JobMetrics& job,
                        const std::string& output_dir) {
  out << "job " << job.app << ": "
      << (job.status == "succeeded"  ? "SUCCEEDED"
          : job.status == "rejected" ? "REJECTED"
                                     : "FAILED");
  if (job.status != "rejected") out << " in " << FormatDuration(FromSeconds(job.elapsed_s));
  if (job.deadline_s) {
    out << ", deadline " << FormatDuration(FromSeconds(*job.deadline_s));
    // Set-up worth mentioning: what "to spare" does not add up without.
    if (run.setup_s > 0.01 * *job.deadline_s)
      out << " (" << FormatDuration(FromSeconds(run.setup_s)) << " of it set-up)";
    if (job.met_deadline && *job.met_deadline)
      out << " MET with " << FormatDuration(FromSeconds(*job.slack_s)) << " to spare";
    else if (job.slack_s && *job.slack_s < 0)
      out << " MISSED by " << FormatDuration(FromSeconds(-*job.slack_s));
    else if (job.status != "succeeded")
      out << " not met (the job did not finish)";
  }
  out << "\n";
  if (job.status == "rejected") {
    out << "  admission " << job.admission << "\n";
    return;
  }
  if (run.best_effort) {
    out << "  admission rejected by " << run.admission_policy;
    if (job.estimated_finish_s)
      out << " (estimated " << FormatDuration(FromSeconds(*job.estimated_finish_s)) << ")";
    out << "; run under " << run.policy << " with no guarantee (--best-effort)\n";
  } else if (job.estimated_finish_s && job.status == "succeeded") {
    const double est = *job.estimated_finish_s;
    out << "  admission " << run.admission_policy << " estimated "
        << FormatDuration(FromSeconds(est)) << " from " << job.estimate_source << ", actual "
        << FormatDuration(FromSeconds(job.elapsed_s));
    if (est > 0) {
      const double off = (job.elapsed_s - est) / est * 100;
      out << ": " << Fixed(std::abs(off), 0) << "% " << (off <= 0 ? "under" : "over")
          << " the worst-case estimate";
    }
    out << "\n";
  }
  // Jobs driven by their task index (Pi) read nothing: no input size, no throughput.
  const bool reads_input = job.input_bytes > 0 || job.maps == 0;
  out << "  input     "
      << (reads_input ? FormatBytes(job.input_bytes) + " in " : std::string("no input data, "))
      << job.maps << " map tasks on " << run.cluster << ", policy " << run.policy << "\n";
  out << "  phases    map " << FormatDuration(FromSeconds(job.map_phase_s)) << ", reduce "
      << FormatDuration(FromSeconds(job.reduce_phase_s));
  if (reads_input) out << ", throughput " << Fixed(job.throughput_mb_s, 1) << " MB/s";
  out << "\n";
  out << "  shuffle   " << job.partitions << " partitions -> " << job.reduces << " reduces by "
      << run.partitioner << " (row " << job.plan_row << "): skewness " << Fixed(job.skewness, 1)
      << ", balance " << Fixed(job.balance, 1) << "; sketches " << Fixed(job.sketch_fill_us, 0)
      << " us in maps, plan " << Fixed(job.plan_cost_us, 1) << " us\n";
  out << "  scheduler " << run.scheduler.decisions << " decisions, decision p50 "
      << Fixed(run.scheduler.decision_latency_us.p50, 2) << " us p99 "
      << Fixed(run.scheduler.decision_latency_us.p99, 2) << " us, dispatch p50 "
      << Fixed(run.scheduler.dispatch_latency_us.p50, 1) << " us p99 "
      << Fixed(run.scheduler.dispatch_latency_us.p99, 1) << " us\n";
  if (job.status == "succeeded") {
    out << "  output    " << job.output_records.value_or(0) << " keys, "
        << FormatBytes(job.output_bytes);
    out << (output_dir.empty() ? " (not written: no -o DIR)" : " in " + output_dir) << "\n";
  } else {
    out << "  failure   " << job.failure << "\n";
  }
  if (job.skipped_records > 0)
    out << "  skipped   " << job.skipped_records << " bad input records (--skip-bad-records)\n";
  if (!job.warnings.empty()) out << "  warnings  " << job.warnings.size() << " (see stderr)\n";
}

}  // namespace mrlocal
