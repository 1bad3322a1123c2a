// A test Executor on a SimLoop: each attempt runs for a scripted duration divided by its
// slot's speed, and every attempt's slot, start and end are recorded. No threads, no
// data, no sketches (the partitioners plan an all-empty sketch fine): deterministic.
#pragma once

#include <functional>
#include <map>
#include <tuple>
#include <vector>

#include "sched/core/executor.h"
#include "sched/sim/sim_loop.h"

namespace mrlocal::testing {

class FixedTimeExecutor final : public Executor {
 public:
  // How long a task takes on a slot of speed 1.0.
  using DurationFn = std::function<Duration(const TaskRef&)>;

  struct Run {
    SlotId slot = -1;
    Time start{0};
    Time end{0};
    bool cancelled = false;
    friend bool operator==(const Run&, const Run&) = default;
  };
  using Key = std::tuple<JobId, TaskKind, uint32_t>;

  FixedTimeExecutor(SimLoop& loop, std::vector<SlotInfo> slots, DurationFn duration)
      : loop_(loop), slots_(std::move(slots)), duration_(std::move(duration)) {}

  void SetReportFn(ReportFn fn) override { report_ = std::move(fn); }

  void Launch(const TaskLaunch& l) override {
    const Time start = loop_.Now();
    const Time end = start + FromSeconds(Seconds(duration_(l.task)) / slots_.at(l.slot).speed);
    runs[Key{l.task.job, l.task.kind, l.task.index}] = {l.slot, start, end};
    running_[l.token] = l;
    loop_.At(end, [this, token = l.token] {
      if (running_.count(token)) Report(token, Status::OK());
    });
  }

  // The attempt stops now and reports Aborted; its scheduled end is then ignored.
  void Cancel(SlotId, uint64_t token) override {
    auto it = running_.find(token);
    if (it == running_.end()) return;
    const TaskLaunch& l = it->second;
    Run& run = runs[Key{l.task.job, l.task.kind, l.task.index}];
    run.end = loop_.Now();
    run.cancelled = true;
    Report(token, Status::Aborted("cancelled"));
  }

  void SetPlan(JobId, const ReducePlan&) override {}
  Status FinishJob(JobId, bool) override { return Status::OK(); }
  double Progress(SlotId) const override { return 0; }

  // The last attempt of each task.
  std::map<Key, Run> runs;

 private:
  // The Controller's report function posts to the loop, so Cancel never re-enters it.
  void Report(uint64_t token, Status status) {
    const TaskLaunch l = running_.at(token);
    running_.erase(token);
    TaskReport r;
    r.task = l.task;
    r.token = l.token;
    r.slot = l.slot;
    r.status = std::move(status);
    r.start = runs.at(Key{l.task.job, l.task.kind, l.task.index}).start;
    r.end = loop_.Now();
    report_(std::move(r));
  }

  SimLoop& loop_;
  std::vector<SlotInfo> slots_;
  DurationFn duration_;
  ReportFn report_;
  std::map<uint64_t, TaskLaunch> running_;  // by token
};

}  // namespace mrlocal::testing
