// Reverse-Adaptive's backward walk: each job's minimum parallelism now (s_fit), given soft
// completion-time goals and the capacity the forecast f(t) leaves to MapReduce. The seed
// paper (reverse-adaptive-shared-environments, "Intuition", Fig. 3) gives the idea and no
// formula; ours, and why:
//
//   Time is cut into periods that end at the distinct goals after `now`; the walk goes
//   from the last goal backwards. In a period, the jobs present are those whose goal is at
//   or after its end and that still have unplaced work. They share the period's capacity
//   (the integral of f over it, so work goes where f says it can be done, not where f is
//   at a period's end) max-min fairly: water-filling, the paper's "same utility" within a
//   period when nothing else tells them apart. A job takes at most max_parallel/slots of
//   the period's capacity, since it cannot use more slots than it has tasks. What does not
//   fit is carried to the previous period ("pushed back to the immediately preceding
//   period"). The work a job has left for the first period [now, g1) is what must run now
//   for every goal to hold; at the first period's mean rate per slot it needs
//       s_fit = ceil(work_now / (capacity(now, g1) / slots)),   at most max_parallel.
//   With a constant f this is the plain Adaptive scheduler's s_req for a lone job,
//   ceil(work / ((goal - now) x rate)).
//
// A job past its goal (goal <= now) is due now: s_fit = max_parallel, and it takes no part
// in the walk (its work would only shrink the first period, which changes no one's s_fit).
// A job without a goal has s_fit = 0 and takes no part either. The first period may not
// hold its work (work_now > placed[0]): the forecast says some goal will be missed, and the
// sum of s_fit exceeds the slots. That is an answer, not an error.
//
// Pure arithmetic: no clock, no state. O(periods x jobs log jobs).
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "sched/core/clock.h"
#include "sched/core/job.h"

namespace mrlocal {

struct GoalJob {
  JobId id = 0;
  std::optional<Time> goal;  // absolute; none = no goal
  double work = 0;           // remaining, in seconds at speed 1.0
  int max_parallel = 0;      // tasks not done: the most slots the job can use at once
};

// [start, end): the first period starts at `now`, each one ends at a goal.
struct WalkPeriod {
  Time start{0};
  Time end{0};
  double capacity = 0;  // capacity(start, end)
};

struct JobWalk {
  JobId id = 0;
  std::vector<double> placed;  // work placed in each period, indexed as GoalWalk::periods
  double work_now = 0;         // work left for the first period; above placed[0] when late
  int s_fit = 0;
};

struct GoalWalk {
  std::vector<WalkPeriod> periods;  // in time order
  std::vector<JobWalk> jobs;        // in the order of the input
};

// capacity(t0, t1): expected work all `slots` slots do over [t0, t1) (the forecast's
// integral); called once per period.
GoalWalk WalkBack(std::span<const GoalJob> jobs, Time now, int slots,
                  const std::function<double(Time, Time)>& capacity);

}  // namespace mrlocal
