#include "sched/policy/goal_walk.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace mrlocal {
namespace {

// Work below this (a nanosecond at speed 1.0) is rounding, not work left.
constexpr double kNoWork = 1e-9;

// The periods of the walk: [now, g1), [g1, g2), ... over the distinct goals after `now` of
// the jobs with work.
std::vector<WalkPeriod> CutPeriods(std::span<const GoalJob> jobs, Time now,
                                   const std::function<double(Time, Time)>& capacity) {
  std::vector<Time> ends;
  for (const GoalJob& j : jobs)
    if (j.goal && *j.goal > now && j.work > kNoWork) ends.push_back(*j.goal);
  std::sort(ends.begin(), ends.end());
  ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
  std::vector<WalkPeriod> periods;
  periods.reserve(ends.size());
  Time start = now;
  for (Time end : ends) {
    periods.push_back({start, end, capacity(start, end)});
    start = end;
  }
  return periods;
}

// Max-min fair shares of `capacity` (water-filling): taken in ascending order of demand,
// each gets the smaller of its demand and an equal split of what is left, so no one gets
// more than it asks and what one leaves goes to the others. `wants` holds (demand, job)
// and is reordered; give(job, share) is called once per job.
template <typename Give>
void WaterFill(double capacity, std::vector<std::pair<double, size_t>>& wants, Give give) {
  std::sort(wants.begin(), wants.end());
  double left = capacity;
  for (size_t k = 0; k < wants.size(); ++k) {
    const double share = std::min(wants[k].first, left / static_cast<double>(wants.size() - k));
    give(wants[k].second, share);
    left -= share;
  }
}

int SlotsFor(double work_now, double work_per_slot, int max_parallel) {
  if (work_now <= kNoWork) return 0;
  if (work_per_slot <= 0) return max_parallel;
  // The tolerance keeps an exact fit (work 20 at 10 a slot) from rounding up to 3.
  const double slots = std::ceil(work_now / work_per_slot - 1e-9);
  return static_cast<int>(std::min(slots, static_cast<double>(max_parallel)));
}

}  // namespace

GoalWalk WalkBack(std::span<const GoalJob> jobs, Time now, int slots,
                  const std::function<double(Time, Time)>& capacity) {
  GoalWalk walk;
  walk.periods = CutPeriods(jobs, now, capacity);
  const size_t n_periods = walk.periods.size();

  // The walk's jobs by the period their goal ends, latest first; a job joins the walk at
  // its goal's period and stays in it, for every earlier period, until its work is placed.
  std::vector<double> left(jobs.size(), 0);
  std::vector<double> usable(jobs.size(), 0);    // of a period's capacity: its slots' part
  std::vector<std::pair<size_t, size_t>> joins;  // (goal's period, job)
  walk.jobs.reserve(jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    const GoalJob& j = jobs[i];
    walk.jobs.push_back({j.id, std::vector<double>(n_periods, 0.0), 0, 0});
    if (!j.goal || *j.goal <= now || j.work <= kNoWork) continue;
    left[i] = j.work;
    if (slots > 0) usable[i] = std::min(j.max_parallel, slots) / static_cast<double>(slots);
    auto end = std::lower_bound(walk.periods.begin(), walk.periods.end(), *j.goal,
                                [](const WalkPeriod& p, Time g) { return p.end < g; });
    joins.emplace_back(end - walk.periods.begin(), i);
  }
  std::sort(joins.begin(), joins.end(), std::greater<>());

  std::vector<size_t> present;
  std::vector<std::pair<double, size_t>> wants;
  auto next_join = joins.begin();
  for (size_t p = n_periods; p-- > 0;) {
    for (; next_join != joins.end() && next_join->first == p; ++next_join)
      present.push_back(next_join->second);
    std::erase_if(present, [&](size_t i) { return left[i] <= kNoWork; });
    const WalkPeriod& period = walk.periods[p];
    wants.clear();
    for (size_t i : present) wants.emplace_back(std::min(left[i], period.capacity * usable[i]), i);
    WaterFill(period.capacity, wants, [&](size_t i, double work) {
      walk.jobs[i].placed[p] = work;
      left[i] -= work;
    });
  }

  const double work_per_slot = n_periods > 0 && slots > 0 ? walk.periods[0].capacity / slots : 0.0;
  for (size_t i = 0; i < jobs.size(); ++i) {
    const GoalJob& j = jobs[i];
    JobWalk& out = walk.jobs[i];
    if (!j.goal || j.work <= kNoWork) continue;
    if (*j.goal <= now) {  // past its goal: all of it is due now
      out.work_now = j.work;
      out.s_fit = j.max_parallel;
      continue;
    }
    out.work_now = out.placed[0] + left[i];  // left: what fits in no period
    out.s_fit = SlotsFor(out.work_now, work_per_slot, j.max_parallel);
  }
  return walk;
}

}  // namespace mrlocal
