#include "sched/policy/so_mars_policy.h"

#include <algorithm>
#include <cstdio>

namespace mrlocal {

SoMarsPolicy::SoMarsPolicy(PlanInstance preview, SoMarsOptions options)
    : preview_(std::move(preview)), options_(options), follower_(preview_, PlannedStarts::kWait) {
  if (options_.batch_interval) SetBatchInterval(*options_.batch_interval);
  int first = 0;
  for (const PlanJob& job : preview_.jobs) {
    first_task_.push_back(first);
    first += static_cast<int>(job.maps.size() + job.reduces.size());
  }
  tasks_ = first;
}

void SoMarsPolicy::SetBatchInterval(Duration b) {
  batch_interval_ = std::max(b, Duration(1));
  lp_budget_s_ = options_.lp_budget_s.value_or(SemiOnlineLpBudget(Seconds(*batch_interval_)));
}

std::string SoMarsPolicy::note() const {
  const auto out_of_budget = std::count_if(replans_.begin(), replans_.end(),
                                           [](const ReplanRecord& r) { return r.out_of_budget; });
  const auto fell_back = std::count_if(replans_.begin(), replans_.end(),
                                       [](const ReplanRecord& r) { return r.fell_back; });
  std::vector<std::string> parts;
  if (batch_interval_ && !options_.batch_interval) {
    char text[96];
    std::snprintf(text, sizeof text, "batch interval %.3g s (%g x the first job's mean task",
                  Seconds(*batch_interval_), kDefaultBatchTasks);
    parts.push_back(std::string(text) + "; --batch-interval sets it)");
  }
  if (out_of_budget > 0) {
    char budget[32];
    std::snprintf(budget, sizeof budget, "%g", lp_budget_s_);
    parts.push_back(std::to_string(out_of_budget) + " of " + std::to_string(replans_.size()) +
                    " re-plans had the LP past its budget of " + budget + " s (" +
                    std::to_string(fell_back) + " of them planned as HUWF, the others from the " +
                    "last LP)");
  }
  if (!failure_.empty()) parts.push_back(failure_);
  std::string note;
  for (const std::string& p : parts) note += (note.empty() ? "so-mars: " : "; ") + p;
  return note;
}

Duration SoMarsPolicy::DefaultBatchInterval(const JobState& job) const {
  for (size_t j = 0; j < preview_.jobs.size(); ++j) {
    if (follower_.IdOf(static_cast<int>(j)) != job.id) continue;
    const PlanJob& plan = preview_.jobs[j];
    double work = 0;
    for (double p : plan.maps) work += p;
    for (double p : plan.reduces) work += p;
    const double mean = work / static_cast<double>(plan.maps.size() + plan.reduces.size());
    return FromSeconds(kDefaultBatchTasks * mean);
  }
  return std::chrono::seconds(50);  // not reached: Admit asks only for a previewed job
}

Admission SoMarsPolicy::Admit(const JobState& job, const ClusterState&, Time now) {
  if (!follower_.Arrive(job))
    return Admission::Yes("so-mars admits every job; this one is not in the preview: FIFO");
  if (!batch_interval_) SetBatchInterval(DefaultBatchInterval(job));
  const Duration b = *batch_interval_;
  const Time boundary = (now + b - Duration(1)) / b * b;  // the first k*B >= now
  // A wake-up already asked is for this boundary: arrivals come in time order.
  if (!boundary_timer_ && host()) boundary_timer_ = host()->WakeAt(boundary);
  return Admission::Yes("so-mars admits every job; this one is planned at the batch boundary");
}

void SoMarsPolicy::Dispatch(DispatchRound& round, const ClusterState& state, Time now) {
  follower_.Dispatch(round, state, now, host());
}

std::vector<SlotId> SoMarsPolicy::PlaceReduces(const JobState& job, const ClusterState& state) {
  if (auto placed = follower_.PlaceReduces(job, state)) return *placed;
  return Policy::PlaceReduces(job, state);
}

void SoMarsPolicy::OnTimer(TimerId id, const ClusterState& state, Time now) {
  if (boundary_timer_ && id == *boundary_timer_) {
    boundary_timer_.reset();
    Replan(state, now);
    return;
  }
  follower_.OnTimer(now);
}

std::vector<TaskProgress> SoMarsPolicy::ProgressOf(const ClusterState& state, Time now,
                                                   std::vector<bool>& present) const {
  std::vector<TaskProgress> progress(tasks_);
  present.assign(preview_.jobs.size(), false);
  for (size_t j = 0; j < preview_.jobs.size(); ++j) {
    const std::optional<JobId> id = follower_.IdOf(static_cast<int>(j));
    if (!id) continue;  // not arrived: none of this re-plan's business
    auto it = state.jobs.find(*id);
    if (it == state.jobs.end() || it->second.finished()) continue;
    present[j] = true;
    const JobState& job = it->second;
    const PlanJob& plan = preview_.jobs[j];
    for (uint32_t i = 0; i < job.M() + job.R(); ++i) {
      const bool map = i < job.M();
      const TaskState& t = map ? job.maps[i] : job.reduces[i - job.M()];
      if (t.status == TaskStatus::kPending) continue;
      const SlotInfo& slot = state.slots[t.slot].info;
      const double work = map ? plan.maps[i] : plan.reduces[i - job.M()];
      const double end = t.status == TaskStatus::kDone
                             ? Seconds(t.end)
                             : std::max(Seconds(now), Seconds(t.start) + work / slot.speed);
      progress[first_task_[j] + i] = {true, slot.node, end};
    }
  }
  return progress;
}

void SoMarsPolicy::Replan(const ClusterState& state, Time now) {
  std::vector<bool> present;
  const std::vector<TaskProgress> progress = ProgressOf(state, now, present);
  const Remainder rest = RemainderAt(preview_, present, progress, Seconds(now));
  if (rest.task.empty()) return;
  Result<Replanned> plan = mrlocal::Replan(Planner::kMars, rest, lp_budget_s_);
  if (!plan.ok()) {
    failure_ = "the re-plan at " + std::to_string(Seconds(now)) + " s failed (" +
               plan.status().message() + "): the plan before it kept";
    return;
  }
  std::vector<PlanStep> steps;
  const std::vector<PlanTask> tasks = FlattenTasks(rest.instance);
  for (size_t i = 0; i < tasks.size(); ++i) {
    const int j = rest.job[tasks[i].job];
    const int index = rest.task[i] - first_task_[j] -
                      (tasks[i].reduce ? static_cast<int>(preview_.jobs[j].maps.size()) : 0);
    steps.push_back({plan->schedule.machine[i], j,
                     tasks[i].reduce ? TaskKind::kReduce : TaskKind::kMap,
                     static_cast<uint32_t>(index), FromSeconds(plan->schedule.start[i])});
  }
  follower_.Follow(steps);
  replans_.push_back(plan->record);
}

}  // namespace mrlocal
