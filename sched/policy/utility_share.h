// The Adaptive Scheduler's allocation utility (Polo et al.; the seed paper, "Intuition":
// jobs "allocated following a fairness criteria that will try to make all jobs obtain the
// same utility") and the share of the slots that gives every job the same utility.
//
// A job that needs s_fit slots now to keep its goal (WalkBack; s_req for plain Adaptive)
// and can use at most s_pend (tasks not done), given s slots:
//   u(s) = (s - s_fit) / s_fit               when s < s_fit: in [-1, 0), -1 with no slot
//   u(s) = (s - s_fit) / (s_pend - s_fit)    when s >= s_fit: in [0, 1], 1 with every task
//                                            running (1 when s_pend <= s_fit; 0 at s = 0
//                                            when s_fit = 0)
// Why: below s_fit the shortfall as a fraction of the need (the goal's miss grows with
// it, GoalUtility's shape); above it, the fraction of the spare tasks running. A job
// without a goal (s_fit = 0) is never below its need, so it gets slots only once every
// job with a goal has its s_fit, as in Adaptive.
#pragma once

#include <span>
#include <vector>

namespace mrlocal {

// REQUIRES: s_fit >= 0, s_pend >= 0.
struct SlotDemand {
  int s_fit = 0;
  int s_pend = 0;
};

double AllocationUtility(int slots, SlotDemand demand);

// Slots per job, in the order of `demands`: the largest utility level u that the slots
// can give every job (each job the slots its u(s) = u asks, at most s_pend), then whole
// slots by largest remainder (ties to the earlier job). Sums to min(slots, sum of s_pend);
// no job above its s_pend. Over-subscribed (the slots do not reach every s_fit), each job
// gets slots in proportion to its s_fit (up to its s_pend): every utility the same and
// negative, up to rounding.
std::vector<int> EqualUtilityShare(std::span<const SlotDemand> demands, int slots);

}  // namespace mrlocal
