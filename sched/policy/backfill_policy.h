// Best-effort backfill (issue 16, point 3): a decorator over a policy with admission
// control (rtmr, rtmr-nofb, dc). A job the inner policy rejects is not dropped: it is
// admitted best effort (Admission::best_effort, the inner's reason kept), runs at the
// lowest priority in slots no admitted job needs, and is preempted (killed and requeued)
// when an admitted job needs its slot. Admitted jobs keep their guarantee: the inner hears
// of a best-effort job only when asked to lend it a slot, and otherwise decides on the
// slots it would see without them.
//
//   order        best-effort jobs among themselves: earliest deadline first
//                (sched/policy/deadline_order.h), those still before their deadline
//                first: a job already late can no longer count as met, so it runs only
//                in slots no other wants.
//   demand       what the admitted jobs may take now: their pending maps and their ready
//                reduces. A slot running a best-effort attempt is marked so
//                (SlotState::best_effort), and RTMR's reduce reservation counts it free:
//                the inner decides as if best-effort work were not there.
//   A round, in order:
//   reduces      best-effort reduces on a slot an admitted ready reduce is planned for,
//                and more while the ready reduces exceed the free reduce slots, are
//                lent in place when the inner agrees (as maps are below), else
//                preempted (the latest started first: the least work lost; then the
//                latest deadline). A preemption is reported from an event of its own (at
//                the same instant in simulation); until every preempted attempt has
//                reported, the inner is not asked and nothing is backfilled, so that it
//                then sees the freed slots as it would without best-effort work.
//   lend         while admitted maps wait, a free map slot goes to the first best-effort
//                map in EDF order whose deadline is earlier than every waiting admitted
//                job's, when the inner lends it (Policy::LendSlot: RTMR checks that every
//                admitted job still meets its deadline with the slot busy until that
//                map's worst-case end). A lent attempt is never preempted: the inner
//                planned with it. This is slack stealing: admitted jobs wait where their
//                slack allows, and EDF decides between the two kinds of job.
//   inner        the inner dispatches its jobs.
//   reclaim      admitted maps still waiting are owed the slots best-effort maps run on
//                (the inner's plans count those free): each is lent in place if the
//                inner agrees, else preempted, until enough are freed.
//   backfill     the slots the inner left free, keeping free as many as the
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
  std::string_view speculation_veto() const override {
    const std::string_view inner = inner_->speculation_veto();
    return inner.empty() ? "backfill lends admitted jobs' spare slots and takes them back" : inner;
  }
  std::string note() const override { return inner_->note(); }
  std::optional<LofEvaluation> OverloadSnapshot() const override {
    return inner_->OverloadSnapshot();
  }

  // For tests: best-effort attempts preempted so far, and those started on lent slots.
  uint64_t preemptions() const { return preemptions_; }
  uint64_t loans() const { return loans_made_; }

 private:
  // What the admitted jobs may take now (see the header comment).
  struct Demand {
    uint64_t maps = 0;           // pending maps
    uint64_t ready_reduces = 0;  // pending reduces of jobs whose reduces are runnable
  };
  Demand AdmittedDemand(const ClusterState& state) const;
  bool best_effort(JobId job) const { return best_effort_.count(job) > 0; }
  // Frees the reduce slots admitted ready reduces need (maps are reclaimed after the inner,
  // ReclaimMapSlots): best-effort reduces on them are lent in place or preempted. True when
  // any preemption is in flight.
  bool ReclaimReduceSlots(DispatchRound& round, const ClusterState& state, Time now);
  // Best-effort attempts of `kind` running on slots not lent, nor being preempted: the
  // latest start first (the least work lost), then the latest deadline (EDF's last).
  struct Spare {
    Time deadline;
    Time start;
    TaskRef task;
    SlotId slot;
  };
  std::vector<Spare> SpareAttempts(SlotKind kind, const ClusterState& state) const;
  // Lends the attempt's slot in place (the inner re-plans with it running to its worst
  // case) or, refused, preempts it; true when it preempted.
  bool LendOrPreempt(const Spare& spare, const ClusterState& state, Time now);
  // LendOrPreempt on SpareAttempts(kind) in order until `need` slots are being freed.
  void Reclaim(SlotKind kind, uint64_t need, const ClusterState& state, Time now);
  // Admitted maps the inner could not place wait for slots best-effort maps run on, which
  // its plans count free: each is lent in place (the inner re-plans with that map running
  // to its worst case) or, refused, preempted. True when any preemption is in flight.
  bool ReclaimMapSlots(DispatchRound& round, const ClusterState& state, Time now);
  void PreemptAttempt(const TaskRef& task);
  // Per slot: whether a pending reduce of an admitted job is planned for it.
  std::vector<bool> PlannedForAdmitted(const ClusterState& state) const;
  void Backfill(DispatchRound& round, const ClusterState& state, Time now);
  // The first best-effort task for `slot` in EDF order; with `before`, only of jobs not
  // yet late whose deadline is earlier.
  std::optional<TaskRef> PickBestEffort(const SlotInfo& slot, const ClusterState& state, Time now,
                                        std::optional<Time> before = std::nullopt) const;
  void LendSlack(DispatchRound& round, const ClusterState& state, Time now);
  bool lent(const TaskRef& task) const;
  void EndLoan(const TaskRef& task);

  // PolicyHost, for the inner: the Controller's.
  TimerId WakeAt(Time at) override { return host()->WakeAt(at); }
  void CancelWake(TimerId id) override { host()->CancelWake(id); }
  bool Preempt(const TaskRef& task) override { return host()->Preempt(task); }

  std::unique_ptr<Policy> inner_;
  std::unordered_set<JobId> best_effort_;  // admitted best effort, not finished
  DeadlineOrder order_;                    // the same jobs, in EDF order
  std::vector<TaskRef> in_flight_;         // preempted, not yet reported
  struct Loan {
    TaskRef task;
    SlotId slot;
  };
  void StartLoan(const TaskRef& task, SlotId slot);
  std::vector<Loan> loans_;  // attempts on slots the inner lent (LendSlot), running
  uint64_t preemptions_ = 0;
  uint64_t loans_made_ = 0;
};

}  // namespace mrlocal
