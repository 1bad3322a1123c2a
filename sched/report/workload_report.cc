#include "sched/report/workload_report.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string_view>
#include <unordered_map>

#include "engine/atomic_file.h"
#include "sched/report/bar_chart_svg.h"
#include "sched/report/chunked_file.h"
#include "sched/report/fixed.h"
#include "sched/report/goals_svg.h"
#include "sched/report/lof_snapshot_svg.h"
#include "sched/report/queue_report.h"
#include "sched/report/trace_json.h"

namespace mrlocal {
namespace {

using Json = nlohmann::ordered_json;

std::string Sec(Time t) { return Fixed(Seconds(t), 6); }
std::string Sec(const std::optional<double>& s) { return s ? Fixed(*s, 6) : ""; }
const char* Bool(bool b) { return b ? "true" : "false"; }

// The charts' heading: the run's title, its policy, and whether it was simulated.
std::string RunTitle(const ReportOptions& options, const WorkloadMetrics& metrics) {
  return options.title + " (policy " + metrics.policy + (metrics.sim ? ", simulated)" : ")");
}

std::string TasksHeader() {
  return "job,kind,index,attempt,slot,node,start_s,end_s,duration_s,ok,preempted,input_bytes,"
         "output_bytes\n";
}

void AppendTaskRow(std::string& out, const AttemptRecord& a,
                   const std::unordered_map<SlotId, NodeId>& node_of) {
  auto node = node_of.find(a.slot);
  out += std::to_string(a.job) + ',' + std::string(ToString(a.kind)) + ',' +
         std::to_string(a.index) + ',' + std::to_string(a.attempt) + ',' + std::to_string(a.slot) +
         ',' + (node == node_of.end() ? std::string() : std::to_string(node->second)) + ',' +
         Sec(a.start) + ',' + Sec(a.end) + ',' + Sec(a.end - a.start) + ',' + Bool(a.ok()) + ',' +
         Bool(a.preempted()) + ',' + std::to_string(a.input_bytes) + ',' +
         std::to_string(a.output_bytes) + '\n';
}

std::unordered_map<SlotId, NodeId> NodeOf(const std::vector<SlotInfo>& slots) {
  std::unordered_map<SlotId, NodeId> m;
  for (const SlotInfo& s : slots) m.emplace(s.id, s.node);
  return m;
}

Status WriteTasks(const std::filesystem::path& file, const RunRecorder& recorder,
                  const std::vector<SlotInfo>& slots) {
  auto out = ChunkedFile::Open(file.string());
  if (!out.ok()) return out.status();
  const auto node_of = NodeOf(slots);
  MRLOCAL_RETURN_IF_ERROR(out->Append(TasksHeader()));
  std::string row;
  for (const AttemptRecord& a : recorder.attempts()) {
    row.clear();
    AppendTaskRow(row, a, node_of);
    MRLOCAL_RETURN_IF_ERROR(out->Append(row));
  }
  return out->Commit();
}

template <typename T>
Json OrNull(const std::optional<T>& v) {
  return v ? Json(*v) : Json(nullptr);
}
Json OrNull(const std::string& s) { return s.empty() ? Json(nullptr) : Json(s); }

Json LatencyJson(const LatencySummary& l) {
  return Json{{"p50", l.p50}, {"p95", l.p95}, {"p99", l.p99}, {"mean", l.mean}, {"max", l.max}};
}
// Scheduler latencies: SchedulerStats keeps the two percentiles only.
Json PercentilesJson(const LatencySummary& l) { return Json{{"p50", l.p50}, {"p99", l.p99}}; }

Json JobJson(const JobMetrics& j) {
  Json top = Json::array();
  for (const TopEntry& t : j.top) top.push_back(Json{{"key", t.key}, {"value", t.value}});
  return Json{{"id", j.id},
              {"name", j.name},
              {"app", j.app},
              {"queue", j.queue},
              {"weight", j.weight},
              {"status", j.status},
              {"failure", OrNull(j.failure)},
              {"admitted", j.admitted},
              {"best_effort", j.best_effort},
              {"admission", j.admission},
              {"estimated_finish_s", OrNull(j.estimated_finish_s)},
              {"estimate_source", OrNull(j.estimate_source)},
              {"estimate_jobs", j.estimate_jobs},
              {"arrival_s", j.arrival_s},
              {"deadline_s", OrNull(j.deadline_s)},
              {"deadline_at_s", OrNull(j.deadline_at_s)},
              {"start_s", OrNull(j.start_s)},
              {"finish_s", OrNull(j.finish_s)},
              {"elapsed_s", j.elapsed_s},
              {"map_phase_s", j.map_phase_s},
              {"reduce_phase_s", j.reduce_phase_s},
              {"met_deadline", OrNull(j.met_deadline)},
              {"goal_s", OrNull(j.goal_s)},
              {"goal_at_s", OrNull(j.goal_at_s)},
              {"met_goal", OrNull(j.met_goal)},
              {"utility", OrNull(j.utility)},
              {"successful", j.successful},
              {"slack_s", OrNull(j.slack_s)},
              {"input_bytes", j.input_bytes},
              {"throughput_mb_s", j.throughput_mb_s},
              {"maps", j.maps},
              {"reduces", j.reduces},
              {"partitions", j.partitions},
              {"attempts", j.attempts},
              {"preempted_attempts", j.preempted_attempts},
              {"failed_attempts", j.failed_attempts},
              {"failure_reasons", j.failure_reasons},
              {"retries", j.retries},
              {"speculative_attempts", j.speculative_attempts},
              {"speculative_won", j.speculative_won},
              {"superseded_slot_s", j.superseded_slot_s},
              {"slot_time_s", j.slot_time_s},
              {"skewness", j.skewness},
              {"balance", j.balance},
              {"plan",
               {{"row", j.plan_row},
                {"cost_us", j.plan_cost_us},
                {"sketch_fill_us", j.sketch_fill_us},
                {"reduce_load", j.reduce_load}}},
              {"map_output_units", j.map_output_units},
              {"skipped_records", j.skipped_records},
              {"output_records", OrNull(j.output_records)},
              {"output_bytes", j.output_bytes},
              {"remote_shuffle_bytes", j.remote_shuffle_bytes},
              {"warnings", j.warnings},
              {"top", std::move(top)}};
}

Json ExclusionsJson(const std::vector<WorkloadMetrics::Exclusion>& list) {
  Json out = Json::array();
  for (const auto& e : list)
    out.push_back({{"node", e.node}, {"at_s", e.at_s}, {"until_s", e.until_s}});
  return out;
}

// ---- comparison ----

struct MetricDef {
  const char* key;     // CSV column stem and chart file name
  const char* header;  // Markdown column and chart y label
  bool percent;        // a ratio shown as a percentage
  int decimals;        // after the x100 of percent
  bool chart;
  double (*get)(const WorkloadMetrics&);
  // Null: every run has it; else a column shown only when every run of the table has it.
  bool (*has)(const WorkloadMetrics&) = nullptr;
};

bool HasLpBound(const WorkloadMetrics& m) { return m.lp_bound.has_value() && *m.lp_bound > 0; }
double TwjctOverLpBound(const WorkloadMetrics& m) { return m.twjct_abs / *m.lp_bound; }
bool HasGoals(const WorkloadMetrics& m) { return m.goal_jobs > 0; }

const std::vector<MetricDef>& Metrics() {
  static const std::vector<MetricDef> defs = {
      {"accept_ratio", "accept ratio", true, 1, true,
       [](const WorkloadMetrics& m) { return m.accept_ratio; }},
      {"success_ratio", "success ratio", true, 1, true,
       [](const WorkloadMetrics& m) { return m.success_ratio; }},
      {"utilization", "utilization", true, 1, true,
       [](const WorkloadMetrics& m) { return m.utilization; }},
      {"utilization_all", "utilization (all jobs)", true, 1, false,
       [](const WorkloadMetrics& m) { return m.utilization_all; }},
      {"miss_ratio", "miss ratio", true, 1, true,
       [](const WorkloadMetrics& m) { return m.miss_ratio; }},
      {"twjct", "TWJCT (s)", false, 1, true, [](const WorkloadMetrics& m) { return m.twjct; }},
      {"twjct_lp_ratio", "TWJCT / LP bound", false, 3, true, TwjctOverLpBound,
       [](const WorkloadMetrics& m) { return HasLpBound(m) && !m.lp_bound_of_model; }},
      {"twjct_model_lp_ratio", "TWJCT / model's LP bound", false, 3, true, TwjctOverLpBound,
       [](const WorkloadMetrics& m) { return HasLpBound(m) && m.lp_bound_of_model; }},
      {"twtct_lp_ratio", "TWTCT / LP bound", false, 3, true,
       [](const WorkloadMetrics& m) { return m.twtct / *m.task_lp_bound; },
       [](const WorkloadMetrics& m) {
         return m.task_lp_bound.has_value() && *m.task_lp_bound > 0;
       }},
      {"goal_miss_ratio", "goal misses", true, 1, true,
       [](const WorkloadMetrics& m) { return m.goal_miss_ratio; }, HasGoals},
      {"mean_utility", "mean utility", false, 3, true,
       [](const WorkloadMetrics& m) { return m.mean_utility; }, HasGoals},
      {"latency_p50", "p50 latency (s)", false, 3, false,
       [](const WorkloadMetrics& m) { return m.latency_s.p50; }},
      {"latency_p95", "p95 latency (s)", false, 3, true,
       [](const WorkloadMetrics& m) { return m.latency_s.p95; }},
      {"makespan", "makespan (s)", false, 2, true,
       [](const WorkloadMetrics& m) { return m.makespan_s; }},
  };
  return defs;
}

// The metrics every run of `rows` has, in Metrics()' order.
std::vector<MetricDef> Shown(const std::vector<ComparisonRow>& rows) {
  std::vector<MetricDef> shown;
  for (const MetricDef& d : Metrics()) {
    bool all = true;
    for (const ComparisonRow& r : rows)
      for (const WorkloadMetrics& m : r.seeds) all = all && (!d.has || d.has(m));
    if (all) shown.push_back(d);
  }
  return shown;
}

struct Spread {
  double mean = 0, min = 0, max = 0;
};

Spread Over(const std::vector<WorkloadMetrics>& seeds, double (*get)(const WorkloadMetrics&)) {
  Spread s;
  if (seeds.empty()) return s;
  s.min = s.max = get(seeds[0]);
  double sum = 0;
  for (const WorkloadMetrics& m : seeds) {
    const double v = get(m);
    sum += v;
    s.min = std::min(s.min, v);
    s.max = std::max(s.max, v);
  }
  s.mean = sum / static_cast<double>(seeds.size());
  return s;
}

std::string Cell(const MetricDef& d, double v) {
  return Fixed(d.percent ? v * 100 : v, d.decimals) + (d.percent ? "%" : "");
}

std::string MarkdownText(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '|' || c == '\\' || c == '*' || c == '`') out += '\\';  // table and emphasis
    out += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return out;
}

}  // namespace

std::string CsvField(std::string_view field) {
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(field);
  std::string out = "\"";
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string MetricsJson(const WorkloadMetrics& m, const std::vector<JobMetrics>& jobs,
                        const QueueLedger* ledger) {
  Json per_job = Json::array();
  for (const JobMetrics& j : jobs) per_job.push_back(JobJson(j));
  Json json{{"policy", m.policy},
            {"admission_policy", m.admission_policy},
            {"best_effort", m.best_effort},
            {"sim", m.sim},
            {"cluster", m.cluster},
            {"partitioner", m.partitioner},
            {"slots", m.slots},
            {"admission_control", m.admission_control},
            {"reject_policy", m.reject_policy},
            {"setup_s", m.setup_s},
            {"jobs", m.jobs},
            {"accepted", m.accepted},
            {"rejected", m.rejected},
            {"best_effort_jobs", m.best_effort_jobs},
            {"completed", m.completed},
            {"failed", m.failed},
            {"unfinished", m.unfinished},
            {"successful", m.successful},
            {"met_all", m.met_all},
            {"deadline_jobs", m.deadline_jobs},
            {"missed", m.missed},
            {"accept_ratio", m.accept_ratio},
            {"success_ratio", m.success_ratio},
            {"met_all_ratio", m.met_all_ratio},
            {"utilization", m.utilization},
            {"utilization_successful", m.utilization_successful},
            {"utilization_all", m.utilization_all},
            {"miss_ratio", m.miss_ratio},
            {"goal_jobs", m.goal_jobs},
            {"goal_missed", m.goal_missed},
            {"goal_miss_ratio", m.goal_miss_ratio},
            {"mean_utility", m.mean_utility},
            {"twjct", m.twjct},
            {"twjct_abs", m.twjct_abs},
            {"twtct", m.twtct},
            {"latency_s", LatencyJson(m.latency_s)},
            {"makespan_s", m.makespan_s},
            {"turnaround_s", m.turnaround_s},
            {"slot_time_s", m.slot_time_s},
            {"slot_time_successful_s", m.slot_time_successful_s},
            {"tasks",
             {{"attempts", m.attempts},
              {"preempted", m.preempted_attempts},
              {"failed", m.failed_attempts},
              {"retries", m.retries},
              {"speculative", m.speculative_attempts},
              {"speculative_won", m.speculative_won},
              {"superseded", m.superseded_attempts},
              {"superseded_slot_s", m.superseded_slot_s}}},
            {"excluded_nodes", ExclusionsJson(m.excluded_nodes)},
            {"scheduler",
             {{"decisions", m.scheduler.decisions},
              {"launches", m.scheduler.launches},
              {"preemptions", m.scheduler.preemptions},
              {"decision_latency_us", PercentilesJson(m.scheduler.decision_latency_us)},
              {"dispatch_latency_us", PercentilesJson(m.scheduler.dispatch_latency_us)}}},
            {"per_job", std::move(per_job)}};
  if (ledger) json["queues"] = Json::parse(QueuesJson(*ledger, jobs));
  // Invalid UTF-8 (a job name from a trace file) becomes U+FFFD rather than an error.
  return json.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string JobsCsv(const std::vector<JobMetrics>& jobs) {
  std::string out =
      "id,name,app,queue,weight,arrival_s,deadline_s,admitted,status,start_s,finish_s,"
      "response_s,met_deadline,slack_s,maps,reduces,slot_time_s,goal_s,met_goal,utility\n";
  for (const JobMetrics& j : jobs) {
    const bool completed = j.status == "succeeded";
    out += std::to_string(j.id) + ',' + CsvField(j.name) + ',' + CsvField(j.app) + ',' +
           CsvField(j.queue) + ',' + Fixed(j.weight, 6) + ',' + Fixed(j.arrival_s, 6) + ',' +
           Sec(j.deadline_at_s) + ',' + Bool(j.admitted) + ',' + j.status + ',' + Sec(j.start_s) +
           ',' + Sec(j.finish_s) + ',' + (completed ? Fixed(j.elapsed_s, 6) : "") + ',' +
           (j.met_deadline ? Bool(*j.met_deadline) : "") + ',' + Sec(j.slack_s) + ',' +
           std::to_string(j.maps) + ',' + std::to_string(j.reduces) + ',' +
           Fixed(j.slot_time_s, 6) + ',' + Sec(j.goal_at_s) + ',' +
           (j.met_goal ? Bool(*j.met_goal) : "") + ',' + Sec(j.utility) + '\n';
  }
  return out;
}

std::string TasksCsv(const RunRecorder& recorder, const std::vector<SlotInfo>& slots) {
  const auto node_of = NodeOf(slots);
  std::string out = TasksHeader();
  for (const AttemptRecord& a : recorder.attempts()) AppendTaskRow(out, a, node_of);
  return out;
}

Status WriteWorkloadReport(const std::filesystem::path& dir, const WorkloadMetrics& metrics,
                           const std::vector<JobMetrics>& jobs, const RunRecorder& recorder,
                           const std::vector<SlotInfo>& slots, const ReportOptions& options) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    return Status::IoError("cannot create report directory " + dir.string() + ": " + ec.message());
  RemoveStaleTemporariesIn(dir.string());  // files a killed report left half-written
  MRLOCAL_RETURN_IF_ERROR(WriteFileAtomically((dir / "metrics.json").string(),
                                              MetricsJson(metrics, jobs, options.ledger)));
  MRLOCAL_RETURN_IF_ERROR(WriteFileAtomically((dir / "jobs.csv").string(), JobsCsv(jobs)));
  if (options.ledger) {
    MRLOCAL_RETURN_IF_ERROR(
        WriteFileAtomically((dir / "queues.csv").string(), QueuesCsv(*options.ledger)));
    for (const auto& [file, chart] :
         QueueCharts(*options.ledger, jobs, RunTitle(options, metrics))) {
      Result<std::string> svg = LineChartSvg(chart);
      if (!svg.ok()) return svg.status().WithContext(file + ": ");
      MRLOCAL_RETURN_IF_ERROR(WriteFileAtomically((dir / file).string(), *svg));
    }
  }
  if (options.write_tasks) MRLOCAL_RETURN_IF_ERROR(WriteTasks(dir / "tasks.csv", recorder, slots));
  if (options.write_trace) {
    TraceOptions trace;
    trace.process = options.title;
    trace.max_events = options.max_trace_attempts;
    trace.decision_costs = !metrics.sim;
    MRLOCAL_RETURN_IF_ERROR(WriteTrace(dir / "trace.json", recorder, slots, trace));
  }
  if (options.write_gantt) {
    GanttOptions gantt = options.gantt;
    gantt.title = RunTitle(options, metrics);
    MRLOCAL_RETURN_IF_ERROR(
        WriteFileAtomically((dir / "gantt.svg").string(), GanttSvg(recorder, slots, gantt)));
  }
  if (WantsGoalsChart(recorder, options.availability)) {
    GoalsOptions goals;
    goals.title = RunTitle(options, metrics) + ": capacity, slots and goals";
    MRLOCAL_RETURN_IF_ERROR(WriteFileAtomically(
        (dir / "goals.svg").string(), GoalsSvg(recorder, slots, options.availability, goals)));
  }
  if (options.overload) {
    const std::vector<TaskOutlier>& tasks = options.overload->tasks;
    const JobId job = tasks.empty() ? 0 : tasks.front().task.job;
    auto named =
        std::find_if(jobs.begin(), jobs.end(), [job](const JobMetrics& j) { return j.id == job; });
    const std::string name = named != jobs.end() ? named->name : "job " + std::to_string(job);
    MRLOCAL_RETURN_IF_ERROR(WriteFileAtomically((dir / "overload.svg").string(),
                                                LofSnapshotSvg(*options.overload, name)));
  }
  return Status::OK();
}

std::string ComparisonMarkdown(const std::vector<ComparisonRow>& rows) {
  bool several = false;
  for (const ComparisonRow& r : rows) several = several || r.seeds.size() > 1;
  const std::vector<MetricDef> metrics = Shown(rows);
  std::string out = "| policy | seeds | jobs |";
  std::string rule = "|---|---:|---:|";
  for (const MetricDef& d : metrics) {
    out += std::string(" ") + d.header + " |";
    rule += "---:|";
  }
  out += "\n" + rule + "\n";
  for (const ComparisonRow& r : rows) {
    const Spread jobs =
        Over(r.seeds, [](const WorkloadMetrics& m) { return static_cast<double>(m.jobs); });
    out += "| " + MarkdownText(r.policy) + " | " + std::to_string(r.seeds.size()) + " | " +
           Fixed(jobs.mean, jobs.min == jobs.max ? 0 : 1) + " |";
    for (const MetricDef& d : metrics) {
      const Spread s = Over(r.seeds, d.get);
      // Appended piece by piece: "literal" + std::string trips GCC 12's -Wrestrict.
      out += ' ';
      out += Cell(d, s.mean);
      if (r.seeds.size() > 1) {
        out += " (";
        out += Cell(d, s.min);
        out += "–";
        out += Cell(d, s.max);
        out += ')';
      }
      out += " |";
    }
    out += "\n";
  }
  out += several ? "\nEach cell: the mean over seeds (min–max across seeds).\n"
                 : "\nOne seed per policy.\n";
  out +=
      "Definitions (RTMR section V): accept = accepted / all jobs; success = accepted jobs "
      "that met their deadline / accepted jobs; utilization = slot time of successful jobs "
      "(of all jobs without admission control) / (slots x turnaround); miss = accepted "
      "deadline jobs that missed / accepted deadline jobs; TWJCT = sum of weight x response "
      "time of completed jobs.\n";
  auto shown = [&](std::string_view key) {
    return std::any_of(metrics.begin(), metrics.end(),
                       [&](const MetricDef& d) { return d.key == key; });
  };
  if (shown("goal_miss_ratio"))
    out +=
        "goal misses = jobs with a goal that did not complete by it (late, failed or rejected) / "
        "jobs with a goal; mean utility = mean over the jobs with a goal of 1 - c/g when the "
        "response time c is within the goal g, g/c - 1 after it, -1 when the job never "
        "completed.\n";
  if (shown("twjct_lp_ratio"))
    out +=
        "TWJCT / LP bound = sum of weight x completion time (from the workload's start) over "
        "the LP lower bound of the same jobs (MarS's COGE, epsilon 0.3): no schedule is below 1.\n";
  if (shown("twjct_model_lp_ratio"))
    out +=
        "TWJCT / model's LP bound = sum of weight x completion time (from the workload's start) "
        "over the LP lower bound (MarS's COGE, epsilon 0.3) of the jobs' task times as the "
        "calibrated model estimates them: the run's measured times differ, so it is no bound "
        "on them and a ratio below 1 is possible.\n";
  if (shown("twtct_lp_ratio"))
    out +=
        "TWTCT / LP bound = sum over the tasks of completed jobs of the task's weight (its "
        "job's when the workload gives none) x the task's completion time (from the workload's "
        "start) over the task-level LP's bound (MarS's section 4.4): no schedule is below 1.\n";
  return out;
}

std::string ComparisonCsv(const std::vector<ComparisonRow>& rows) {
  const std::vector<MetricDef> metrics = Shown(rows);
  std::string out = "policy,seeds";
  for (const MetricDef& d : metrics) {
    for (const char* stat : {"_mean", "_min", "_max"}) out += std::string(",") + d.key + stat;
  }
  out += "\n";
  for (const ComparisonRow& r : rows) {
    out += CsvField(r.policy) + ',' + std::to_string(r.seeds.size());
    for (const MetricDef& d : metrics) {
      const Spread s = Over(r.seeds, d.get);
      for (double v : {s.mean, s.min, s.max}) out += ',' + Fixed(v, 6);
    }
    out += "\n";
  }
  return out;
}

Status WriteComparisonReport(const std::filesystem::path& dir,
                             const std::vector<ComparisonRow>& rows) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    return Status::IoError("cannot create report directory " + dir.string() + ": " + ec.message());
  RemoveStaleTemporariesIn(dir.string());  // files a killed report left half-written
  MRLOCAL_RETURN_IF_ERROR(
      WriteFileAtomically((dir / "comparison.md").string(), ComparisonMarkdown(rows)));
  MRLOCAL_RETURN_IF_ERROR(
      WriteFileAtomically((dir / "comparison.csv").string(), ComparisonCsv(rows)));
  for (const MetricDef& d : Shown(rows)) {
    if (!d.chart) continue;
    BarChart chart;
    chart.title = d.header;
    chart.y_label = d.header;
    chart.percent = d.percent;
    chart.value_decimals = d.decimals;
    for (const ComparisonRow& r : rows) {
      const Spread s = Over(r.seeds, d.get);
      BarChartBar bar{r.policy, s.mean, std::nullopt, std::nullopt};
      if (r.seeds.size() > 1) bar.low = s.min, bar.high = s.max;
      chart.bars.push_back(std::move(bar));
    }
    if (std::any_of(rows.begin(), rows.end(), [](auto& r) { return r.seeds.size() > 1; }))
      chart.subtitle = "mean over seeds; whiskers: min-max across seeds";
    MRLOCAL_RETURN_IF_ERROR(
        WriteFileAtomically((dir / (std::string(d.key) + ".svg")).string(), BarChartSvg(chart)));
  }
  return Status::OK();
}

}  // namespace mrlocal
