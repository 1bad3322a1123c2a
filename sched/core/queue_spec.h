// The queues of dynamic proportional share (Sandholm and Lai, "Dynamic Proportional Share
// Scheduling in Hadoop", section 3.1) as a user declares them: each queue's budget and the
// rate it bids per slot, and the changes to them announced ahead (a workload's timed
// events). Plain data: workload specs and queues files are read into it; the policies
// dynprio and capacity (sched/policy/queue_share_policy.h) run on it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sched/core/clock.h"

namespace mrlocal {

// Money is counted in micro-credits, so that what a queue paid, interval by interval, adds
// up to its statement exactly (no rounding drift over a day of intervals).
using MicroCredits = int64_t;
inline constexpr double kMicroPerCredit = 1e6;
// The largest budget, rate or addition a user may state: 10^12 credits (10^18 micro-credits,
// within int64 with room to add budgets up).
inline constexpr double kMaxCredits = 1e12;

inline MicroCredits ToMicroCredits(double credits) {
  return static_cast<MicroCredits>(credits * kMicroPerCredit + (credits < 0 ? -0.5 : 0.5));
}
inline double ToCredits(MicroCredits micro) { return static_cast<double>(micro) / kMicroPerCredit; }

struct QueueSpec {
  std::string name;
  // Credits the queue can spend; none: unlimited (it never runs out).
  std::optional<double> budget;
  // Credits it pays per slot it uses for one allocation interval: its bid, >= 0. A queue
  // bidding 0 or out of budget has no paid share and runs only on capacity nobody paying
  // wants (the paper's budget-0 queues: FIFO among themselves).
  double rate = 1.0;
};

// A change announced ahead, applied at `at` (from the run's start).
struct QueueEvent {
  enum class Kind : uint8_t {
    kSetRate,      // queue.name bids `value` from now
    kAddBudget,    // queue.name's budget grows by `value` (>= 0)
    kAddQueue,     // `queue` is opened (its name not open already)
    kRemoveQueue,  // queue.name is closed: no paid share any more; its jobs go on unpaid
  };
  Time at{0};
  Kind kind = Kind::kSetRate;
  QueueSpec queue;  // kAddQueue: the whole queue; the others: its name only
  double value = 0;
};

// What a run's queues start as, and their announced changes (sorted by time, stable).
// Empty: every queue a job names opens at its first job, bidding 1 with no budget limit.
struct QueueSetup {
  std::vector<QueueSpec> queues;
  std::vector<QueueEvent> events;
  bool empty() const { return queues.empty() && events.empty(); }
};

}  // namespace mrlocal
