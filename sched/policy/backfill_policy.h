// Best-effort backfill (issue 16, point 3): a decorator over a policy with admission
// control (rtmr, rtmr-nofb, dc). A job the inner policy rejects is not dropped: it is
// admitted best effort (Admission::best_effort, the inner's reason kept), runs at the
// lowest priority in slots no admitted job needs, and is preempted (killed and requeued)
// when an admitted job needs its slot. Admitted jobs keep their guarantee: the inner never
// hears of a best-effort job, and decides on the slots it would see without them.
//
//   order        best-effort jobs among themselves: earliest deadline first
//                (sched/policy/deadline_order.h), those still before their deadline
//                first: a job already late can no longer count as met, so it runs only
//                in slots no other wants.
//   demand       what the admitted jobs may take now: their pending maps and their ready
//                reduces. A slot running a best-effort attempt is marked so
//                (SlotState::best_effort), and RTMR's reduce reservation counts it free:
//                the inner decides as if best-effort work were not there.
//   preempt      before the inner runs: best-effort attempts of a kind while the demand
//                exceeds the free slots of that kind (the latest started first: the least
//                work lost; then the latest deadline), and any on a slot an admitted ready
//                reduce is planned for. A preemption is reported from an event of its own
//                (at the same instant in simulation); until every preempted attempt has
//                reported, the inner is not asked and nothing is backfilled, so that it
//                then sees the freed slots as it would without best-effort work.
//   backfill     after the inner: the slots it left free, keeping free as many as the
//                demand it left, go to best-effort tasks; a reduce only once its job's
//                reduces are planned. Keeping those slots free is what stops a
//                preempt-refill loop at one instant.
//
// Every other hook goes to the inner for its own jobs only; a best-effort job's reduces
// are placed by the default rule (PlaceReducesOnFastest).
#pragma once

#include <memory>
#include <unordered_set>
#include <vector>

#include "sched/core/policy.h"
#include "sched/policy/deadline_order.h"

namespace mrlocal {

class BackfillPolicy final : public Policy, private PolicyHost {
 public:
  // REQUIRES: inner->admission_control() (a policy that admits every job leaves nothing to
  // backfill).
  explicit BackfillPolicy(std::unique_ptr<Policy> inner);

  // The inner's: reports key on it.
  std::string_view name() const override { return inner_->name(); }
  bool admission_control() const override { return true; }
  const Policy& inner() const { return *inner_; }

  Admission Admit(const JobState& job, const ClusterState& state, Time now) override;
  void Dispatch(DispatchRound& round, const ClusterState& state, Time now) override;
  std::vector<SlotId> PlaceReduces(const JobState& job, const ClusterState& state) override;
  void OnTaskFinished(const TaskRecord& record, const ClusterState& state, Time now) override;
  void OnJobFinished(const JobState& job, const ClusterState& state, Time now) override;
  void OnTimer(TimerId id, const ClusterState& state, Time now) override {
    inner_->OnTimer(id, state, now);  // the wake-ups are all the inner's
  }
  void OnSlotSpeedChanged(const SlotInfo& slot, double old_speed, const ClusterState& state,
                          Time now) override {
    inner_->OnSlotSpeedChanged(slot, old_speed, state, now);
  }
  bool uses_reduce_slowstart() const override { return inner_->uses_reduce_slowstart(); }
  std::string note() const override { return inner_->note(); }
  std::optional<LofEvaluation> OverloadSnapshot() const override {
    return inner_->OverloadSnapshot();
  }

  // For tests: best-effort attempts preempted so far.
  uint64_t preemptions() const { return preemptions_; }

 private:
  // What the admitted jobs may take now (see the header comment).
  struct Demand {
    uint64_t maps = 0;           // pending maps
    uint64_t ready_reduces = 0;  // pending reduces of jobs whose reduces are runnable
  };
  Demand AdmittedDemand(const ClusterState& state) const;
  bool best_effort(JobId job) const { return best_effort_.count(job) > 0; }
  // Preempts best-effort attempts that admitted work needs; true when any is in flight.
  bool PreemptForAdmitted(DispatchRound& round, const ClusterState& state);
  // Preempts up to `n` best-effort attempts of `kind`, lowest priority first.
  void PreemptSome(SlotKind kind, uint64_t n, const ClusterState& state);
  void PreemptAttempt(const TaskRef& task);
  // Per slot: whether a pending reduce of an admitted job is planned for it.
  std::vector<bool> PlannedForAdmitted(const ClusterState& state) const;
  void Backfill(DispatchRound& round, const ClusterState& state, Time now);
  std::optional<TaskRef> PickBestEffort(const SlotInfo& slot, const ClusterState& state,
                                        Time now) const;

  // PolicyHost, for the inner: the Controller's.
  TimerId WakeAt(Time at) override { return host()->WakeAt(at); }
  void CancelWake(TimerId id) override { host()->CancelWake(id); }
  bool Preempt(const TaskRef& task) override { return host()->Preempt(task); }

  std::unique_ptr<Policy> inner_;
  std::unordered_set<JobId> best_effort_;  // admitted best effort, not finished
  DeadlineOrder order_;                    // the same jobs, in EDF order
  std::vector<TaskRef> in_flight_;         // preempted, not yet reported
  uint64_t preemptions_ = 0;
};

}  // namespace mrlocal
