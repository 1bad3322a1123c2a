// What each queue of a proportional-share run paid and what it got, allocation interval
// by allocation interval: the statement an operator hands a paying user. Kept by the
// policies dynprio and capacity (sched/policy/queue_share_policy.h) and read by the
// reports (Policy::Ledger). Money in micro-credits, so that the lines of an account add
// up to its totals exactly: opening + added - spent = balance.
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "sched/core/clock.h"
#include "sched/core/queue_spec.h"

namespace mrlocal {

// Micro-credits as credits, from the integer (no rounding on the way): "12.5", "1000";
// with all_decimals, always 6 decimals ("12.500000"), for columns.
inline std::string FormatCredits(MicroCredits micro, bool all_decimals = false) {
  const bool negative = micro < 0;
  const uint64_t m = negative ? 0 - static_cast<uint64_t>(micro) : static_cast<uint64_t>(micro);
  char text[32];
  std::snprintf(text, sizeof text, "%s%llu.%06llu", negative ? "-" : "",
                static_cast<unsigned long long>(m / 1'000'000),
                static_cast<unsigned long long>(m % 1'000'000));
  std::string out = text;
  if (!all_decimals) {
    out.erase(out.find_last_not_of('0') + 1);
    if (out.back() == '.') out.pop_back();
  }
  return out;
}

struct QueueAccount {
  std::string name;
  bool unlimited = false;    // no budget limit: it never runs out, never charged against one
  MicroCredits opening = 0;  // its budget when opened
  MicroCredits added = 0;    // by kAddBudget events
  MicroCredits spent = 0;    // the sum of its intervals' charges
  Time opened{0};
  std::optional<Time> closed;  // by a kRemoveQueue event
  double rate = 0;             // its bid now
  // Slot time, summed over its intervals: used by its attempts (preempted ones included),
  // paid for (used while its budget lasted), and entitled to (its share of the slots while
  // it had work).
  double used_slot_s = 0;
  double paid_slot_s = 0;
  double entitled_slot_s = 0;
  uint32_t jobs = 0;  // submitted to it
  MicroCredits balance() const { return opening + added - spent; }
};

// A job's part of its queue's line: the line's charge split by the slot time each job used
// (largest remainders, so that the parts add up to the line's charge exactly).
struct JobCharge {
  uint32_t job = 0;  // JobId
  double used_slot_s = 0;
  MicroCredits charge = 0;
};

// One queue's line of one interval.
struct QueueCharge {
  uint32_t account = 0;  // index in QueueLedger::accounts
  double rate = 0;       // its bid when the interval started: the price it pays
  // Its share of the slots (rounded: section 3.1's example) as the interval ended; the
  // shares it held over the interval are entitled_slot_s.
  int entitled_map_slots = 0;
  int entitled_reduce_slots = 0;
  double used_slot_s = 0;      // slot time its attempts used in the interval
  double paid_slot_s = 0;      // the part its budget paid for
  double entitled_slot_s = 0;  // its shares over the interval, as they changed
  MicroCredits charge = 0;
  MicroCredits balance = 0;     // after the charge (0 for an unlimited queue)
  std::vector<JobCharge> jobs;  // the jobs that used slots in the interval, by id
};

struct QueueInterval {
  Time start{0}, end{0};
  double price = 0;                // p: the sum of the bids of the queues with work and budget
  std::vector<QueueCharge> lines;  // one per queue open in the interval
};

struct QueueLedger {
  double interval_s = 0;  // the allocation interval
  std::vector<QueueAccount> accounts;
  std::vector<QueueInterval> intervals;
  // Attempts killed to give entitled queues their share (--preempt), and their slot time.
  uint64_t preempted_attempts = 0;
  double preempted_slot_s = 0;

  // `a`'s share of all queues' used (entitled) slot time; 0 when none was.
  double UsedShare(const QueueAccount& a) const {
    return Share(a.used_slot_s, &QueueAccount::used_slot_s);
  }
  double EntitledShare(const QueueAccount& a) const {
    return Share(a.entitled_slot_s, &QueueAccount::entitled_slot_s);
  }

 private:
  double Share(double mine, double QueueAccount::*field) const {
    double all = 0;
    for (const QueueAccount& a : accounts) all += a.*field;
    return all > 0 ? mine / all : 0;
  }
};

}  // namespace mrlocal
