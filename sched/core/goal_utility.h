// The utility of a job with a soft completion-time goal, by its response time: what the
// reports (jobs.csv's utility, compare's mean utility) and the goal-driven policies
// measure outcomes by. The seed paper (Reverse-Adaptive, Polo et al.) names utility
// functions of completion time but gives none; this one is ours (README, "Goals"):
//
//   u = 1 - c/g   when c <= g: in [0, 1], 1 for an instant job, 0 exactly at the goal;
//   u = g/c - 1   when c >  g: in (-1, 0), -1/2 at twice the goal, -1 never reached.
//
// Why this shape: it is the Adaptive Scheduler's allocation utility (s - s_req) / s_req
// seen through completion time. Under linear speed-up a job given s slots where it needs
// s_req to finish by its goal finishes at c = g s_req / s, so (s - s_req) / s_req =
// g/c - 1 past the goal. Before it the utility falls linearly to 0 at the goal, so that
// finishing early is worth something but less than finishing late costs. A job that
// failed or was rejected scores -1, below any late completion (kFailedGoalUtility).
#pragma once

#include "sched/core/clock.h"

namespace mrlocal {

// What a job with a goal scores when it never completes (failed, rejected, unfinished).
inline constexpr double kFailedGoalUtility = -1.0;

// `response` = completion - arrival (>= 0), `goal` relative to arrival (> 0).
inline double GoalUtility(Duration response, Duration goal) {
  const double c = Seconds(response), g = Seconds(goal);
  return c <= g ? 1.0 - c / g : g / c - 1.0;
}

}  // namespace mrlocal
