#include "sched/policy/fair_policy.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "sched/policy/job_cursor.h"
#include "sched/policy/pick_in_order.h"

namespace mrlocal {
namespace {

// Hadoop requires weights > 0; a zero, negative or NaN weight counts as the smallest one
// rather than dividing by zero.
double UsableWeight(double w) {
  constexpr double kMinWeight = 1e-9;
  return w > kMinWeight ? w : kMinWeight;
}

}  // namespace

Admission FairPolicy::Admit(const JobState& job, const ClusterState&, Time) {
  InfoOf(job);  // interned now, so the first decision that meets the job pays nothing
  return Admission::Yes(job.spec.deadline ? "fair admits every job; it does not test deadlines"
                                          : "fair admits every job");
}

void FairPolicy::OnJobFinished(const JobState& job, const ClusterState&, Time) {
  if (job.id < jobs_.size()) jobs_[job.id] = {};
}

const FairPolicy::JobInfo& FairPolicy::InfoOf(const JobState& job) {
  if (job.id >= jobs_.size()) jobs_.resize(job.id + 1);
  JobInfo& info = jobs_[job.id];
  if (info.known) return info;
  auto [it, added] =
      queue_ids_.try_emplace(job.spec.queue, static_cast<uint32_t>(queue_ids_.size()));
  if (added) tallies_.emplace_back();
  info = {true, it->second, UsableWeight(job.spec.weight)};
  return info;
}

std::optional<TaskRef> FairPolicy::PickTask(const SlotInfo& slot, const ClusterState& state, Time) {
  const bool map = slot.kind == SlotKind::kMap;
  ++epoch_;
  candidates_.clear();
  // One pass: sum each queue's running tasks (jobs with nothing pending count too: they
  // hold slots) and collect the jobs that could use this slot.
  JobCursor jobs(state.jobs);
  for (JobId id : map ? state.active : state.reducing) {
    const JobState& job = jobs[id];
    const uint32_t running = map ? job.maps_running : job.reduces_running;
    const JobInfo& info = InfoOf(job);
    QueueTally& tally = tallies_[info.queue];
    if (tally.epoch != epoch_) tally = {epoch_, 0, id};  // lists are in arrival order
    tally.running += running;
    if ((map ? job.maps_pending() : job.reduces_pending()) == 0) continue;
    candidates_.push_back({info.queue, running / info.weight, id, &job});
  }
  // Queues by running tasks (weight 1.0), then jobs by running / weight; ties by arrival.
  auto before = [this](const Candidate& a, const Candidate& b) {
    const QueueTally& qa = tallies_[a.queue];
    const QueueTally& qb = tallies_[b.queue];
    return std::tie(qa.running, qa.first, a.ratio, a.job) <
           std::tie(qb.running, qb.first, b.ratio, b.job);
  };
  return PickInOrder(candidates_, before, slot, state);
}

}  // namespace mrlocal
