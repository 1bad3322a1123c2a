// Where tasks run: the real engine (RealExecutor: slot threads running app code) or a model
// (SimExecutor, later). The Controller sees only this interface. Data flows down (launch,
// plan), events flow up (TaskReport, delivered through the report function).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/count_min_sketch.h"
#include "engine/job_runtime.h"
#include "engine/status.h"
#include "sched/core/job.h"

namespace mrlocal {

struct TaskLaunch {
  TaskRef task;
  uint64_t token = 0;  // unique per attempt
  SlotId slot = -1;
  Time ready_since{0};   // when both the slot and the task were ready: dispatch latency base
  uint32_t attempt = 1;  // 1 for the task's first launch
  // A copy of a running attempt (speculative execution, sched/core/speculation.h).
  bool speculative = false;
};

struct TaskReport {
  TaskRef task;
  uint64_t token = 0;
  SlotId slot = -1;
  Status status;  // OK; Aborted when cancelled; else why it failed
  Time start{0};  // first instruction of the attempt, loop clock
  Time end{0};
  Duration dispatch_latency{0};  // start - ready_since
  uint64_t input_bytes = 0;
  uint64_t output_bytes = 0;  // map: size units of its output; reduce: bytes written
  uint64_t output_records = 0;
  uint64_t skipped_records = 0;          // map: malformed records skipped
  std::vector<std::string> warnings;     // e.g. a replica that failed its checksum
  std::optional<CountMinSketch> sketch;  // map: its output's partition sizes
  Duration sketch_time{0};               // map: spent filling the sketch
  std::vector<TopEntry> top;             // reduce: its best keys
  uint64_t remote_input_bytes = 0;  // reduce: record bytes fetched from other ranks (sched/dist)
  // Set by the Controller before observers see it: the attempt was a speculative copy, and
  // another attempt of its task finished first (this one's work is discarded).
  bool speculative = false;
  bool superseded = false;
};

class Executor {
 public:
  using ReportFn = std::function<void(TaskReport&&)>;
  virtual ~Executor() = default;

  // Where reports go. Called from any thread (slot threads); the Controller's function
  // posts them to its loop. Set once, before the first Launch.
  virtual void SetReportFn(ReportFn fn) = 0;
  // Starts an attempt. REQUIRES: the slot is free.
  virtual void Launch(const TaskLaunch& launch) = 0;
  // Asks a running attempt to stop; its report comes back with status Aborted.
  virtual void Cancel(SlotId slot, uint64_t token) = 0;
  // The partitioner's plan for a job; given before its first reduce launches.
  virtual void SetPlan(JobId job, const ReducePlan& plan) = 0;
  // The job ended (no attempt of it runs any more): commit its output when `success`,
  // otherwise discard everything it wrote. Frees its map outputs either way.
  virtual Status FinishJob(JobId job, bool success) = 0;
  // The slot's speed changed (Controller::SetSlotSpeed): what runs there from now on runs
  // at `speed`. An executor that models speed itself (SimExecutor's availability
  // profiles) ignores it.
  virtual void SetSpeed(SlotId /*slot*/, double /*speed*/) {}
  // Progress in [0, 1] of what runs on `slot` now.
  virtual double Progress(SlotId slot) const = 0;
  // True when reports are delivered on the loop thread from an event of their own (never
  // from inside Launch or Cancel): the Controller then takes them without a Post. A
  // simulated executor does this; it saves one event per task.
  virtual bool reports_on_loop_thread() const { return false; }
};

}  // namespace mrlocal
