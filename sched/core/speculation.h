// Speculative execution of stragglers, by LATE's rule (Zaharia et al., "Improving
// MapReduce Performance in Heterogeneous Environments", OSDI'08, section 4): when a slot is
// free and no task is pending, copy the running task that is estimated to finish last,
// if
//   - its progress rate (progress / time running) is among the slowest (SlowTaskThreshold:
//     at or below the slow_task quantile of the rates of the job's running tasks of its
//     kind),
//   - the free slot is not a slow one (SlowNodeThreshold: its pace, how fast its attempts
//     went relative to their job's, is not below the slow_slot quantile of the slots'),
//   - a copy on that slot would finish before the task's estimated time left (Hadoop 2's
//     refinement of LATE: a copy that cannot win only wastes a slot), and
//   - fewer than cap x slots run copies already (SpeculativeCap).
// The first attempt to finish wins; the Controller cancels the other and discards its work.
// Pure decision logic: the Controller gathers the view and launches what this picks.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "sched/core/clock.h"
#include "sched/core/job.h"

namespace mrlocal {

struct SpeculationOptions {
  bool enabled = false;
  double cap = 0.1;         // SpeculativeCap: at most this fraction of slots run copies
  double slow_task = 0.25;  // SlowTaskThreshold, a quantile of progress rates
  double slow_slot = 0.25;  // SlowNodeThreshold, a quantile of slot paces
  // A task is not judged before it has run this long (LATE waits a minute for Hadoop's
  // minutes-long tasks; ours take seconds), and the Controller looks again this often.
  Duration min_running = std::chrono::milliseconds(500);
  Duration check_every = std::chrono::milliseconds(100);
};

// One running attempt, as the Controller sees it.
struct RunningAttempt {
  TaskRef task;
  Time start{0};
  NodeId node = -1;       // where it runs: a copy goes to another node
  double progress = 0;    // in [0, 1]
  bool has_copy = false;  // a copy of it runs already: not a candidate
};

// What a copy of a task would take: the mean duration of its job's finished tasks of its
// kind, at speed 1 (duration x slot speed); none when none has finished.
struct KindPace {
  double mean_work_s = 0;
  uint32_t finished = 0;
};

// Per slot: how fast its attempts went relative to their job's, a moving average of
// (the job's mean work / this attempt's work at its speed); 1 when unknown.
class SlotPaces {
 public:
  explicit SlotPaces(size_t slots = 0) : pace_(slots, 1.0) {}
  void Observe(SlotId slot, double pace);
  double pace(SlotId slot) const { return pace_[slot]; }
  // The pace below which a slot is slow: the `quantile` of all slots' paces.
  double SlowBelow(double quantile) const;

 private:
  std::vector<double> pace_;
};

// The attempt to copy onto a free slot (of speed `slot_speed`, on `node`), among
// `running` (the attempts of one kind), or none. `pace_of(task)` gives its KindPace.
template <class PaceOf>
std::optional<TaskRef> PickSpeculation(const std::vector<RunningAttempt>& running, NodeId node,
                                       double slot_speed, Time now,
                                       const SpeculationOptions& options, PaceOf pace_of);

// The q-quantile of `values` (nearest rank); reorders them. REQUIRES: not empty.
double Quantile(std::vector<double>& values, double q);

template <class PaceOf>
std::optional<TaskRef> PickSpeculation(const std::vector<RunningAttempt>& running, NodeId node,
                                       double slot_speed, Time now,
                                       const SpeculationOptions& options, PaceOf pace_of) {
  // Progress rates of every attempt that has run long enough to be judged.
  std::vector<double> rates;
  for (const RunningAttempt& a : running)
    if (now - a.start >= options.min_running) rates.push_back(a.progress / Seconds(now - a.start));
  if (rates.empty()) return std::nullopt;
  const double slow_rate = Quantile(rates, options.slow_task);
  std::optional<TaskRef> pick;
  double latest = 0;
  for (const RunningAttempt& a : running) {
    const double ran = Seconds(now - a.start);
    if (a.has_copy || a.node == node || now - a.start < options.min_running) continue;
    const double rate = a.progress / ran;
    if (rate > slow_rate) continue;
    const double left = rate > 0 ? (1 - a.progress) / rate : 1e300;
    const KindPace pace = pace_of(a.task);
    if (pace.finished == 0 || pace.mean_work_s / slot_speed >= left) continue;
    if (left > latest) {
      latest = left;
      pick = a.task;
    }
  }
  return pick;
}

}  // namespace mrlocal
