// Least laxity first (DynamicShare, Kalogeraki et al., section III): a free slot takes a
// pending task of the job with the smallest laxity
//   Laxity_j = D_abs_j - now - ProjRemaining_j                              (eq. 3)
//   ProjRemaining_j = the map phase left + the reduce phase left, each
//     max(longest task left, work left / Σ speeds of the healthy slots of its kind)
// with every task's time from the Estimator on the slot it runs on (running: what is left
// of its estimate there) or would run on (pending: the fastest healthy slot of its kind;
// a reduce not yet planned: the largest reduce's input, RTMR's φ_r). The paper takes the
// longest task of each phase, assuming all run at once; with more tasks than slots a
// phase takes waves, which the work term counts: 20 maps of 10 s on 4 slots take 50 s.
//
//   order       between events every laxity falls at the same rate, so the order by the
//               key D_abs - ProjRemaining holds: jobs are kept by key, recomputed only
//               when a job is admitted, one of its tasks finishes, or its laxity reaches
//               zero (a timer: the paper's "miss their deadlines"). A decision walks the
//               order, as edf's does; it never asks the estimator (but on an overloaded
//               node, below).
//   inversion   LLF thrashes: a job that is served gains laxity on those that wait, so
//               jobs of similar deadlines and work take turns task by task and all finish
//               late (three jobs that EDF runs one after another, meeting two, meet one).
//               Modified LLF (Oh & Yang, RTCSA 1998) allows a "laxity inversion" as long
//               as it makes no job miss: per slot kind, the job the last decision served
//               (the incumbent) keeps the slot while its laxity is >= 0 and the least-laxity
//               job can afford to wait for the incumbent's task on that slot (its laxity >=
//               that task's time there; tasks are not preempted, so the slot is gone that
//               long, whatever the other slots do) and the incumbent's deadline is no
//               later than that job's (an inversion EDF would make too); otherwise the
//               least-laxity job takes the slot and becomes the incumbent. O(log n).
//   negative    a job whose laxity is negative runs only once no job with a pending task
//               of the slot's kind has a laxity >= 0 (the paper: "a task with negative
//               laxity will never preempt tasks with positive laxity"). Among them the
//               least negative first: the estimate is of the job's worst case, so the one
//               closest to zero is the likeliest still to make it, and the lateness it adds
//               to the others is the smallest.
//   no deadline after every job with one, negative or not, in arrival order: they have no
//               deadline to miss.
//   no estimate a job the estimator cannot estimate (no history of its app) has laxity
//               D_abs - now: EDF's order among the others.
//   overload    every finished attempt feeds an OverloadDetector (LOF over the slowdowns of
//               the job's tasks, sched/estimate/overload_detector.h). A slot on an
//               overloaded node gets a task only when every free healthy slot of its kind
//               got one, and then only a task whose estimate there times the node's
//               measured slowdown fits in its job's laxity (a job without a deadline
//               always fits); or, once the node's cool-off is over, one probation task of
//               the first job in order, whose slowdown clears the node or keeps it out.
//               Reduces are planned on healthy slots only.
//
// Admits every job (no admission control, no preemption).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <vector>

#include "sched/core/policy.h"
#include "sched/estimate/estimator.h"
#include "sched/estimate/overload_detector.h"

namespace mrlocal {

struct LlfOptions {
  OverloadOptions overload;
};

// One instance per Controller: it knows jobs by id, and ids restart with each Controller.
class LlfPolicy final : public Policy {
 public:
  // `estimator` must outlive the policy; null: every job has EDF's order, no detection.
  explicit LlfPolicy(const Estimator* estimator, LlfOptions options = {});

  std::string_view name() const override { return "llf"; }
  Admission Admit(const JobState& job, const ClusterState& state, Time now) override;
  // REQUIRES: every active job of `state` went through Admit.
  void Dispatch(DispatchRound& round, const ClusterState& state, Time now) override;
  std::optional<TaskRef> PickTask(const SlotInfo& slot, const ClusterState& state,
                                  Time now) override;
  std::vector<SlotId> PlaceReduces(const JobState& job, const ClusterState& state) override;
  void OnTaskFinished(const TaskRecord& record, const ClusterState& state, Time now) override;
  void OnJobFinished(const JobState& job, const ClusterState& state, Time now) override;
  void OnTimer(TimerId id, const ClusterState& state, Time now) override;
  void OnSlotSpeedChanged(const SlotInfo& slot, double old_speed, const ClusterState& state,
                          Time now) override;

  // For tests and reports: a job's laxity at `now` (none: no deadline, or not active).
  std::optional<Duration> Laxity(JobId job, Time now) const;
  const OverloadDetector& detector() const { return detector_; }
  std::optional<LofEvaluation> OverloadSnapshot() const override {
    return detector_.first_marking();
  }
  // How many times a job's laxity was computed.
  uint64_t laxity_updates() const { return laxity_updates_; }

 private:
  struct Key {
    Time key;  // D_abs - ProjRemaining: the laxity is key - now
    JobId job;
    friend auto operator<=>(const Key&, const Key&) = default;
  };
  struct Entry {
    Time key{0};
    std::optional<TimerId> zero;  // the wake-up when the laxity reaches 0
    // By SlotKind: the largest pending task's estimate on the kind's reference slot, in
    // seconds at speed 1.0 (what the job holds a slot of that kind for); 0: none pending.
    double pending_work_s[2] = {0, 0};
  };
  // A phase's time left, and its largest pending task in seconds at speed 1.0.
  struct PhaseEstimate {
    Duration left;
    double pending_work_s = 0;
  };
  // Per slot kind: the fastest healthy slot, and the healthy slots' speeds summed.
  struct Lanes {
    SlotId fastest = -1;
    double capacity = 0;
  };

  void Recompute(const JobState& job, const ClusterState& state, Time now);
  // Sets `entry.pending_work_s`.
  Duration ProjRemaining(const JobState& job, const ClusterState& state, Time now, Entry& entry);
  std::optional<PhaseEstimate> PhaseLeft(const JobState& job, TaskKind kind,
                                         const ClusterState& state, Time now,
                                         double unplanned_reduce_units) const;
  const Lanes& LanesOf(SlotKind kind, const ClusterState& state);
  void NoteNominalSpeeds(const ClusterState& state);
  // The task for `slot` in laxity order, with the incumbent's inversion, that
  // `accept(job, task)` takes; its job becomes the incumbent of the slot's kind.
  template <typename Accept>
  std::optional<TaskRef> Pick(const SlotInfo& slot, const ClusterState& state, Time now,
                              Accept accept);
  // The incumbent's task for `slot` if the least-laxity job (`least`, laxity
  // `least_laxity`) can afford to wait for it; none otherwise.
  template <typename Consider>
  std::optional<TaskRef> KeepIncumbent(const SlotInfo& slot, const ClusterState& state, JobId least,
                                       Duration least_laxity, Time now, Consider consider);
  // How long `job`'s largest pending task of the slot's kind would hold `slot`.
  Duration HeldFor(JobId job, const SlotInfo& slot) const;
  bool FitsOverloadedSlot(const JobState& job, const TaskRef& task, const SlotInfo& slot,
                          const ClusterState& state, Time now) const;
  void FeedDetector(const TaskRecord& record, const ClusterState& state);

  const Estimator* estimator_;
  OverloadDetector detector_;
  std::set<Key> order_;          // jobs with a deadline, by key
  std::set<JobId> best_effort_;  // jobs without, by id (arrival order)
  std::map<JobId, Entry> jobs_;  // the jobs in order_
  std::map<TimerId, JobId> zero_timers_;
  std::vector<double> nominal_speed_;  // per slot, as first seen
  std::optional<Lanes> lanes_[2];      // by SlotKind; none: to recompute
  std::optional<JobId> incumbent_[2];  // by SlotKind: the job the last pick served
  uint64_t laxity_updates_ = 0;
};

}  // namespace mrlocal
