#include "sched/report/trace_json.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "sched/report/chunked_file.h"
#include "sched/report/fixed.h"

namespace mrlocal {
namespace {

using Json = nlohmann::ordered_json;

double Us(Time t) { return static_cast<double>(t.count()) / 1000.0; }

// "wordcount (job 3)", or "job 3" for a job without a name or one never recorded.
std::string JobLabel(const RunRecorder& recorder, JobId id) {
  const JobRecord* j = recorder.job(id);
  const std::string tag = "job " + std::to_string(id);
  return j && !j->name.empty() ? j->name + " (" + tag + ")" : tag;
}

std::string TaskLabel(const RunRecorder& recorder, const TaskRef& t) {
  return JobLabel(recorder, t.job) + " " + std::string(ToString(t.kind)) + " " +
         std::to_string(t.index);
}

std::string SlotLabel(const SlotInfo& s) {
  return "node " + std::to_string(s.node) + " " + std::string(ToString(s.kind)) + " slot " +
         std::to_string(s.id) + " (s=" + Fixed(s.speed, 2) + ")";
}

int Track(SlotId slot) { return slot + 1; }  // track 0 is the controller's

// Streams the events as one JSON document, one event per line; each event is an
// nlohmann value (a trace of millions of events is never one value in memory).
class TraceFile {
 public:
  explicit TraceFile(ChunkedFile file) : file_(std::move(file)) {}
  Status Begin() { return file_.Append("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n"); }
  Status Add(const Json& event) {
    MRLOCAL_RETURN_IF_ERROR(file_.Append(first_ ? "" : ",\n"));
    first_ = false;
    // Invalid UTF-8 (a job name from a trace file) becomes U+FFFD rather than an error.
    return file_.Append(event.dump(-1, ' ', false, Json::error_handler_t::replace));
  }
  Status Commit() {
    MRLOCAL_RETURN_IF_ERROR(file_.Append("\n]}\n"));
    return file_.Commit();
  }

 private:
  ChunkedFile file_;
  bool first_ = true;
};

Json Instant(const std::string& name, Time at, const std::string& detail) {
  return Json{{"name", name}, {"cat", "scheduler"}, {"ph", "i"},    {"s", "t"},
              {"pid", 1},     {"tid", 0},           {"ts", Us(at)}, {"args", {{"detail", detail}}}};
}

std::vector<Json> TrackNames(const std::string& process, const std::vector<SlotInfo>& slots) {
  std::vector<Json> events = {
      Json{{"ph", "M"}, {"pid", 1}, {"name", "process_name"}, {"args", {{"name", process}}}}};
  auto track = [&](int tid, const std::string& name) {
    events.push_back(Json{{"ph", "M"},
                          {"pid", 1},
                          {"tid", tid},
                          {"name", "thread_name"},
                          {"args", {{"name", name}}}});
    events.push_back(Json{{"ph", "M"},
                          {"pid", 1},
                          {"tid", tid},
                          {"name", "thread_sort_index"},
                          {"args", {{"sort_index", tid}}}});
  };
  track(0, "controller");
  for (const SlotInfo& s : slots) track(Track(s.id), SlotLabel(s));
  return events;
}

// Admission, deadline, plan and end of each job.
std::vector<Json> JobEvents(const RunRecorder& recorder, const JobRecord& j) {
  const std::string label = JobLabel(recorder, j.id);
  std::vector<Json> events;
  events.push_back(
      Instant((j.best_effort ? "best-effort " : j.admitted ? "admit " : "reject ") + label,
              j.arrival, j.admission_reason));
  if (j.deadline) events.push_back(Instant("deadline " + label, *j.deadline, ""));
  if (j.plan) {
    events.push_back(Instant("partition plan " + label, j.plan->at,
                             "row " + std::to_string(j.plan->row) + ", skewness " +
                                 Fixed(j.plan->skewness, 2) + ", balance " +
                                 Fixed(j.plan->balance, 2)));
  }
  if (j.admitted && j.finished) {
    const char* end = j.completed() ? "succeeded " : "failed ";
    events.push_back(Instant(end + label, j.finish, j.failure));
  }
  return events;
}

Json DecisionEvent(const RunRecorder& recorder, const DecisionRecord& d, bool cost) {
  return Instant("assign " + TaskLabel(recorder, d.task) + " to slot " + std::to_string(d.slot),
                 d.at, cost ? "decision took " + Fixed(Us(Time(d.cost)), 3) + " us" : "");
}

Json AttemptEvent(const RunRecorder& recorder, const AttemptRecord& a, const std::string* error) {
  Json args{{"job", a.job},
            {"attempt", a.attempt},
            {"ok", a.ok()},
            {"preempted", a.preempted()},
            {"input_bytes", a.input_bytes},
            {"output_bytes", a.output_bytes}};
  if (error) args["error"] = *error;
  return Json{{"name", TaskLabel(recorder, TaskRef{a.job, a.kind, a.index})},
              {"cat", std::string(ToString(a.kind))},
              {"ph", "X"},
              {"pid", 1},
              {"tid", Track(a.slot)},
              {"ts", Us(a.start)},
              {"dur", Us(a.end - a.start)},
              {"args", std::move(args)}};
}

}  // namespace

Status WriteTrace(const std::filesystem::path& file, const RunRecorder& recorder,
                  const std::vector<SlotInfo>& slots, const TraceOptions& options) {
  auto opened = ChunkedFile::Open(file.string());
  if (!opened.ok()) return opened.status();
  TraceFile trace(std::move(opened).value());
  MRLOCAL_RETURN_IF_ERROR(trace.Begin());
  for (const Json& e : TrackNames(options.process, slots)) MRLOCAL_RETURN_IF_ERROR(trace.Add(e));
  for (const JobRecord& j : recorder.jobs())
    for (const Json& e : JobEvents(recorder, j)) MRLOCAL_RETURN_IF_ERROR(trace.Add(e));

  const std::vector<DecisionRecord>& decisions = recorder.decisions();
  const size_t shown_decisions = std::min(decisions.size(), options.max_events);
  for (size_t i = 0; i < shown_decisions; ++i)
    MRLOCAL_RETURN_IF_ERROR(
        trace.Add(DecisionEvent(recorder, decisions[i], options.decision_costs)));

  const std::vector<AttemptRecord>& attempts = recorder.attempts();
  const std::vector<AttemptFailure>& failures = recorder.attempt_failures();
  const size_t shown = std::min(attempts.size(), options.max_events);
  auto failure = failures.begin();  // in attempt order
  for (size_t i = 0; i < shown; ++i) {
    const std::string* error = nullptr;
    if (failure != failures.end() && failure->attempt == i) error = &(failure++)->message;
    MRLOCAL_RETURN_IF_ERROR(trace.Add(AttemptEvent(recorder, attempts[i], error)));
  }
  if (shown < attempts.size()) {
    MRLOCAL_RETURN_IF_ERROR(
        trace.Add(Instant("trace truncated", Time{0},
                          std::to_string(attempts.size() - shown) +
                              " later attempts left out (tasks.csv has them)")));
  }
  return trace.Commit();
}

}  // namespace mrlocal
