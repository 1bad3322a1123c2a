// The Executor of the tests: no threads, no data, no app code. Each attempt runs for a
// duration the test scripts (at speed 1.0, divided by its slot's speed) and ends OK unless
// the test made its task fail; everything the Controller tells it is recorded.
//
// Two ways to pass time:
//   loop clock  (default; on a SimLoop) the attempt ends that much later on the loop's
//               clock: deterministic, as the SimExecutor is;
//   replay      (on a real-time loop, AsioLoop) durations are virtual: the running
//               attempts end one at a time in the order of their virtual ends, each once
//               the Controller has handled the report before it, so that the order does
//               not depend on how fast this machine is. Reports start on the loop's
//               clock and last the virtual duration: what an attempt took is what a
//               policy learns from (llf's overload detector), and the machine's load must
//               not make one look slower than another.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "sched/core/event_loop.h"
#include "sched/core/executor.h"

namespace mrlocal::testing {

struct FakeExecutorOptions {
  bool replay = false;
  // Say reports come on the loop thread from events of their own, as the SimExecutor's do
  // (the Controller then takes them without a Post); else the Controller posts them, as
  // from the engine's slot threads.
  bool reports_on_loop_thread = false;
  // Maps report a count-min sketch over these partition functions (the job's own), with
  // `map_output_units` under a key of their own, so that a partitioner has sizes to plan
  // with. Empty: no sketch (partitioners plan an all-empty sketch fine).
  std::vector<PartitionHash> sketch_hashes;
  uint64_t map_output_units = 100;
};

class FakeExecutor final : public Executor {
 public:
  // How long a task takes on a slot of speed 1.0.
  using DurationFn = std::function<Duration(const TaskRef&)>;

  // An attempt: where it ran, from when to when (virtual time in replay), how it ended.
  struct Run {
    SlotId slot = -1;
    Time start{0};
    Time end{0};
    bool cancelled = false;
    friend bool operator==(const Run&, const Run&) = default;
  };
  using Key = std::tuple<JobId, TaskKind, uint32_t>;

  FakeExecutor(EventLoop& loop, std::vector<SlotInfo> slots, DurationFn duration,
               FakeExecutorOptions options = {})
      : loop_(loop),
        slots_(std::move(slots)),
        duration_(std::move(duration)),
        options_(std::move(options)) {}

  // Every attempt of `task` fails with `why` (e.g. Corruption: a lost block); with
  // `attempts`, only its first that many.
  void FailTask(const TaskRef& task, Status why, uint32_t attempts = UINT32_MAX) {
    failures_[Key{task.job, task.kind, task.index}] = {std::move(why), attempts};
  }
  // Every attempt on `slot` fails with `why` (a broken disk, a node that lost its network).
  void FailSlot(SlotId slot, Status why) { slot_failures_[slot] = std::move(why); }

  void SetReportFn(ReportFn fn) override { report_ = std::move(fn); }

  void Launch(const TaskLaunch& l) override {
    launches.push_back(l);
    const Time start = options_.replay ? virtual_now_ : loop_.Now();
    const Time end = start + FromSeconds(Seconds(duration_(l.task)) / slots_.at(l.slot).speed);
    runs[KeyOf(l.task)] = {l.slot, start, end};
    running_[l.token] = {l, loop_.Now()};
    if (options_.replay) {
      replay_order_.insert({end, l.token});
      ScheduleReplay();
    } else {
      loop_.At(end, [this, token = l.token] {
        if (running_.count(token)) Finish(token);
      });
    }
  }

  // The attempt stops now and reports Aborted; its scheduled end is then ignored.
  void Cancel(SlotId, uint64_t token) override {
    auto it = running_.find(token);
    if (it == running_.end()) return;
    Run& run = runs[KeyOf(it->second.launch.task)];
    if (options_.replay) replay_order_.erase({run.end, token});
    run.end = options_.replay ? virtual_now_ : loop_.Now();
    run.cancelled = true;
    Running attempt = Take(token);          // its scheduled end now finds nothing
    if (options_.reports_on_loop_thread) {  // never from inside Cancel
      loop_.Post([this, attempt] { Report(attempt, Status::Aborted("cancelled")); });
    } else {
      Report(attempt, Status::Aborted("cancelled"));
    }
  }

  void SetPlan(JobId job, const ReducePlan& plan) override { plans[job] = plan; }
  Status FinishJob(JobId job, bool success) override {
    finished[job] = success;
    return Status::OK();
  }
  double Progress(SlotId) const override { return 0; }
  bool reports_on_loop_thread() const override { return options_.reports_on_loop_thread; }

  std::vector<TaskLaunch> launches;  // every launch, in order
  std::map<Key, Run> runs;           // the last attempt of each task
  std::map<JobId, ReducePlan> plans;
  std::map<JobId, bool> finished;  // FinishJob's `success`

 private:
  struct Running {
    TaskLaunch launch;
    Time start;  // loop clock
  };

  static Key KeyOf(const TaskRef& t) { return Key{t.job, t.kind, t.index}; }
  Status Outcome(const TaskLaunch& l) {
    if (auto s = slot_failures_.find(l.slot); s != slot_failures_.end()) return s->second;
    auto it = failures_.find(KeyOf(l.task));
    if (it == failures_.end() || it->second.second == 0) return Status::OK();
    --it->second.second;
    return it->second.first;
  }

  Running Take(uint64_t token) {
    Running attempt = running_.at(token);
    running_.erase(token);
    return attempt;
  }
  void Finish(uint64_t token) {
    Running attempt = Take(token);
    Report(attempt, Outcome(attempt.launch));
  }
  void Report(const Running& attempt, Status status) {
    const TaskLaunch& l = attempt.launch;
    TaskReport r;
    r.task = l.task;
    r.token = l.token;
    r.slot = l.slot;
    r.status = std::move(status);
    r.start = attempt.start;
    if (options_.replay) {
      const Run& run = runs.at(KeyOf(l.task));
      r.end = r.start + (run.end - run.start);
    } else {
      r.end = loop_.Now();
    }
    if (r.status.ok() && l.task.kind == TaskKind::kMap && !options_.sketch_hashes.empty()) {
      CountMinSketch sketch(options_.sketch_hashes);
      sketch.Add(l.task.index * 7919ull + 1, options_.map_output_units);
      r.sketch = std::move(sketch);
      r.output_bytes = options_.map_output_units;
    }
    report_(std::move(r));
  }

  // Replay: ends the attempt with the earliest virtual end, in an event of its own posted
  // after the report before it, and so on while attempts run.
  void ScheduleReplay() {
    if (replay_scheduled_) return;
    replay_scheduled_ = true;
    loop_.Post([this] {
      replay_scheduled_ = false;
      if (replay_order_.empty()) return;
      const auto [end, token] = *replay_order_.begin();
      replay_order_.erase(replay_order_.begin());
      virtual_now_ = end;
      Finish(token);
      ScheduleReplay();
    });
  }

  EventLoop& loop_;
  std::vector<SlotInfo> slots_;
  DurationFn duration_;
  FakeExecutorOptions options_;
  ReportFn report_;
  std::map<uint64_t, Running> running_;                  // by token
  std::map<Key, std::pair<Status, uint32_t>> failures_;  // why, and how many more attempts
  std::map<SlotId, Status> slot_failures_;
  // Replay: running attempts by virtual end, then in launch order (as events at the same
  // time run on a SimLoop); and the virtual clock.
  std::set<std::pair<Time, uint64_t>> replay_order_;
  Time virtual_now_{0};
  bool replay_scheduled_ = false;
};

}  // namespace mrlocal::testing
