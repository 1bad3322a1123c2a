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
      for (size_t i = 0; i < works.size(); ++i) {
        const size_t u = tasks.size();
        const double weight =
            u < instance.task_weights.size() ? instance.task_weights[u] : job.weight;
        const double release = u < instance.task_releases.size()
                                   ? std::max(job.release, instance.task_releases[u])
                                   : job.release;
        tasks.push_back(
            {static_cast<int>(j), reduce, static_cast<int>(i), works[i], weight, release});
      }
    }
  }
  return tasks;
}

namespace {

// OK when `values` is empty or has `count` values, each meeting `ok`.
template <class Ok>
Status CheckPerItem(const std::vector<double>& values, size_t count, const char* what,
                    const char* items, Ok ok, const char* meaning) {
  if (values.empty()) return Status::OK();
  if (values.size() != count)
    return Status::InvalidArgument(std::string(what) + ": " + std::to_string(values.size()) +
                                   " values for " + std::to_string(count) + " " + items);
  for (double v : values)
    if (!ok(v)) return Status::InvalidArgument(std::string(what) + ": a value is not " + meaning);
  return Status::OK();
}

}  // namespace

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
  size_t tasks = 0;
  for (const PlanJob& job : instance.jobs) tasks += job.maps.size() + job.reduces.size();
  auto positive = [](double v) { return std::isfinite(v) && v > 0; };
  MRLOCAL_RETURN_IF_ERROR(CheckPerItem(instance.task_weights, tasks, "task weights", "tasks",
                                       positive, "a positive number"));
  MRLOCAL_RETURN_IF_ERROR(
      CheckPerItem(instance.task_releases, tasks, "task releases", "tasks", IsTime, "a time >= 0"));
  return CheckPerItem(instance.machine_free, instance.machine_speeds.size(), "machine free times",
                      "machines", IsTime, "a time >= 0");
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
    if (schedule.start[u] < tasks[u].release - tolerance)
      return Status::Internal(Where(tasks[u]) + " starts before its release");
    if (!instance.machine_free.empty() && schedule.start[u] < instance.machine_free[m] - tolerance)
      return Status::Internal(Where(tasks[u]) + " starts before machine " + std::to_string(m) +
                              " is free");
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
  // By machine, start and end: a task of no work starting where another starts comes first
  // and overlaps nothing.
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

double WeightedTaskCompletion(const PlanInstance& instance, const Schedule& schedule) {
  const std::vector<PlanTask> tasks = FlattenTasks(instance);
  double sum = 0;
  for (size_t u = 0; u < tasks.size(); ++u)
    sum += tasks[u].weight *
           (schedule.start[u] + tasks[u].work / instance.machine_speeds[schedule.machine[u]]);
  return sum;
}

}  // namespace mrlocal
