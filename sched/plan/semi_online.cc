#include "sched/plan/semi_online.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace mrlocal {
namespace {

// Adds to `out` job j of `whole` (its first task `first`) as a re-plan at `now` sees it:
// its tasks not started, released at `now`; a reduce no earlier than the end of the job's
// started maps plus the delay.
void AddPart(const PlanInstance& whole, int j, int first, const std::vector<TaskProgress>& progress,
             double now, Remainder& out) {
  const PlanJob& job = whole.jobs[j];
  const int maps = static_cast<int>(job.maps.size());
  const int all = maps + static_cast<int>(job.reduces.size());
  double maps_end = now;
  for (int i = 0; i < maps; ++i)
    if (progress[first + i].started)
      maps_end = std::max(maps_end, progress[first + i].end + job.delay);
  PlanJob part{now, job.weight, job.delay, {}, {}, job.name};
  for (int i = 0; i < all; ++i) {
    const int u = first + i;
    if (progress[u].started) continue;
    if (i < maps)
      part.maps.push_back(job.maps[i]);
    else
      part.reduces.push_back(job.reduces[i - maps]);
    const double own = whole.task_releases.empty() ? 0 : whole.task_releases[u];
    out.instance.task_releases.push_back(std::max(own, i < maps ? now : maps_end));
    if (!whole.task_weights.empty()) out.instance.task_weights.push_back(whole.task_weights[u]);
    out.task.push_back(u);
  }
  if (part.maps.empty() && part.reduces.empty()) return;
  out.instance.jobs.push_back(std::move(part));
  out.job.push_back(j);
}

// The boundary k*B at which a job released at `release` is first planned.
double BoundaryOf(double release, double interval) {
  double k = std::ceil(release / interval);
  if (k * interval < release) ++k;  // rounding
  return k * interval;
}

}  // namespace

Remainder RemainderAt(const PlanInstance& whole, const std::vector<bool>& present,
                      const std::vector<TaskProgress>& progress, double now) {
  Remainder out;
  out.at = now;
  out.instance.machine_speeds = whole.machine_speeds;
  out.instance.machine_free.assign(whole.machine_speeds.size(), now);
  for (const TaskProgress& p : progress)
    if (p.started && p.machine >= 0)
      out.instance.machine_free[p.machine] = std::max(out.instance.machine_free[p.machine], p.end);
  int first = 0;
  for (size_t j = 0; j < whole.jobs.size(); ++j) {
    if (present[j]) AddPart(whole, static_cast<int>(j), first, progress, now, out);
    first += static_cast<int>(whole.jobs[j].maps.size() + whole.jobs[j].reduces.size());
  }
  return out;
}

Result<Replanned> Replan(Planner planner, const Remainder& remainder, double lp_budget_s) {
  Replanned out;
  out.record.at = remainder.at;
  out.record.jobs = static_cast<int>(remainder.instance.jobs.size());
  out.record.tasks = static_cast<int>(remainder.task.size());
  out.record.planned = remainder.job;
  PlanInstance from_zero = remainder.instance;
  for (PlanJob& job : from_zero.jobs) job.release = std::max(0.0, job.release - remainder.at);
  for (double& r : from_zero.task_releases) r = std::max(0.0, r - remainder.at);
  for (double& free : from_zero.machine_free) free = std::max(0.0, free - remainder.at);
  std::optional<Result<LpBound>> lp;
  if (NeedsLp(planner)) {
    lp = SolvePlanningLp(from_zero, lp_budget_s);
    if (lp->ok()) out.record.lp_seconds = (*lp)->seconds;
  }
  Result<Plan> plan = MakePlan(planner, from_zero, lp ? &*lp : nullptr);
  if (!plan.ok()) return plan.status();
  out.record.fell_back = plan->fell_back;
  out.record.out_of_budget = lp && lp->ok() && (*lp)->stop == LpStop::kTimeBudget;
  out.schedule = std::move(plan->schedule);
  for (double& start : out.schedule.start) start += remainder.at;
  return out;
}

double SemiOnlineLpBudget(double batch_interval_s) {
  return std::min(kPlanningLpBudgetS, batch_interval_s / 2);
}

Result<SemiOnlineRun> SemiOnlinePlan(const PlanInstance& instance,
                                     const SemiOnlineOptions& options) {
  MRLOCAL_RETURN_IF_ERROR(ValidateInstance(instance));
  const double b = options.batch_interval;
  if (!(b > 0) || !std::isfinite(b))
    return Status::InvalidArgument("the batch interval must be a number of seconds > 0");
  if (!(options.lp_budget_s >= 0))
    return Status::InvalidArgument("the LP budget must be a number of seconds >= 0");
  const std::vector<PlanTask> tasks = FlattenTasks(instance);
  const size_t jobs = instance.jobs.size();
  SemiOnlineRun run;
  run.schedule.machine.assign(tasks.size(), -1);
  run.schedule.start.assign(tasks.size(), 0);
  std::vector<bool> known(jobs, false);
  for (size_t left = jobs; left > 0;) {
    // The next boundary at which a job is released.
    double now = std::numeric_limits<double>::infinity();
    for (size_t j = 0; j < jobs; ++j)
      if (!known[j]) now = std::min(now, BoundaryOf(instance.jobs[j].release, b));
    for (size_t j = 0; j < jobs; ++j)
      if (!known[j] && instance.jobs[j].release <= now) known[j] = true, --left;
    // A task of the last plans that starts before `now` has started.
    std::vector<TaskProgress> progress(tasks.size());
    for (size_t u = 0; u < tasks.size(); ++u) {
      const int m = run.schedule.machine[u];
      if (m < 0 || run.schedule.start[u] >= now) continue;
      progress[u] = {true, m, run.schedule.start[u] + tasks[u].work / instance.machine_speeds[m]};
    }
    const Remainder rest = RemainderAt(instance, known, progress, now);
    if (rest.task.empty()) continue;
    Result<Replanned> plan = Replan(options.planner, rest, options.lp_budget_s);
    if (!plan.ok()) return plan.status();
    for (size_t i = 0; i < rest.task.size(); ++i) {
      run.schedule.machine[rest.task[i]] = plan->schedule.machine[i];
      run.schedule.start[rest.task[i]] = plan->schedule.start[i];
    }
    run.replans.push_back(plan->record);
  }
  return run;
}

}  // namespace mrlocal
