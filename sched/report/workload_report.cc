#include "sched/report/workload_report.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <memory>
#include <sstream>
#include <unordered_map>

#include "engine/atomic_file.h"
#include "sched/report/bar_chart_svg.h"
#include "sched/report/json_writer.h"

namespace mrlocal {
namespace {

constexpr size_t kChunk = 1 << 20;  // big files are written in pieces of about this size

// `v` with exactly `decimals` decimals, locale independent; non-finite as empty.
std::string Fixed(double v, int decimals) {
  if (!std::isfinite(v)) return "";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, decimals);
  if (ec != std::errc()) return "";
  std::string s(buf, end);
  if (s.find_first_not_of("-0.") == std::string::npos && s[0] == '-') s.erase(0, 1);  // -0.0
  return s;
}

std::string Sec(Time t) { return Fixed(Seconds(t), 6); }
const char* Bool(bool b) { return b ? "true" : "false"; }

std::string_view JobStatus(const JobRecord& j) {
  if (!j.admitted) return "rejected";
  if (!j.finished) return "unfinished";
  return j.completed() ? "succeeded" : "failed";
}

// Appends to a file through an AtomicFileWriter, a chunk at a time, so that a report of
// millions of attempts never sits whole in memory.
class ChunkedFile {
 public:
  static Result<ChunkedFile> Open(const std::filesystem::path& file) {
    auto w = AtomicFileWriter::Create(file.string());
    if (!w.ok()) return w.status();
    return ChunkedFile(std::move(w).value());
  }
  Status Append(std::string_view s) {
    buf_.append(s);
    return buf_.size() >= kChunk ? Flush() : Status::OK();
  }
  // Takes what `os` holds and empties it.
  Status Drain(std::ostringstream& os) {
    Status s = Append(os.str());
    os.str("");
    return s;
  }
  Status Commit() {
    MRLOCAL_RETURN_IF_ERROR(Flush());
    return writer_->Commit();
  }

 private:
  explicit ChunkedFile(std::unique_ptr<AtomicFileWriter> w) : writer_(std::move(w)) {}
  Status Flush() {
    Status s = writer_->Append(buf_);
    buf_.clear();
    return s;
  }
  std::unique_ptr<AtomicFileWriter> writer_;
  std::string buf_;
};

std::string TasksHeader() {
  return "job,kind,index,attempt,slot,node,start_s,end_s,duration_s,ok,preempted,input_bytes,"
         "output_bytes\n";
}

void AppendTaskRow(std::string& out, const AttemptRecord& a,
                   const std::unordered_map<SlotId, NodeId>& node_of) {
  auto node = node_of.find(a.slot);
  out += std::to_string(a.job) + ',' + std::string(ToString(a.kind)) + ',' +
         std::to_string(a.index) + ',' + std::to_string(a.attempt) + ',' +
         std::to_string(a.slot) + ',' +
         (node == node_of.end() ? std::string() : std::to_string(node->second)) + ',' +
         Sec(a.start) + ',' + Sec(a.end) + ',' + Sec(a.end - a.start) + ',' + Bool(a.ok()) +
         ',' + Bool(a.preempted()) + ',' + std::to_string(a.input_bytes) + ',' +
         std::to_string(a.output_bytes) + '\n';
}

std::unordered_map<SlotId, NodeId> NodeOf(const std::vector<SlotInfo>& slots) {
  std::unordered_map<SlotId, NodeId> m;
  for (const SlotInfo& s : slots) m.emplace(s.id, s.node);
  return m;
}

Status WriteTasks(const std::filesystem::path& file, const RunRecorder& recorder,
                  const std::vector<SlotInfo>& slots) {
  auto out = ChunkedFile::Open(file);
  if (!out.ok()) return out.status();
  const auto node_of = NodeOf(slots);
  std::string rows = TasksHeader();
  for (const AttemptRecord& a : recorder.attempts()) {
    AppendTaskRow(rows, a, node_of);
    if (rows.size() >= kChunk) {
      MRLOCAL_RETURN_IF_ERROR(out->Append(rows));
      rows.clear();
    }
  }
  MRLOCAL_RETURN_IF_ERROR(out->Append(rows));
  return out->Commit();
}

std::string JobName(const JobRecord* j, JobId id) {
  return j && !j->name.empty() ? j->name : "job " + std::to_string(id);
}

double Us(Time t) { return static_cast<double>(t.count()) / 1000.0; }

Status WriteTrace(const std::filesystem::path& file, const RunRecorder& recorder,
                  const std::vector<SlotInfo>& slots, size_t max_attempts) {
  auto out = ChunkedFile::Open(file);
  if (!out.ok()) return out.status();
  std::ostringstream os;
  JsonWriter w(os);
  w.BeginObject();
  w.Key("displayTimeUnit").String("ms");
  w.Key("traceEvents").BeginArray();
  auto meta = [&](int tid, const std::string& name) {
    w.BeginObject().Key("ph").String("M").Key("pid").Int(1).Key("tid").Int(tid);
    w.Key("name").String("thread_name").Key("args").BeginObject().Key("name").String(name);
    w.EndObject().EndObject();
    w.BeginObject().Key("ph").String("M").Key("pid").Int(1).Key("tid").Int(tid);
    w.Key("name").String("thread_sort_index").Key("args").BeginObject().Key("sort_index");
    w.Int(tid).EndObject().EndObject();
  };
  w.BeginObject().Key("ph").String("M").Key("pid").Int(1).Key("name").String("process_name");
  w.Key("args").BeginObject().Key("name").String("mrlocal workload").EndObject().EndObject();
  meta(0, "controller");
  for (const SlotInfo& s : slots) {
    meta(s.id + 1, "node " + std::to_string(s.node) + " " + std::string(ToString(s.kind)) +
                       " slot " + std::to_string(s.id) + " (s=" + Fixed(s.speed, 2) + ")");
  }
  auto instant = [&](const std::string& name, Time at, const std::string& detail) {
    w.BeginObject().Key("name").String(name).Key("cat").String("scheduler");
    w.Key("ph").String("i").Key("s").String("t").Key("pid").Int(1).Key("tid").Int(0);
    w.Key("ts").Double(Us(at));
    w.Key("args").BeginObject().Key("detail").String(detail).EndObject().EndObject();
  };
  for (const JobRecord& j : recorder.jobs()) {
    const std::string name = JobName(&j, j.id) + " (job " + std::to_string(j.id) + ")";
    instant((j.admitted ? "admit " : "reject ") + name, j.arrival, j.admission_reason);
    if (j.deadline) instant("deadline " + name, *j.deadline, "");
    if (j.admitted && j.finished)
      instant(std::string(JobStatus(j)) + " " + name, j.finish, j.failure);
    if (os.tellp() >= static_cast<std::streamoff>(kChunk)) MRLOCAL_RETURN_IF_ERROR(out->Drain(os));
  }
  const std::vector<AttemptRecord>& attempts = recorder.attempts();
  const size_t n = std::min(attempts.size(), max_attempts);
  for (size_t i = 0; i < n; ++i) {
    const AttemptRecord& a = attempts[i];
    w.BeginObject();
    w.Key("name").String(JobName(recorder.job(a.job), a.job) + " " + std::string(ToString(a.kind)) +
                         " " + std::to_string(a.index));
    w.Key("cat").String(ToString(a.kind));
    w.Key("ph").String("X").Key("pid").Int(1).Key("tid").Int(a.slot + 1);
    w.Key("ts").Double(Us(a.start)).Key("dur").Double(Us(a.end - a.start));
    w.Key("args").BeginObject();
    w.Key("job").Uint(a.job).Key("attempt").Uint(a.attempt);
    w.Key("ok").Bool(a.ok()).Key("preempted").Bool(a.preempted());
    w.Key("input_bytes").Uint(a.input_bytes).Key("output_bytes").Uint(a.output_bytes);
    w.EndObject().EndObject();
    if (os.tellp() >= static_cast<std::streamoff>(kChunk)) MRLOCAL_RETURN_IF_ERROR(out->Drain(os));
  }
  if (n < attempts.size()) {
    instant("trace truncated", Time{0},
            std::to_string(attempts.size() - n) + " later attempts left out (tasks.csv has them)");
  }
  w.EndArray().EndObject();
  os << "\n";
  MRLOCAL_RETURN_IF_ERROR(out->Drain(os));
  return out->Commit();
}

// ---- comparison ----

struct MetricDef {
  const char* key;     // CSV column stem and chart file name
  const char* header;  // Markdown column and chart y label
  bool percent;        // a ratio shown as a percentage
  int decimals;        // after the x100 of percent
  bool chart;
  double (*get)(const WorkloadMetrics&);
};

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
      {"latency_p50", "p50 latency (s)", false, 3, false,
       [](const WorkloadMetrics& m) { return m.latency_s.p50; }},
      {"latency_p95", "p95 latency (s)", false, 3, true,
       [](const WorkloadMetrics& m) { return m.latency_s.p95; }},
      {"makespan", "makespan (s)", false, 2, true,
       [](const WorkloadMetrics& m) { return m.makespan_s; }},
  };
  return defs;
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

std::string WorkloadMetricsJson(const WorkloadMetrics& m) {
  std::ostringstream out;
  JsonWriter w(out, /*pretty=*/true);
  auto latency = [&w](const char* key, const LatencySummary& l, bool full) {
    w.Key(key).BeginObject();
    w.Key("p50").Double(l.p50);
    if (full) w.Key("p95").Double(l.p95);
    w.Key("p99").Double(l.p99);
    if (full) w.Key("mean").Double(l.mean).Key("max").Double(l.max);
    w.EndObject();
  };
  w.BeginObject();
  w.Key("policy").String(m.policy);
  w.Key("sim").Bool(m.sim);
  w.Key("slots").Int(m.slots);
  w.Key("admission_control").Bool(m.admission_control);
  w.Key("jobs").Uint(m.jobs);
  w.Key("accepted").Uint(m.accepted);
  w.Key("rejected").Uint(m.rejected);
  w.Key("completed").Uint(m.completed);
  w.Key("failed").Uint(m.failed);
  w.Key("unfinished").Uint(m.unfinished);
  w.Key("successful").Uint(m.successful);
  w.Key("deadline_jobs").Uint(m.deadline_jobs);
  w.Key("missed").Uint(m.missed);
  w.Key("accept_ratio").Double(m.accept_ratio);
  w.Key("success_ratio").Double(m.success_ratio);
  w.Key("utilization").Double(m.utilization);
  w.Key("utilization_successful").Double(m.utilization_successful);
  w.Key("utilization_all").Double(m.utilization_all);
  w.Key("miss_ratio").Double(m.miss_ratio);
  w.Key("twjct").Double(m.twjct);
  w.Key("twjct_abs").Double(m.twjct_abs);
  latency("latency_s", m.latency_s, true);
  w.Key("makespan_s").Double(m.makespan_s);
  w.Key("turnaround_s").Double(m.turnaround_s);
  w.Key("slot_time_s").Double(m.slot_time_s);
  w.Key("slot_time_successful_s").Double(m.slot_time_successful_s);
  w.Key("tasks").BeginObject();
  w.Key("attempts").Uint(m.attempts);
  w.Key("preempted").Uint(m.preempted_attempts);
  w.Key("failed").Uint(m.failed_attempts);
  w.EndObject();
  w.Key("scheduler").BeginObject();
  w.Key("decisions").Uint(m.scheduler.decisions);
  w.Key("launches").Uint(m.scheduler.launches);
  w.Key("preemptions").Uint(m.scheduler.preemptions);
  latency("decision_latency_us", m.scheduler.decision_latency_us, false);
  latency("dispatch_latency_us", m.scheduler.dispatch_latency_us, false);
  w.EndObject();
  w.EndObject();
  out << "\n";
  return out.str();
}

std::string JobsCsv(const RunRecorder& recorder) {
  std::string out =
      "id,name,app,queue,weight,arrival_s,deadline_s,admitted,status,start_s,finish_s,"
      "response_s,met_deadline,slack_s,maps,reduces,slot_time_s\n";
  for (const JobRecord& j : recorder.jobs()) {
    const bool ran = j.admitted && j.finished;
    out += std::to_string(j.id) + ',' + CsvField(j.name) + ',' + CsvField(j.app) + ',' +
           CsvField(j.queue) + ',' + Fixed(j.weight, 6) + ',' + Sec(j.arrival) + ',' +
           (j.deadline ? Sec(*j.deadline) : "") + ',' + Bool(j.admitted) + ',' +
           std::string(JobStatus(j)) + ',' + (j.first_start ? Sec(*j.first_start) : "") + ',' +
           (ran ? Sec(j.finish) : "") + ',' + (j.response() ? Sec(*j.response()) : "") + ',' +
           (ran ? Bool(j.met_deadline()) : "") + ',' +
           (ran && j.deadline ? Sec(*j.deadline - j.finish) : "") + ',' + std::to_string(j.maps) +
           ',' + std::to_string(j.reduces) + ',' + Sec(j.slot_time) + '\n';
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
                           const RunRecorder& recorder, const std::vector<SlotInfo>& slots,
                           const ReportOptions& options) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::IoError("cannot create report directory " + dir.string() + ": " +
                                 ec.message());
  MRLOCAL_RETURN_IF_ERROR(
      WriteFileAtomically((dir / "metrics.json").string(), WorkloadMetricsJson(metrics)));
  MRLOCAL_RETURN_IF_ERROR(WriteFileAtomically((dir / "jobs.csv").string(), JobsCsv(recorder)));
  if (options.write_tasks) MRLOCAL_RETURN_IF_ERROR(WriteTasks(dir / "tasks.csv", recorder, slots));
  if (options.write_trace) {
    MRLOCAL_RETURN_IF_ERROR(
        WriteTrace(dir / "trace.json", recorder, slots, options.max_trace_attempts));
  }
  if (options.write_gantt) {
    GanttOptions gantt = options.gantt;
    gantt.title += " (policy " + metrics.policy + (metrics.sim ? ", simulated)" : ")");
    MRLOCAL_RETURN_IF_ERROR(
        WriteFileAtomically((dir / "gantt.svg").string(), GanttSvg(recorder, slots, gantt)));
  }
  return Status::OK();
}

std::string ComparisonMarkdown(const std::vector<ComparisonRow>& rows) {
  bool several = false;
  for (const ComparisonRow& r : rows) several = several || r.seeds.size() > 1;
  std::string out = "| policy | seeds | jobs |";
  std::string rule = "|---|---:|---:|";
  for (const MetricDef& d : Metrics()) {
    out += std::string(" ") + d.header + " |";
    rule += "---:|";
  }
  out += "\n" + rule + "\n";
  for (const ComparisonRow& r : rows) {
    const Spread jobs =
        Over(r.seeds, [](const WorkloadMetrics& m) { return static_cast<double>(m.jobs); });
    out += "| " + MarkdownText(r.policy) + " | " + std::to_string(r.seeds.size()) + " | " +
           Fixed(jobs.mean, jobs.min == jobs.max ? 0 : 1) + " |";
    for (const MetricDef& d : Metrics()) {
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
  return out;
}

std::string ComparisonCsv(const std::vector<ComparisonRow>& rows) {
  std::string out = "policy,seeds";
  for (const MetricDef& d : Metrics()) {
    for (const char* stat : {"_mean", "_min", "_max"}) out += std::string(",") + d.key + stat;
  }
  out += "\n";
  for (const ComparisonRow& r : rows) {
    out += CsvField(r.policy) + ',' + std::to_string(r.seeds.size());
    for (const MetricDef& d : Metrics()) {
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
  if (ec) return Status::IoError("cannot create report directory " + dir.string() + ": " +
                                 ec.message());
  MRLOCAL_RETURN_IF_ERROR(
      WriteFileAtomically((dir / "comparison.md").string(), ComparisonMarkdown(rows)));
  MRLOCAL_RETURN_IF_ERROR(
      WriteFileAtomically((dir / "comparison.csv").string(), ComparisonCsv(rows)));
  for (const MetricDef& d : Metrics()) {
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
