#include "sched/plan/instance.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>

namespace mrlocal {
namespace {

std::string Where(const PlanTask& t) {
  return "job " + std::to_string(t.job) + (t.reduce ? " reduce " : " map ") +
         std::to_string(t.index);
}

bool IsTime(double v) { return std::isfinite(v) && v >= 0; }

}  // namespace

std::vector<PlanTask> FlattenTasks(const PlanInstance& instance) {
  std::vector<PlanTask> tasks;
  for (size_t j = 0; j < instance.jobs.size(); ++j) {
    const PlanJob& job = instance.jobs[j];
    for (bool reduce : {false, true}) {
      const std::vector<double>& works = reduce ? job.reduces : job.maps;
      for (size_t i = 0; i < works.size(); ++i)
        tasks.push_back({static_cast<int>(j), reduce, static_cast<int>(i), works[i]});
    }
  }
  return tasks;
}

Status ValidateInstance(const PlanInstance& instance) {
  if (instance.machine_speeds.empty()) return Status::InvalidArgument("no machine");
  for (double s : instance.machine_speeds)
    if (!(std::isfinite(s) && s > 0))
      return Status::InvalidArgument("a machine speed is not a positive number");
  for (size_t j = 0; j < instance.jobs.size(); ++j) {
    const PlanJob& job = instance.jobs[j];
    const std::string name = "job " + std::to_string(j);
    if (!(std::isfinite(job.weight) && job.weight > 0))
      return Status::InvalidArgument(name + ": weight is not a positive number");
    if (!IsTime(job.release)) return Status::InvalidArgument(name + ": release is not a time >= 0");
    if (!IsTime(job.delay)) return Status::InvalidArgument(name + ": delay is not a time >= 0");
    if (job.maps.empty() && job.reduces.empty()) return Status::InvalidArgument(name + ": no task");
    for (const auto* works : {&job.maps, &job.reduces})
      for (double p : *works)
        if (!IsTime(p)) return Status::InvalidArgument(name + ": a task's work is not a time >= 0");
  }
  return Status::OK();
}

Status CheckSchedule(const PlanInstance& instance, const Schedule& schedule, double tolerance) {
  const std::vector<PlanTask> tasks = FlattenTasks(instance);
  if (schedule.machine.size() != tasks.size() || schedule.start.size() != tasks.size())
    return Status::Internal("the schedule has " + std::to_string(schedule.start.size()) +
                            " tasks, the instance " + std::to_string(tasks.size()));
  const int machines = static_cast<int>(instance.machine_speeds.size());
  std::vector<double> end(tasks.size()), maps_end(instance.jobs.size(), 0);
  for (size_t u = 0; u < tasks.size(); ++u) {
    const int m = schedule.machine[u];
    if (m < 0 || m >= machines || !std::isfinite(schedule.start[u]))
      return Status::Internal(Where(tasks[u]) + ": no machine or no start");
    const PlanJob& job = instance.jobs[tasks[u].job];
    if (schedule.start[u] < job.release - tolerance)
      return Status::Internal(Where(tasks[u]) + " starts before its job's release");
    end[u] = schedule.start[u] + tasks[u].work / instance.machine_speeds[m];
    if (!tasks[u].reduce) maps_end[tasks[u].job] = std::max(maps_end[tasks[u].job], end[u]);
  }
  for (size_t u = 0; u < tasks.size(); ++u) {
    const PlanJob& job = instance.jobs[tasks[u].job];
    if (tasks[u].reduce && !job.maps.empty() &&
        schedule.start[u] < maps_end[tasks[u].job] + job.delay - tolerance)
      return Status::Internal(Where(tasks[u]) + " starts before its maps' end plus the delay");
  }
  std::vector<size_t> order(tasks.size());
  for (size_t u = 0; u < order.size(); ++u) order[u] = u;
  // By machine, start, then end: a zero-work task starting with another comes first, so
  // it is not taken for an overlap.
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::tie(schedule.machine[a], schedule.start[a], end[a]) <
           std::tie(schedule.machine[b], schedule.start[b], end[b]);
  });
  for (size_t i = 1; i < order.size(); ++i) {
    const size_t a = order[i - 1], b = order[i];
    if (schedule.machine[a] == schedule.machine[b] && schedule.start[b] < end[a] - tolerance)
      return Status::Internal(Where(tasks[b]) + " overlaps " + Where(tasks[a]) + " on machine " +
                              std::to_string(schedule.machine[a]));
  }
  return Status::OK();
}

std::vector<double> JobCompletions(const PlanInstance& instance, const Schedule& schedule) {
  std::vector<double> done(instance.jobs.size());
  for (size_t j = 0; j < done.size(); ++j) done[j] = instance.jobs[j].release;
  const std::vector<PlanTask> tasks = FlattenTasks(instance);
  for (size_t u = 0; u < tasks.size(); ++u) {
    const double end =
        schedule.start[u] + tasks[u].work / instance.machine_speeds[schedule.machine[u]];
    done[tasks[u].job] = std::max(done[tasks[u].job], end);
  }
  return done;
}

double WeightedCompletion(const PlanInstance& instance, const Schedule& schedule) {
  const std::vector<double> done = JobCompletions(instance, schedule);
  double sum = 0;
  for (size_t j = 0; j < done.size(); ++j) sum += instance.jobs[j].weight * done[j];
  return sum;
}

}  // namespace mrlocal
