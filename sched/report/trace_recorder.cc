#include "sched/report/trace_recorder.h"

#include <sstream>

#include "engine/atomic_file.h"
#include "sched/report/json_writer.h"

namespace mrlocal {
namespace {

double Us(Time t) { return static_cast<double>(t.count()) / 1000.0; }

std::string TaskName(const TaskRef& t) {
  return std::string(ToString(t.kind)) + " " + std::to_string(t.index) + " (job " +
         std::to_string(t.job) + ")";
}

}  // namespace

void TraceRecorder::OnAdmission(const JobState& job, const Admission& a, Time now) {
  instants_.push_back(
      {a.admitted ? "admit job " + std::to_string(job.id) : "reject job " + std::to_string(job.id),
       now, a.reason});
}

void TraceRecorder::OnDecision(SlotId slot, const std::optional<TaskRef>& pick, Time now,
                               Duration cost) {
  if (!pick) return;  // idle slots asking for work would flood the trace
  instants_.push_back({"assign " + TaskName(*pick) + " to slot " + std::to_string(slot), now,
                       "decision took " + std::to_string(Us(Time(cost))) + " us"});
}

void TraceRecorder::OnTaskReport(const TaskReport& r) {
  slices_.push_back({r.task, r.slot, r.start, r.end, r.status.ok(), r.input_bytes, r.output_bytes,
                     r.status.message()});
}

void TraceRecorder::OnPlan(const JobState& job, const PartitionPlan& plan, Time now) {
  instants_.push_back({"partition plan job " + std::to_string(job.id), now,
                       "row " + std::to_string(plan.row) + ", skewness " +
                           std::to_string(plan.skewness) + ", balance " +
                           std::to_string(plan.balance)});
}

void TraceRecorder::OnJobFinished(const JobState& job, const JobOutcome&, Time now) {
  instants_.push_back(
      {"job " + std::to_string(job.id) + " " + std::string(ToString(job.phase)), now, job.failure});
}

Status TraceRecorder::Write(const std::filesystem::path& file) const {
  std::ostringstream out;
  {
    JsonWriter w(out);
    w.BeginObject();
    w.Key("displayTimeUnit").String("ms");
    w.Key("traceEvents").BeginArray();
    auto meta = [&](int tid, const std::string& name, int sort) {
      w.BeginObject().Key("ph").String("M").Key("pid").Int(1).Key("tid").Int(tid);
      w.Key("name")
          .String("thread_name")
          .Key("args")
          .BeginObject()
          .Key("name")
          .String(name)
          .EndObject();
      w.EndObject();
      w.BeginObject().Key("ph").String("M").Key("pid").Int(1).Key("tid").Int(tid);
      w.Key("name")
          .String("thread_sort_index")
          .Key("args")
          .BeginObject()
          .Key("sort_index")
          .Int(sort)
          .EndObject();
      w.EndObject();
    };
    w.BeginObject().Key("ph").String("M").Key("pid").Int(1).Key("name").String("process_name");
    w.Key("args").BeginObject().Key("name").String("mrlocal").EndObject().EndObject();
    meta(0, "controller", 0);
    for (const SlotInfo& s : slots_) {
      char speed[16];
      std::snprintf(speed, sizeof speed, "%.2f", s.speed);
      meta(s.id + 1,
           std::string(ToString(s.kind)) + " slot " + std::to_string(s.id) + " (node " +
               std::to_string(s.node) + ", s=" + speed + ")",
           s.id + 1);
    }
    for (const Slice& s : slices_) {
      w.BeginObject();
      w.Key("name").String(TaskName(s.task));
      w.Key("cat").String(ToString(s.task.kind));
      w.Key("ph").String("X").Key("pid").Int(1).Key("tid").Int(s.slot + 1);
      w.Key("ts").Double(Us(s.start)).Key("dur").Double(Us(s.end - s.start));
      w.Key("args").BeginObject();
      w.Key("job").Int(s.task.job).Key("ok").Bool(s.ok);
      w.Key("input_bytes").Uint(s.input_bytes);
      w.Key("output").Uint(s.output_bytes);
      if (!s.failure.empty()) w.Key("error").String(s.failure);
      w.EndObject();
      w.EndObject();
    }
    for (const Instant& i : instants_) {
      w.BeginObject();
      w.Key("name").String(i.name).Key("cat").String("scheduler");
      w.Key("ph").String("i").Key("s").String("t").Key("pid").Int(1).Key("tid").Int(0);
      w.Key("ts").Double(Us(i.at));
      w.Key("args").BeginObject().Key("detail").String(i.detail).EndObject();
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
    out << "\n";
  }
  return WriteFileAtomically(file.string(), out.str());
}

}  // namespace mrlocal
