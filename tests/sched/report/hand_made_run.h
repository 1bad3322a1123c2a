// A run fed to a RunRecorder by hand, through the observer hooks the Controller calls, for
// report tests whose figures are worked out by hand: jobs as the Controller makes them at
// their arrival (ArrivingJob), attempts and ends at whole seconds.
#pragma once

#include <cstdint>
#include <map>
#include <utility>

#include "sched/report/run_recorder.h"
#include "tests/util/arriving_job.h"
#include "tests/util/job_builder.h"

namespace mrlocal::testing {

class HandMadeRun {
 public:
  explicit HandMadeRun(RunRecorderOptions options = {}) : rec(options) {}

  // `spec` arrives as job `id` at `arrival_s` and is admitted or rejected as `admission`
  // says. The job's state stays in `jobs` (a test may change it before Finish).
  JobState& Arrive(JobId id, int arrival_s, const JobSpec& spec,
                   const Admission& admission = Admission::Yes("")) {
    JobState& job = jobs[id] = ArrivingJob(spec, id, std::chrono::seconds(arrival_s));
    rec.OnAdmission(job, admission, job.arrival);
    return job;
  }

  // An attempt of `task` on `slot` from `start_s` to `end_s` that ended with `status`.
  void Attempt(TaskRef task, SlotId slot, int start_s, int end_s, Status status = Status::OK()) {
    TaskReport r;
    r.task = task;
    r.slot = slot;
    r.start = std::chrono::seconds(start_s);
    r.end = std::chrono::seconds(end_s);
    r.status = std::move(status);
    r.input_bytes = input_bytes;
    r.output_bytes = output_bytes;
    rec.OnTaskReport(r);
  }

  // Job `id` ends at `at_s` in `phase` (kDone or kFailed).
  void Finish(JobId id, JobPhase phase, int at_s, const JobOutcome& outcome = {}) {
    JobState& job = jobs.at(id);
    job.phase = phase;
    job.finish = std::chrono::seconds(at_s);
    rec.OnJobFinished(job, outcome, job.finish);
  }

  // What every attempt reads and writes.
  uint64_t input_bytes = 0;
  uint64_t output_bytes = 0;

  RunRecorder rec;
  std::map<JobId, JobState> jobs;
};

}  // namespace mrlocal::testing
