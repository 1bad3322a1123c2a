#include "sched/report/run_recorder.h"

#include <algorithm>
#include <limits>

namespace mrlocal {

const JobRecord* RunRecorder::job(JobId id) const {
  auto it = index_.find(id);
  return it == index_.end() ? nullptr : &jobs_[it->second];
}

JobRecord* RunRecorder::mutable_job(JobId id) {
  auto it = index_.find(id);
  return it == index_.end() ? nullptr : &jobs_[it->second];
}

void RunRecorder::OnAdmission(const JobState& job, const Admission& a, Time now) {
  JobRecord r;
  r.id = job.id;
  r.name = job.spec.name;
  r.app = job.spec.app;
  r.queue = job.spec.queue;
  r.weight = job.spec.weight;
  r.arrival = job.arrival;
  r.deadline = job.absolute_deadline();
  r.admitted = a.admitted;
  r.admission_reason = a.reason;
  r.maps = job.M();
  r.reduces = job.R();
  r.phase = job.phase;
  if (!a.admitted) {
    // The Controller marks the job rejected after this hook and never reports it again.
    r.phase = JobPhase::kRejected;
    r.finished = true;
    r.finish = now;
  } else {
    counts_[job.id] = {std::vector<uint16_t>(job.M()), std::vector<uint16_t>(job.R())};
  }
  index_[r.id] = jobs_.size();
  jobs_.push_back(std::move(r));
}

uint16_t RunRecorder::NextAttempt(const TaskRef& t) {
  TaskCounts& c = counts_[t.job];
  std::vector<uint16_t>& v = t.kind == TaskKind::kMap ? c.maps : c.reduces;
  if (t.index >= v.size()) v.resize(t.index + 1);  // a job admitted before we observed
  uint16_t& n = v[t.index];
  if (n < std::numeric_limits<uint16_t>::max()) ++n;
  return n;
}

void RunRecorder::OnTaskReport(const TaskReport& r) {
  const bool ok = r.status.ok();
  const bool preempted = r.status.code() == Status::Code::kAborted;
  ++attempts_seen_;
  if (preempted) ++preempted_seen_;
  if (!ok && !preempted) ++failed_seen_;
  const uint16_t attempt = NextAttempt(r.task);
  if (JobRecord* j = mutable_job(r.task.job)) {
    j->slot_time += r.end - r.start;
    j->first_start = j->first_start ? std::min(*j->first_start, r.start) : r.start;
    ++j->attempts;
    if (preempted) ++j->preempted;
    if (!ok && !preempted) ++j->failed_attempts;
  }
  if (!options_.keep_attempts) return;
  AttemptRecord a;
  a.start = r.start;
  a.end = r.end;
  a.input_bytes = r.input_bytes;
  a.output_bytes = r.output_bytes;
  a.job = r.task.job;
  a.index = r.task.index;
  a.slot = r.slot;
  a.kind = r.task.kind;
  a.flags = static_cast<uint8_t>((ok ? AttemptRecord::kOk : 0) |
                                 (preempted ? AttemptRecord::kPreempted : 0));
  a.attempt = attempt;
  attempts_.push_back(a);
}

void RunRecorder::OnJobFinished(const JobState& job, const JobOutcome&, Time) {
  counts_.erase(job.id);
  JobRecord* j = mutable_job(job.id);
  if (!j) return;
  j->phase = job.phase;  // may have turned kFailed when the output commit failed
  j->finished = true;
  j->finish = job.finish;
  j->failure = job.failure;
}

}  // namespace mrlocal
