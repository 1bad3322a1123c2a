#include "sched/report/workload_metrics.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "sched/core/goal_utility.h"

namespace mrlocal {
namespace {

double Ratio(double num, double den) { return den > 0 ? num / den : 0; }

// The job's goal utility, with response and goal counted from its arrival plus `setup`
// (a single job's goal runs from the command's start); none without a goal.
std::optional<double> Utility(const JobRecord& j, Duration setup) {
  if (!j.goal) return std::nullopt;
  if (!j.completed()) return kFailedGoalUtility;
  return GoalUtility(j.finish - j.arrival + setup, *j.goal - j.arrival + setup);
}

LatencySummary Summarize(std::vector<double> v) {
  LatencySummary s;
  if (v.empty()) return s;
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / static_cast<double>(v.size());
  s.p50 = NearestRankPercentile(v, 0.50);
  s.p95 = NearestRankPercentile(v, 0.95);
  s.p99 = NearestRankPercentile(v, 0.99);
  s.max = NearestRankPercentile(v, 1.0);
  return s;
}

}  // namespace

double NearestRankPercentile(std::vector<double>& values, double q) {
  if (values.empty()) return 0;
  const double n = static_cast<double>(values.size());
  size_t rank = static_cast<size_t>(std::ceil(std::clamp(q, 0.0, 1.0) * n));
  size_t k = rank == 0 ? 0 : rank - 1;  // 0-based
  std::nth_element(values.begin(), values.begin() + static_cast<ptrdiff_t>(k), values.end());
  return values[k];
}

namespace {

// The run's description, as the context gives it.
void DescribeRun(const MetricsContext& context, WorkloadMetrics& m) {
  m.policy = context.policy;
  m.admission_policy = context.admission_policy.empty() ? context.policy : context.admission_policy;
  m.best_effort = context.best_effort;
  m.sim = context.sim;
  m.cluster = context.cluster;
  m.partitioner = context.partitioner;
  m.slots = context.total_slots;
  m.admission_control = context.admission_control;
  m.reject_policy = context.reject_policy;
  m.setup_s = Seconds(context.setup);
}

void CopySchedulerStats(const SchedulerStats& s, WorkloadMetrics& m) {
  m.scheduler.decisions = s.decisions;
  m.scheduler.launches = s.launches;
  m.scheduler.preemptions = s.preemptions;
  m.scheduler.decision_latency_us.p50 = s.decision_ns.PercentileUs(0.5);
  m.scheduler.decision_latency_us.p99 = s.decision_ns.PercentileUs(0.99);
  m.scheduler.dispatch_latency_us.p50 = s.dispatch_ns.PercentileUs(0.5);
  m.scheduler.dispatch_latency_us.p99 = s.dispatch_ns.PercentileUs(0.99);
}

// What the job loop gathers beyond the counts: the run's spans and slot times.
struct RunSpans {
  std::optional<Time> first_arrival, last_finish, last_accepted_finish, last_ran_finish;
  Duration slot_all{0}, slot_successful{0};
  std::vector<double> responses;  // of the accepted jobs that completed, seconds
};

void KeepEarliest(std::optional<Time>& t, Time v) { t = t ? std::min(*t, v) : v; }
void KeepLatest(std::optional<Time>& t, Time v) { t = t ? std::max(*t, v) : v; }

// The figures of a job that counts as accepted (RTMR's definitions, in the header).
void CountAccepted(const JobRecord& j, WorkloadMetrics& m, RunSpans& s) {
  ++m.accepted;
  if (j.completed()) {
    ++m.completed;
    const double c = Seconds(*j.response());
    s.responses.push_back(c);
    m.twjct += j.weight * c;
    m.twjct_abs += j.weight * Seconds(j.finish);
    m.twtct += j.weighted_task_ends_s;
  }
  if (!j.finished) ++m.unfinished;
  if (j.finished && !j.completed()) ++m.failed;
  if (j.finished) KeepLatest(s.last_accepted_finish, j.finish);
  if (j.met_deadline()) {
    ++m.successful;
    s.slot_successful += j.slot_time;
  }
  if (j.deadline) {
    ++m.deadline_jobs;
    if (!j.met_deadline()) ++m.missed;
  }
}

// Seconds from the first arrival to `end`; 0 without either, or when it is not later.
double SpanSeconds(const RunSpans& s, const std::optional<Time>& end) {
  return s.first_arrival && end && *end > *s.first_arrival ? Seconds(*end - *s.first_arrival) : 0;
}

void SetSpansAndUtilization(const RunSpans& s, const MetricsContext& context, WorkloadMetrics& m) {
  m.turnaround_s = SpanSeconds(s, s.last_accepted_finish);
  m.makespan_s = SpanSeconds(s, s.last_finish);
  m.slot_time_s = Seconds(s.slot_all);
  m.slot_time_successful_s = Seconds(s.slot_successful);
  const double slots = static_cast<double>(context.total_slots);
  m.utilization_successful = Ratio(m.slot_time_successful_s, slots * m.turnaround_s);
  // Over the span every job that ran used: best-effort jobs may end after the accepted ones.
  const double ran_s = std::max(m.turnaround_s, SpanSeconds(s, s.last_ran_finish));
  m.utilization_all = Ratio(m.slot_time_s, slots * ran_s);
  m.utilization = context.admission_control ? m.utilization_successful : m.utilization_all;
}

}  // namespace

WorkloadMetrics ComputeMetrics(const RunRecorder& recorder, const MetricsContext& context) {
  WorkloadMetrics m;
  DescribeRun(context, m);
  RunSpans spans;
  double utility_sum = 0;
  for (const JobRecord& j : recorder.jobs()) {
    ++m.jobs;
    if (!j.guaranteed()) ++m.rejected;
    if (j.best_effort) ++m.best_effort_jobs;
    if (j.met_deadline()) ++m.met_all;
    if (const std::optional<double> u = Utility(j, context.setup)) {
      ++m.goal_jobs;
      if (!j.met_goal()) ++m.goal_missed;
      utility_sum += *u;
    }
    KeepEarliest(spans.first_arrival, j.arrival);
    if (j.finished) KeepLatest(spans.last_finish, j.finish);
    spans.slot_all += j.slot_time;
    // Best-effort jobs too: their slot time is in slot_all.
    if (j.admitted && j.finished) KeepLatest(spans.last_ran_finish, j.finish);
    // A rejected job runs only best effort: its slot time counts in utilization_all, and
    // meeting its deadline counts in met_all alone.
    if (j.guaranteed() || !context.admission_control) CountAccepted(j, m, spans);
  }
  m.accept_ratio = Ratio(static_cast<double>(m.accepted), static_cast<double>(m.jobs));
  m.success_ratio = Ratio(static_cast<double>(m.successful), static_cast<double>(m.accepted));
  m.met_all_ratio = Ratio(static_cast<double>(m.met_all), static_cast<double>(m.jobs));
  m.miss_ratio = Ratio(static_cast<double>(m.missed), static_cast<double>(m.deadline_jobs));
  m.goal_miss_ratio = Ratio(static_cast<double>(m.goal_missed), static_cast<double>(m.goal_jobs));
  m.mean_utility = Ratio(utility_sum, static_cast<double>(m.goal_jobs));
  SetSpansAndUtilization(spans, context, m);
  m.latency_s = Summarize(std::move(spans.responses));

  m.attempts = recorder.attempts_seen();
  m.preempted_attempts = recorder.preempted_seen();
  m.failed_attempts = recorder.failed_seen();
  m.superseded_attempts = recorder.superseded_seen();
  for (const JobRecord& j : recorder.jobs()) {
    m.retries += j.retries;
    m.speculative_attempts += j.speculative;
    m.speculative_won += j.speculative_won;
    m.superseded_slot_s += Seconds(j.superseded_time);
  }
  for (const ExclusionRecord& e : recorder.exclusions())
    m.excluded_nodes.push_back({e.node, Seconds(e.at), Seconds(e.until)});
  if (context.scheduler) CopySchedulerStats(*context.scheduler, m);
  return m;
}

namespace {

std::string_view JobStatus(const JobRecord& j) {
  if (!j.admitted) return "rejected";  // a best-effort job ran: its status is how it ended
  if (!j.finished) return "unfinished";
  return j.completed() ? "succeeded" : "failed";
}

void TakePlan(const JobRecord& j, JobMetrics& m) {
  m.sketch_fill_us = Seconds(j.sketch_time) * 1e6;
  if (!j.plan) return;
  m.skewness = j.plan->skewness;
  m.balance = j.plan->balance;
  m.plan_row = j.plan->row;
  m.plan_cost_us = j.plan->cost_us;
  m.reduce_load = j.plan->reduce_load;
}

}  // namespace

JobMetrics MeasureJob(const JobRecord& j, Duration setup, bool counts_records) {
  JobMetrics m;
  m.id = j.id;
  m.name = j.name;
  m.app = j.app;
  m.queue = j.queue;
  m.weight = j.weight;
  m.status = JobStatus(j);
  m.failure = j.failure;
  m.admitted = j.guaranteed();
  m.best_effort = j.best_effort;
  m.admission = j.admission_reason;
  if (j.estimated_finish) m.estimated_finish_s = Seconds(*j.estimated_finish - j.arrival);
  m.arrival_s = Seconds(j.arrival);
  if (j.deadline) {
    m.deadline_s = Seconds(*j.deadline - j.arrival + setup);
    m.deadline_at_s = Seconds(*j.deadline);
  }
  if (j.first_start) m.start_s = Seconds(*j.first_start);
  const bool ran = j.admitted && j.finished;
  if (ran) {
    m.finish_s = Seconds(j.finish);
    m.elapsed_s = Seconds(j.finish - j.arrival);
    m.map_phase_s = Seconds(j.map_phase_end.value_or(j.finish) - j.arrival);
    if (j.map_phase_end) m.reduce_phase_s = Seconds(j.finish - *j.map_phase_end);
    if (m.elapsed_s > 0) m.throughput_mb_s = static_cast<double>(j.input_bytes) / 1e6 / m.elapsed_s;
    if (j.deadline) m.slack_s = Seconds(*j.deadline - j.finish);
  }
  if (j.deadline && j.admitted) m.met_deadline = j.met_deadline();
  if (j.goal) {
    m.goal_s = Seconds(*j.goal - j.arrival + setup);
    m.goal_at_s = Seconds(*j.goal);
    m.met_goal = j.met_goal();
    m.utility = Utility(j, setup);
  }
  m.successful = j.guaranteed() && j.met_deadline();
  m.input_bytes = j.input_bytes;
  m.maps = j.maps;
  m.reduces = j.reduces;
  m.partitions = j.partitions;
  m.attempts = j.attempts;
  m.preempted_attempts = j.preempted;
  m.failed_attempts = j.failed_attempts;
  m.retries = j.retries;
  m.speculative_attempts = j.speculative;
  m.speculative_won = j.speculative_won;
  m.superseded_slot_s = Seconds(j.superseded_time);
  m.failure_reasons = j.failure_reasons;
  m.slot_time_s = Seconds(j.slot_time);
  TakePlan(j, m);
  m.map_output_units = j.map_output_units;
  m.skipped_records = j.skipped_records;
  if (counts_records) m.output_records = j.output_records;
  m.output_bytes = j.output_bytes;
  m.remote_shuffle_bytes = j.remote_shuffle_bytes;
  m.warnings = j.warnings;
  m.top = j.top;
  return m;
}

std::vector<JobMetrics> ComputeJobMetrics(const RunRecorder& recorder, Duration setup) {
  std::vector<JobMetrics> jobs;
  jobs.reserve(recorder.jobs().size());
  for (const JobRecord& j : recorder.jobs())
    jobs.push_back(MeasureJob(j, setup, recorder.counts_records()));
  return jobs;
}

}  // namespace mrlocal
