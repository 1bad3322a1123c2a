// The files of a run's report (`mrlocal wordcount|workload ... --report DIR`: a single job
// is a workload of one job) and of a policy comparison (`mrlocal compare`). Every file is
// written atomically (temporary file, then rename), and the same inputs give byte-identical
// files: fixed key and column order, numbers formatted without the locale.
//
// Run report, in DIR:
//   metrics.json  the run's figures (WorkloadMetrics; workload_metrics.h has the
//                 definitions), then "per_job": one object per job (JobMetrics), in the
//                 same order. The same keys for one job and for a workload.
//   jobs.csv      one row per job: id,name,app,queue,weight,arrival_s,deadline_s,admitted,
//                 status,start_s,finish_s,response_s,met_deadline,slack_s,maps,reduces,
//                 slot_time_s,goal_s,met_goal,utility. deadline_s and goal_s are absolute
//                 here (arrival + D, metrics.json's deadline_at_s and goal_at_s), like
//                 arrival_s and finish_s; start_s is the job's first attempt start;
//                 slack_s = deadline_s - finish_s (negative: missed by); met_deadline:
//                 whether an admitted job with a deadline completed by it (metrics.json's
//                 "successful" is RTMR's: by its deadline if it has one); met_goal and
//                 utility (sched/core/goal_utility.h) for every job with a goal, rejected
//                 ones too. Empty cells: not applicable (no deadline or goal, rejected,
//                 unfinished). A job the admission test rejected that ran best effort
//                 (--reject-policy backfill) says admitted false with the status it ended
//                 in, and met_deadline; metrics.json's per_job says "best_effort": true.
//   tasks.csv     one row per attempt: job,kind,index,attempt,slot,node,start_s,end_s,
//                 duration_s,ok,preempted,input_bytes,output_bytes (header only when the
//                 recorder did not keep attempts). A map's input_bytes are its split's
//                 bytes (0 for apps without input: pi, synthetic), its output_bytes the
//                 size units of its output (the shuffle it sends); a reduce's input_bytes
//                 are the size units the partition plan gave it, its output_bytes the
//                 bytes it wrote. A simulation reports what its model says of the same
//                 job (a trace's input, shuffle and output bytes).
//   trace.json    trace_json.h.
//   gantt.svg     gantt_svg.h.
//   goals.svg     goals_svg.h: f(t), each job's slots over time and its goal; only when a
//                 job has a goal or a node's availability varies (WantsGoalsChart).
//   overload.svg  lof_snapshot_svg.h: only when the policy marked a node overloaded (llf).
//   queues.csv    queue_report.h: each queue's statement per allocation interval; only
//                 under a policy that shares slots among paying queues (dynprio, capacity),
//                 which also adds metrics.json's "queues".
// CSV: RFC 4180, a header line, CRLF-free ("\n" line ends), text fields quoted when they
// hold a comma, quote, CR or LF (quotes doubled). Times in seconds with 6 decimals.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"
#include "sched/core/lof_snapshot.h"
#include "sched/core/queue_ledger.h"
#include "sched/core/slot_info.h"
#include "sched/core/speed_profile.h"
#include "sched/report/gantt_svg.h"
#include "sched/report/run_recorder.h"
#include "sched/report/workload_metrics.h"

namespace mrlocal {

struct ReportOptions {
  std::string title = "mrlocal workload";  // gantt.svg's heading, trace.json's process
  GanttOptions gantt;                      // its title is set from `title`
  bool write_tasks = true;
  bool write_trace = true;
  bool write_gantt = true;
  size_t max_trace_attempts = 1000000;  // TraceOptions::max_events
  // Per node, its availability as the run applied it (RuntimeOptions::availability), for
  // goals.svg's f(t); a node without one is at 1.0.
  std::map<NodeId, SpeedProfile> availability;
  // The policy's overload snapshot (Policy::OverloadSnapshot), drawn as overload.svg;
  // none: no such file.
  std::optional<LofEvaluation> overload;
  // The policy's queue statements (Policy::Ledger): metrics.json's "queues" and
  // queues.csv; null: neither.
  const QueueLedger* ledger = nullptr;
};

// Creates `dir` if needed and writes the files above. `jobs`: ComputeJobMetrics of the
// same recorder, with what the caller knows on top.
Status WriteWorkloadReport(const std::filesystem::path& dir, const WorkloadMetrics& metrics,
                           const std::vector<JobMetrics>& jobs, const RunRecorder& recorder,
                           const std::vector<SlotInfo>& slots, const ReportOptions& options = {});

// The pieces, for tests and for callers that want one file.
std::string MetricsJson(const WorkloadMetrics& metrics, const std::vector<JobMetrics>& jobs,
                        const QueueLedger* ledger = nullptr);
std::string JobsCsv(const std::vector<JobMetrics>& jobs);
std::string TasksCsv(const RunRecorder& recorder, const std::vector<SlotInfo>& slots);
// `field` as an RFC 4180 CSV field: quoted (inner quotes doubled) only when needed.
std::string CsvField(std::string_view field);

// ---- Comparison of policies (`mrlocal compare`) ----

// One policy's runs of the same workload, one WorkloadMetrics per seed.
struct ComparisonRow {
  std::string policy;
  std::vector<WorkloadMetrics> seeds;
};

// A Markdown table, one row per policy, one column per metric: the mean over seeds, and
// "(min-max)" when there are several seeds.
std::string ComparisonMarkdown(const std::vector<ComparisonRow>& rows);
// The same as CSV: policy,seeds, then <metric>_mean,<metric>_min,<metric>_max per metric.
std::string ComparisonCsv(const std::vector<ComparisonRow>& rows);

// Creates `dir` if needed and writes comparison.md, comparison.csv and one bar chart per
// metric (bars = mean per policy, whiskers = min-max across seeds): accept_ratio.svg,
// success_ratio.svg, utilization.svg, miss_ratio.svg, twjct.svg, latency_p95.svg,
// makespan.svg.
Status WriteComparisonReport(const std::filesystem::path& dir,
                             const std::vector<ComparisonRow>& rows);

}  // namespace mrlocal
