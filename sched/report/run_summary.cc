#include "sched/report/run_summary.h"

#include <sstream>

#include "engine/atomic_file.h"
#include "sched/report/json_writer.h"

namespace mrlocal {

RunSummary Summarize(const JobState& job, const JobOutcome& outcome, const SchedulerStats& stats,
                     std::string_view policy, std::string_view partitioner,
                     std::string_view cluster, Duration setup) {
  RunSummary s;
  s.app = job.spec.app;
  s.status = job.phase == JobPhase::kDone       ? "succeeded"
             : job.phase == JobPhase::kRejected ? "rejected"
                                                : "failed";
  s.failure = job.failure;
  s.admission = outcome.admission.reason;
  s.policy = policy;
  s.admission_policy = policy;
  s.admitted = outcome.admission.admitted;
  if (outcome.admission.estimated_finish())
    s.estimated_finish_s = Seconds(*outcome.admission.estimated_finish() - job.arrival);
  s.setup_s = Seconds(setup);
  s.partitioner = partitioner;
  s.cluster = cluster;
  s.input_bytes = job.spec.input_bytes;
  s.maps = job.M();
  s.reduces = job.R();
  s.partitions = job.spec.partition_hashes.empty() ? 0 : job.spec.partition_hashes[0].partitions;
  if (job.phase != JobPhase::kRejected) {
    s.elapsed_s = Seconds(job.finish - job.arrival);
    bool mapped = job.maps_done == job.M();
    s.map_phase_s = Seconds((mapped ? job.map_phase_end : job.finish) - job.arrival);
    s.reduce_phase_s = mapped ? Seconds(job.finish - job.map_phase_end) : 0;
    if (s.elapsed_s > 0) s.throughput_mb_s = static_cast<double>(s.input_bytes) / 1e6 / s.elapsed_s;
  }
  if (job.spec.deadline) {
    s.deadline_s = Seconds(*job.spec.deadline + setup);
    if (job.phase != JobPhase::kRejected) {
      s.slack_s = Seconds(*job.spec.deadline) - s.elapsed_s;
      s.met_deadline = job.phase == JobPhase::kDone && *s.slack_s >= 0;
    }
  }
  if (outcome.plan) {
    s.skewness = outcome.plan->skewness;
    s.balance = outcome.plan->balance;
    s.plan_cost_us = outcome.plan->cost_us;
    s.plan_row = outcome.plan->row;
    s.reduce_load = outcome.plan->reduce_load;
  }
  s.map_output_units = outcome.map_output_units;
  s.skipped_records = outcome.skipped_records;
  s.sketch_us = Seconds(outcome.sketch_time) * 1e6;
  s.decisions = stats.decisions;
  s.launches = stats.launches;
  s.preemptions = stats.preemptions;
  s.decision_p50_us = stats.decision_ns.PercentileUs(0.5);
  s.decision_p99_us = stats.decision_ns.PercentileUs(0.99);
  s.dispatch_p50_us = stats.dispatch_ns.PercentileUs(0.5);
  s.dispatch_p99_us = stats.dispatch_ns.PercentileUs(0.99);
  s.output_records = outcome.output_records;
  s.output_bytes = outcome.output_bytes;
  s.warnings = outcome.warnings;
  s.top = outcome.top;
  return s;
}

Status WriteMetricsJson(const std::filesystem::path& file, const RunSummary& s) {
  std::ostringstream out;
  {
    JsonWriter w(out, /*pretty=*/true);
    auto opt = [&w](const char* key, const auto& v) {
      w.Key(key);
      if (v)
        w.Double(static_cast<double>(*v));
      else
        w.Null();
    };
    w.BeginObject();
    w.Key("app").String(s.app);
    w.Key("status").String(s.status);
    if (!s.failure.empty()) w.Key("failure").String(s.failure);
    w.Key("admission").String(s.admission);
    w.Key("policy").String(s.policy);
    w.Key("admission_policy").String(s.admission_policy);
    w.Key("admitted").Bool(s.admitted);
    w.Key("best_effort").Bool(s.best_effort);
    opt("estimated_finish_s", s.estimated_finish_s);
    w.Key("estimate_source");
    if (s.estimate_source.empty())
      w.Null();
    else
      w.String(s.estimate_source);
    w.Key("estimate_jobs").Uint(s.estimate_jobs);
    w.Key("setup_s").Double(s.setup_s);
    w.Key("partitioner").String(s.partitioner);
    w.Key("cluster").String(s.cluster);
    w.Key("input_bytes").Uint(s.input_bytes);
    w.Key("maps").Int(s.maps);
    w.Key("reduces").Int(s.reduces);
    w.Key("partitions").Int(s.partitions);
    opt("deadline_s", s.deadline_s);
    w.Key("elapsed_s").Double(s.elapsed_s);
    w.Key("map_phase_s").Double(s.map_phase_s);
    w.Key("reduce_phase_s").Double(s.reduce_phase_s);
    w.Key("met_deadline");
    if (s.met_deadline)
      w.Bool(*s.met_deadline);
    else
      w.Null();
    opt("slack_s", s.slack_s);
    w.Key("throughput_mb_s").Double(s.throughput_mb_s);
    w.Key("skewness").Double(s.skewness);
    w.Key("balance").Double(s.balance);
    w.Key("plan").BeginObject();
    w.Key("row").Int(s.plan_row);
    w.Key("cost_us").Double(s.plan_cost_us);
    w.Key("sketch_fill_us").Double(s.sketch_us);
    w.Key("reduce_load").BeginArray();
    for (auto v : s.reduce_load) w.Uint(v);
    w.EndArray();
    w.EndObject();
    w.Key("map_output_units").Uint(s.map_output_units);
    w.Key("skipped_records").Uint(s.skipped_records);
    w.Key("scheduler").BeginObject();
    w.Key("decisions").Uint(s.decisions);
    w.Key("launches").Uint(s.launches);
    w.Key("preemptions").Uint(s.preemptions);
    w.Key("decision_latency_us").BeginObject();
    w.Key("p50").Double(s.decision_p50_us).Key("p99").Double(s.decision_p99_us).EndObject();
    w.Key("dispatch_latency_us").BeginObject();
    w.Key("p50").Double(s.dispatch_p50_us).Key("p99").Double(s.dispatch_p99_us).EndObject();
    w.EndObject();
    w.Key("output_records").Uint(s.output_records);
    w.Key("output_bytes").Uint(s.output_bytes);
    w.Key("warnings").BeginArray();
    for (auto& x : s.warnings) w.String(x);
    w.EndArray();
    w.Key("top").BeginArray();
    for (auto& t : s.top) {
      w.BeginObject().Key("key").String(t.key).Key("value").String(t.value).EndObject();
    }
    w.EndArray();
    w.EndObject();
    out << "\n";
  }
  return WriteFileAtomically(file.string(), out.str());
}

}  // namespace mrlocal
