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

void PrintTop(std::ostream& out, const RunSummary& s) {
  if (s.top.empty()) return;
  size_t width = 0;
  for (auto& t : s.top) width = std::max(width, t.key.size());
  width = std::min<size_t>(width, 40);
  out << "top " << s.top.size() << ":\n";
  for (auto& t : s.top)  // a long value (a friend list) is cut: the output has it whole
    out << "  " << std::left << std::setw(static_cast<int>(width)) << t.key << std::right << "  "
        << (t.value.size() > 60 ? t.value.substr(0, 57) + "..." : t.value) << "\n";
}

void PrintClosingReport(std::ostream& out, const RunSummary& s, const std::string& output_dir) {
  out << "job " << s.app << ": "
      << (s.status == "succeeded"  ? "SUCCEEDED"
          : s.status == "rejected" ? "REJECTED"
                                   : "FAILED");
  if (s.status != "rejected") out << " in " << FormatDuration(FromSeconds(s.elapsed_s));
  if (s.deadline_s) {
    out << ", deadline " << FormatDuration(FromSeconds(*s.deadline_s));
    // Set-up worth mentioning: what "to spare" does not add up without.
    if (s.setup_s > 0.01 * *s.deadline_s)
      out << " (" << FormatDuration(FromSeconds(s.setup_s)) << " of it set-up)";
    if (s.met_deadline && *s.met_deadline)
      out << " MET with " << FormatDuration(FromSeconds(*s.slack_s)) << " to spare";
    else if (s.slack_s && *s.slack_s < 0)
      out << " MISSED by " << FormatDuration(FromSeconds(-*s.slack_s));
    else if (s.status != "succeeded")
      out << " not met (the job did not finish)";
  }
  out << "\n";
  if (s.status == "rejected") {
    out << "  admission " << s.admission << "\n";
    return;
  }
  if (s.best_effort) {
    out << "  admission rejected by " << s.admission_policy;
    if (s.estimated_finish_s)
      out << " (estimated " << FormatDuration(FromSeconds(*s.estimated_finish_s)) << ")";
    out << "; run under " << s.policy << " with no guarantee (--best-effort)\n";
  } else if (s.estimated_finish_s && s.status == "succeeded") {
    const double est = *s.estimated_finish_s;
    out << "  admission " << s.admission_policy << " estimated " << FormatDuration(FromSeconds(est))
        << " from " << s.estimate_source << ", actual " << FormatDuration(FromSeconds(s.elapsed_s));
    if (est > 0) {
      const double off = (s.elapsed_s - est) / est * 100;
      out << ": " << Fixed(std::abs(off), 0) << "% " << (off <= 0 ? "under" : "over")
          << " the worst-case estimate";
    }
    out << "\n";
  }
  // Jobs driven by their task index (Pi) read nothing: no input size, no throughput.
  const bool reads_input = s.input_bytes > 0 || s.maps == 0;
  out << "  input     "
      << (reads_input ? FormatBytes(s.input_bytes) + " in " : std::string("no input data, "))
      << s.maps << " map tasks on " << s.cluster << ", policy " << s.policy << "\n";
  out << "  phases    map " << FormatDuration(FromSeconds(s.map_phase_s)) << ", reduce "
      << FormatDuration(FromSeconds(s.reduce_phase_s));
  if (reads_input) out << ", throughput " << Fixed(s.throughput_mb_s, 1) << " MB/s";
  out << "\n";
  out << "  shuffle   " << s.partitions << " partitions -> " << s.reduces << " reduces by "
      << s.partitioner << " (row " << s.plan_row << "): skewness " << Fixed(s.skewness, 1)
      << ", balance " << Fixed(s.balance, 1) << "; sketches " << Fixed(s.sketch_us, 0)
      << " us in maps, plan " << Fixed(s.plan_cost_us, 1) << " us\n";
  out << "  scheduler " << s.decisions << " decisions, decision p50 " << Fixed(s.decision_p50_us, 2)
      << " us p99 " << Fixed(s.decision_p99_us, 2) << " us, dispatch p50 "
      << Fixed(s.dispatch_p50_us, 1) << " us p99 " << Fixed(s.dispatch_p99_us, 1) << " us\n";
  if (s.status == "succeeded") {
    out << "  output    " << s.output_records << " keys, " << FormatBytes(s.output_bytes);
    out << (output_dir.empty() ? " (not written: no -o DIR)" : " in " + output_dir) << "\n";
  } else {
    out << "  failure   " << s.failure << "\n";
  }
  if (s.skipped_records > 0)
    out << "  skipped   " << s.skipped_records << " bad input records (--skip-bad-records)\n";
  if (!s.warnings.empty()) out << "  warnings  " << s.warnings.size() << " (see stderr)\n";
}

}  // namespace mrlocal
