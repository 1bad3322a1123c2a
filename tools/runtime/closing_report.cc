#include "tools/runtime/closing_report.h"

#include <cmath>
#include <cstdio>
#include <iomanip>

#include "sched/core/units.h"
#include "tools/runtime/plural.h"

namespace mrlocal {
namespace {

std::string Fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// "job wordcount: SUCCEEDED in 1.37 s, deadline 30.00 s (2.28 s of it set-up) MET with
// 26.35 s to spare": its durations in one unit, so that they add up as they read.
void PrintOutcome(std::ostream& out, const WorkloadMetrics& run, const JobMetrics& job) {
  const Duration elapsed = FromSeconds(job.elapsed_s), setup = FromSeconds(run.setup_s);
  const Duration deadline = FromSeconds(job.deadline_s.value_or(0));
  const Duration slack = FromSeconds(job.slack_s.value_or(0));
  const DurationScale in_line =
      job.deadline_s ? DurationScale({elapsed, deadline, setup, slack}) : DurationScale({elapsed});
  out << "job " << job.app << ": "
      << (job.status == "succeeded"  ? "SUCCEEDED"
          : job.status == "rejected" ? "REJECTED"
                                     : "FAILED");
  if (job.status != "rejected") out << " in " << in_line(elapsed);
  if (job.deadline_s) {
    out << ", deadline " << in_line(deadline);
    // Set-up worth mentioning: what "to spare" does not add up without.
    if (run.setup_s > 0.01 * *job.deadline_s) out << " (" << in_line(setup) << " of it set-up)";
    if (job.met_deadline && *job.met_deadline)
      out << " MET with " << in_line(slack) << " to spare";
    else if (job.slack_s && *job.slack_s < 0)
      out << " MISSED by " << in_line(-slack);
    else if (job.status != "succeeded")
      out << " not met (the job did not finish)";
  }
  out << "\n";
}

// "  goal      5.00 s MET with 3.63 s to spare, utility 0.727": the goal as given (from
// the command's start, like the deadline), then how far off and the job's utility.
void PrintGoal(std::ostream& out, const JobMetrics& job) {
  if (!job.goal_s) return;
  const Duration goal = FromSeconds(*job.goal_s);
  const Duration spare = FromSeconds(job.finish_s ? *job.goal_at_s - *job.finish_s : 0);
  const DurationScale in_line({goal, spare});
  out << "  goal      " << in_line(goal);
  if (*job.met_goal)
    out << " MET with " << in_line(spare) << " to spare";
  else if (job.status == "succeeded")
    out << " MISSED by " << in_line(-spare);
  else
    out << " not met (the job did not " << (job.status == "rejected" ? "run)" : "finish)");
  out << ", utility " << Fixed(*job.utility, 3) << "\n";
}

// How the admission went, beside what happened.
void PrintAdmission(std::ostream& out, const WorkloadMetrics& run, const JobMetrics& job) {
  if (run.best_effort) {
    out << "  admission rejected by " << run.admission_policy;
    if (job.estimated_finish_s)
      out << " (estimated " << FormatDuration(FromSeconds(*job.estimated_finish_s)) << ")";
    out << "; run under " << run.policy << " with no guarantee (--best-effort)\n";
  } else if (job.estimated_finish_s && job.status == "succeeded") {
    const double est = *job.estimated_finish_s;
    const DurationScale in_line({FromSeconds(est), FromSeconds(job.elapsed_s)});
    out << "  admission " << run.admission_policy << " estimated " << in_line(FromSeconds(est))
        << " from " << job.estimate_source << ", actual " << in_line(FromSeconds(job.elapsed_s));
    if (est > 0) {
      const double off = (job.elapsed_s - est) / est * 100;
      out << ": " << Fixed(std::abs(off), 0) << "% " << (off <= 0 ? "under" : "over")
          << " the worst-case estimate";
    }
    out << "\n";
  }
}

// Input, phases and shuffle: what the job read and how its work went.
void PrintWork(std::ostream& out, const WorkloadMetrics& run, const JobMetrics& job) {
  // Jobs driven by their task index (Pi) read nothing: no input size, no throughput.
  const bool reads_input = job.input_bytes > 0 || job.maps == 0;
  out << "  input     "
      << (reads_input ? FormatBytes(job.input_bytes) + " in " : std::string("no input data, "))
      << Plural(job.maps, "map task") << " on " << run.cluster << ", policy " << run.policy << "\n";
  const Duration map = FromSeconds(job.map_phase_s), reduce = FromSeconds(job.reduce_phase_s);
  const DurationScale in_line({map, reduce});
  out << "  phases    map " << in_line(map) << ", reduce " << in_line(reduce);
  // A job that did not finish has no throughput: its input was not all read.
  if (reads_input && job.status == "succeeded")
    out << ", throughput " << Fixed(job.throughput_mb_s, 1) << " MB/s";
  out << "\n";
  // With one reduce every partition goes to it: there is no shuffle plan to speak of
  // (Pi's two keys; any job run with --reduces 1).
  if (job.reduces > 1)
    out << "  shuffle   " << Plural(job.partitions, "partition") << " -> "
        << Plural(job.reduces, "reduce") << " by " << run.partitioner << " (row " << job.plan_row
        << "): skewness " << Fixed(job.skewness, 1) << ", balance " << Fixed(job.balance, 1)
        << "; sketches " << Fixed(job.sketch_fill_us, 0) << " us in maps, plan "
        << Fixed(job.plan_cost_us, 1) << " us\n";
  // Over MPI ranks: what crossed between them (the rest stayed in each rank's memory).
  if (job.remote_shuffle_bytes > 0)
    out << "  ranks     " << FormatBytes(job.remote_shuffle_bytes)
        << " of map output fetched by reduces from other ranks\n";
}

// Failed attempts and speculation, when there were any: what they cost, and why attempts
// failed (the first few; metrics.json lists up to JobOutcome::kMaxFailureReasons).
void PrintFaults(std::ostream& out, const WorkloadMetrics& run, const JobMetrics& job) {
  if (job.failed_attempts > 0) {
    out << "  faults    " << Plural(job.failed_attempts, "failed attempt") << ", " << job.retries
        << " run again (--max-attempts)\n";
    constexpr size_t kShown = 3;
    for (size_t i = 0; i < job.failure_reasons.size() && i < kShown; ++i)
      out << "    " << job.failure_reasons[i] << "\n";
    if (job.failed_attempts > kShown)
      out << "    ... and " << job.failed_attempts - kShown << " more (metrics.json, --report)\n";
  }
  if (job.speculative_attempts > 0)
    out << "  copies    " << Plural(job.speculative_attempts, "speculative attempt") << ", "
        << job.speculative_won << " finished first; " << Fixed(job.superseded_slot_s, 2)
        << " slot-s of discarded work\n";
  for (const auto& e : run.excluded_nodes)
    out << "  excluded  node " << e.node << " from " << Fixed(e.at_s, 2) << " s to "
        << Fixed(e.until_s, 2) << " s: attempts of several jobs failed there\n";
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

void PrintJobEnd(std::ostream& out, const JobApp& app, const WorkloadMetrics& run,
                 const JobMetrics& job, const std::string& output_dir) {
  if (job.status == "succeeded" && app.print_result)
    app.print_result(out, run, job);
  else
    PrintTop(out, job);
  PrintClosingReport(out, run, job, output_dir);
}

void PrintClosingReport(std::ostream& out, const WorkloadMetrics& run, const JobMetrics& job,
                        const std::string& output_dir) {
  PrintOutcome(out, run, job);
  PrintGoal(out, job);
  if (job.status == "rejected") {
    out << "  admission " << job.admission << "\n";
    return;
  }
  PrintAdmission(out, run, job);
  PrintWork(out, run, job);
  out << "  scheduler " << Plural(run.scheduler.decisions, "decision") << ", decision p50 "
      << Fixed(run.scheduler.decision_latency_us.p50, 2) << " us p99 "
      << Fixed(run.scheduler.decision_latency_us.p99, 2) << " us, dispatch p50 "
      << Fixed(run.scheduler.dispatch_latency_us.p50, 1) << " us p99 "
      << Fixed(run.scheduler.dispatch_latency_us.p99, 1) << " us\n";
  if (job.status == "succeeded") {
    out << "  output    " << Plural(job.output_records.value_or(0), "key") << ", "
        << FormatBytes(job.output_bytes)
        << (output_dir.empty() ? " (not written: no -o DIR)" : " in " + output_dir) << "\n";
  } else {
    out << "  failure   " << job.failure << "\n";
  }
  PrintFaults(out, run, job);
  if (job.skipped_records > 0)
    out << "  skipped   " << Plural(job.skipped_records, "bad input record")
        << " (--skip-bad-records)\n";
  if (!job.warnings.empty()) out << "  warnings  " << job.warnings.size() << " (see stderr)\n";
}

}  // namespace mrlocal
