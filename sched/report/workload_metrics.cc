#include "sched/report/workload_metrics.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace mrlocal {
namespace {

double Ratio(double num, double den) { return den > 0 ? num / den : 0; }

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

WorkloadMetrics ComputeMetrics(const RunRecorder& recorder, const MetricsContext& context) {
  WorkloadMetrics m;
  m.policy = context.policy;
  m.sim = context.sim;
  m.slots = context.total_slots;
  m.admission_control = context.admission_control;

  std::optional<Time> first_arrival, last_finish, last_accepted_finish;
  Duration slot_all{0}, slot_successful{0};
  std::vector<double> responses;
  for (const JobRecord& j : recorder.jobs()) {
    ++m.jobs;
    if (!j.admitted) ++m.rejected;
    first_arrival = first_arrival ? std::min(*first_arrival, j.arrival) : j.arrival;
    if (j.finished) last_finish = last_finish ? std::max(*last_finish, j.finish) : j.finish;
    slot_all += j.slot_time;

    // A rejected job never runs, so every completed job is an accepted one.
    const bool accepted = j.admitted || !context.admission_control;
    if (!accepted) continue;
    ++m.accepted;
    if (j.completed()) {
      ++m.completed;
      const double c = Seconds(*j.response());
      responses.push_back(c);
      m.twjct += j.weight * c;
      m.twjct_abs += j.weight * Seconds(j.finish);
    }
    if (!j.finished) ++m.unfinished;
    if (j.finished && !j.completed()) ++m.failed;
    if (j.finished) {
      last_accepted_finish =
          last_accepted_finish ? std::max(*last_accepted_finish, j.finish) : j.finish;
    }
    if (j.met_deadline()) {
      ++m.successful;
      slot_successful += j.slot_time;
    }
    if (j.deadline) {
      ++m.deadline_jobs;
      if (!j.met_deadline()) ++m.missed;
    }
  }
  m.accept_ratio = Ratio(static_cast<double>(m.accepted), static_cast<double>(m.jobs));
  m.success_ratio = Ratio(static_cast<double>(m.successful), static_cast<double>(m.accepted));
  m.miss_ratio = Ratio(static_cast<double>(m.missed), static_cast<double>(m.deadline_jobs));

  if (first_arrival && last_accepted_finish && *last_accepted_finish > *first_arrival)
    m.turnaround_s = Seconds(*last_accepted_finish - *first_arrival);
  if (first_arrival && last_finish && *last_finish > *first_arrival)
    m.makespan_s = Seconds(*last_finish - *first_arrival);
  m.slot_time_s = Seconds(slot_all);
  m.slot_time_successful_s = Seconds(slot_successful);
  const double available = static_cast<double>(context.total_slots) * m.turnaround_s;
  m.utilization_successful = Ratio(m.slot_time_successful_s, available);
  m.utilization_all = Ratio(m.slot_time_s, available);
  m.utilization = context.admission_control ? m.utilization_successful : m.utilization_all;

  m.latency_s = Summarize(std::move(responses));

  m.attempts = recorder.attempts_seen();
  m.preempted_attempts = recorder.preempted_seen();
  m.failed_attempts = recorder.failed_seen();

  if (const SchedulerStats* s = context.scheduler) {
    m.scheduler.decisions = s->decisions;
    m.scheduler.launches = s->launches;
    m.scheduler.preemptions = s->preemptions;
    m.scheduler.decision_latency_us.p50 = s->decision_ns.PercentileUs(0.5);
    m.scheduler.decision_latency_us.p99 = s->decision_ns.PercentileUs(0.99);
    m.scheduler.dispatch_latency_us.p50 = s->dispatch_ns.PercentileUs(0.5);
    m.scheduler.dispatch_latency_us.p99 = s->dispatch_ns.PercentileUs(0.99);
  }
  return m;
}

}  // namespace mrlocal
