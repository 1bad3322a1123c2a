// RTMR (He, Lu, Swanson 2013, section IV): deadline guarantees by admission control.
//
//   queue        jobs that have started (run a map) in start order, then the others in
//                EDF order: no job is preempted once its first map starts.
//   admission    Algorithm I: a job's finish is estimated from its predecessor's slot
//                vectors (Algorithms II and III, worst-case task times from an Estimator,
//                sched/estimate/job_estimate.h); it is admitted only if it and every job
//                after it in the queue still meet their deadlines. At a confidence C < 1
//                (an extension, sched/policy/rtmr.md) a slot's free time is where the sum
//                of the tasks planned on it ends with probability >= 1 - (1 - C) / S, S
//                the cluster's slots (SlotEnd): a job ends on at most S of them, so it
//                meets its deadline with probability >= C. With a forecast that
//                knows the nodes' availability in advance, a task's end is where its work
//                is done at the known capacity, not start + time (see Calculate).
//   dispatch     Algorithm IV: maps in queue order, data-local first (Hadoop's default);
//                a reduce slot goes to the first job in queue order with a ready reduce,
//                skipping it when the slots left are reserved for jobs ahead: all R of a
//                job not in its reduce stage yet, the pending reduces of one that is.
//   feedback     Algorithms V and VI: when a job ends at least ε away from its estimate (or
//                late), its vectors are rebuilt from the actual task finish times (SATU)
//                and every job after it is re-estimated. Off in "rtmr-nofb". Below
//                confidence 1, or once a loan re-planned the queue (extensions), a job's
//                end re-plans the queue from the cluster's state instead (PlanFromState).
//   lending      (with BackfillPolicy, an extension) a map slot goes to a best-effort task
//                ahead of admitted maps only if the whole queue, re-planned from the
//                cluster as it is with that slot busy until the task's worst-case end,
//                still meets every deadline; that re-plan becomes the queue's plan.
#pragma once

#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "sched/core/policy.h"
#include "sched/estimate/capacity_forecast.h"
#include "sched/estimate/cost_distribution.h"
#include "sched/estimate/estimator.h"
#include "sched/estimate/job_estimate.h"
#include "sched/policy/shared_vector.h"

namespace mrlocal {

struct RtmrOptions {
  bool feedback = true;
  // ε of Algorithm V; none: "a typical map task time", the finished job's median map time.
  std::optional<Duration> feedback_threshold;
  double estimate_margin = 1.0;  // multiplies every estimated task time (>= 1)
  // In (0, 1]: the probability with which an admitted job is planned to meet its deadline.
  // 1 is the paper's guarantee (every task at its worst case).
  double confidence = 1.0;
  // Failed attempts per job the guarantee covers (issue 19): each may cost a task's worst
  // case again, so the plan of every job holds this many extra tasks of each kind (a
  // failure may hit either stage). 0: the paper's fault-free guarantee.
  uint32_t fault_budget = 0;
};

class RtmrPolicy final : public Policy {
 public:
  // `estimator` gives the worst-case task times; it must outlive the policy (null: none).
  // A job it cannot estimate is rejected (the CLI probes a first-run estimate before
  // submitting). `forecast`: the run's capacity ahead; one that knows each node's
  // availability in advance (KnownForecast) is integrated into the estimates; null, or
  // one that does not, leaves the slots at the speeds the cluster shows.
  RtmrPolicy(const Estimator* estimator, RtmrOptions options = {},
             std::shared_ptr<const CapacityForecast> forecast = nullptr);

  std::string_view name() const override { return options_.feedback ? "rtmr" : "rtmr-nofb"; }
  bool admission_control() const override { return true; }
  Admission Admit(const JobState& job, const ClusterState& state, Time now) override;
  std::optional<TaskRef> PickTask(const SlotInfo& slot, const ClusterState& state,
                                  Time now) override;
  void OnJobFinished(const JobState& job, const ClusterState& state, Time now) override;
  bool LendSlot(const SlotInfo& slot, const JobState& job, Time start, const ClusterState& state,
                Time now) override;
  void ReturnSlot(SlotId slot) override { loans_.erase(slot); }
  // Algorithm IV dispatches a job's reduces once its map stage has ended, as Algorithm III
  // (line 5: rt1 = max(rt1, e_m)) plans them: a reduce launched earlier would hold a slot
  // the admission test gave to another job.
  bool uses_reduce_slowstart() const override { return false; }
  std::string_view speculation_veto() const override {
    return "rtmr reserves slots for each admitted job's worst case; a speculative copy would "
           "take slot time it promised (--fault-budget covers failed attempts instead)";
  }

  // For tests and reports: the queue (started jobs first), and a job's current estimate
  // of its finish (none once it left the queue).
  std::vector<JobId> queue() const;
  std::optional<Time> EstimatedFinish(JobId job) const;
  uint64_t feedback_updates() const { return feedback_updates_; }

 private:
  // When a slot is free in a plan. At confidence 1, `worst`: every task planned on it at
  // its worst case, as in the paper. Below 1 it is also the sum of the tasks planned on it
  // since `anchor` (when it was known to be free, or a start the plan waited for), as a
  // random time (sched/estimate/cost_distribution.h); `at` is then where that sum ends
  // with probability >= 1 - δ, and never after `worst`.
  struct SlotEnd {
    Time at{0};          // the heap's key
    uint32_t chain = 0;  // in SlotTimes::chains
  };
  struct Chain {
    Time worst{0};
    Time anchor{0};
    ChainTail tail;
  };
  // A min-heap of slot free times (Algorithms II, III and VI only ever take the smallest),
  // and below confidence 1 each slot's chain, kept apart so that the heap stays small (at
  // confidence 1 there is none: `at` is the worst case). Copies share until changed.
  struct SlotTimes {
    SharedVector<SlotEnd> heap;
    SharedVector<Chain> chains;
    bool keeps_chains = false;  // below confidence 1
    bool empty() const { return heap.empty(); }
    SlotEnd PopSmallest();
    void Push(const SlotEnd& s);
    // `s`'s slot is free at `t` for sure: its chain starts again there.
    void Restart(SlotEnd& s, Time t);
    // A slot more, free at `t`.
    void Add(Time t);
  };
  struct FreeSlots {
    SlotTimes map, reduce;  // T^m, T^r
  };
  // What of a queued job is left to plan: its tasks not started, and when its started
  // maps and reduces end at the latest.
  struct Remaining {
    uint32_t maps = 0, reduces = 0;
    Time map_end{0}, reduce_end{0};
  };
  struct Entry {
    JobId id = 0;
    Time deadline{0};  // absolute, A + D; Time::max() for a job without one
    uint32_t maps = 0, reduces = 0;
    JobEstimate estimate;
    // φ_m and φ_r as work (seconds at speed 1.0), for the forecast's TaskEnd.
    double map_work = 0, reduce_work = 0;
    // Below confidence 1: a task's time as ChainTail adds it, one per kind.
    TaskCumulants map_cumulants{}, reduce_cumulants{};
    Time finish{0};  // e, its estimated finish
    // Its vectors J.T^m, J.T^r are Plan(this job, `input`, planned_at, left), `input` its
    // predecessor's. Few are stored: re-planning the whole queue, as a job admitted at
    // the head does, then writes no vectors per job. `input` is kept for the first job of
    // a re-plan, every kInputEvery-th after it, a job admitted, and where the job's
    // predecessor changed since (PinInput); else it is the previous job's vectors,
    // recomputed (PlanOf). `output`, its own vectors, is kept where it costs no copy: by a
    // job admitted, and by the last job of a re-plan.
    std::optional<FreeSlots> input, output;
    Time planned_at{0};
    Remaining left;
  };
  static constexpr size_t kInputEvery = 16;
  // A re-plan of queue_[from..] (Propagate): each job's finish, the vectors the
  // kInputEvery-th ones started from, and the vectors of the job asked to keep and of the
  // last one.
  struct Run {
    std::vector<Time> finish;
    std::vector<FreeSlots> inputs;
    std::optional<FreeSlots> kept, last;
  };
  // PlanFromState's result: the slots before the queue, what was left of each job, the run.
  struct Replan {
    FreeSlots base;
    std::vector<Remaining> left;
    Run run;
  };

  // Algorithms II and III: plans what is `left` of `job` on `slots` (its predecessor's
  // vectors, which become its own) at `now`, and returns its finish.
  Time Plan(const Entry& job, FreeSlots& slots, Time now, const Remaining& left) const;
  static Remaining AllOf(const Entry& job, Time now) { return {job.maps, job.reduces, now, now}; }
  // A slot whose task of `job` started at `start` and still runs: pushed into `slots` free
  // where that task ends at the latest, which is returned.
  Time AddRunning(const Entry& job, SlotKind kind, Time start, Time now, SlotTimes& slots) const;
  // The queue re-planned from the cluster as it is now: every slot free when its task ends
  // at its worst (now when it is free or runs best-effort work, which gives way; a lent
  // slot when its loan ends), then what is left of each job in queue order. False when a
  // job would miss its deadline.
  bool PlanFromState(const ClusterState& state, Time now, Replan& out) const;
  // Makes PlanFromState's results the queue's plans.
  void StorePlan(Replan& replan, Time now);
  // When a task of the job's `kind` that starts at `start` ends at the latest.
  Time TaskEnd(const Entry& job, SlotKind kind, Time start) const;
  // Calls `f` with how the job's tasks of `kind` end (Ends: End(start), and
  // ChainEnd(anchor, seconds) for a chain's bound), with or without the forecast.
  template <typename F>
  decltype(auto) WithEnds(const Entry& job, SlotKind kind, F&& f) const;
  // One stage of Plan: `tasks` tasks on `slots`, each on the slot free first, started no
  // earlier than `floor`; returns the latest end, at least `end`.
  template <typename Ends>
  Time PlanStage(SlotTimes& slots, uint32_t tasks, Time floor, Time end, const Ends& ends,
                 const TaskCumulants& cumulants) const;
  // The fault budget (RtmrOptions::fault_budget): `failures` more tasks on the slot that
  // ends the stage last, each a failed attempt's re-run; returns the stage's new end.
  template <typename Ends>
  Time PlanRetries(SlotTimes& slots, uint32_t failures, Time floor, Time end, const Ends& ends,
                   const TaskCumulants& cumulants) const;
  // Plans one task on slot `s`, started no earlier than `floor`. Below confidence 1
  // `chains` are the slots' chains (else null), and the slot's gains the task's `cumulants`.
  template <typename Ends>
  void PlanTask(const Ends& ends, const TaskCumulants& cumulants, Time floor, Chain* chains,
                SlotEnd& s) const;
  // queue_[pos]'s vectors, kept or recomputed from the nearest ones kept before it.
  FreeSlots PlanOf(size_t pos) const;
  // The vectors queue_[pos]'s plan started from.
  FreeSlots InputOf(size_t pos) const;
  // Keeps queue_[pos]'s input, before its predecessor changes.
  void PinInput(size_t pos);
  // The vectors a job entering at queue position `pos` starts from: its predecessor's; at
  // the head, the latest started job's (it may have left the queue); else all zeros.
  FreeSlots PredecessorVectors(size_t pos) const;
  // Where a job with this deadline enters: after every started job and every unstarted one
  // with an earlier or equal deadline.
  size_t InsertionPoint(Time deadline) const;
  // Re-plans queue_[from..] in order at `now`, the first from `slots`, of each job what
  // `left` says (indexed from `from`; null: all of it); keeps queue_[keep]'s vectors. With
  // `first_miss`, stops at the first job that would miss (false, its position stored; its
  // finish is the last in `run`).
  bool Propagate(size_t from, FreeSlots slots, Time now, const std::vector<Remaining>* left,
                 size_t keep, Run& run, size_t* first_miss) const;
  // Makes a Propagate's run (with the same `now` and `left`) queue_[from..]'s plans.
  void StoreRun(size_t from, Time now, const std::vector<Remaining>* left, Run& run);
  // The entry for `job`, with its estimate and, below confidence 1, its cumulants; none if
  // it cannot be estimated.
  std::optional<Entry> MakeEntry(const JobState& job, const ClusterState& state) const;
  // On the first admission: the zero vectors and δ, from the cluster's slots.
  void InitSlots(const ClusterState& state);
  // For a rejected job: the fewest nodes of (1m,1r,1.0) added now that would fit it.
  std::optional<int> ExtraNodesNeeded(const Entry& job, const FreeSlots& pred, Time now) const;
  // "at confidence C; " below confidence 1, for messages; else empty.
  std::string ConfidenceNote() const;
  void MarkStarted(size_t pos);
  void Feedback(const JobState& job, size_t pos, Time now);

  const Estimator* estimator_;
  RtmrOptions options_;
  std::shared_ptr<const CapacityForecast> forecast_;
  std::vector<Entry> queue_;  // started jobs in start order, then EDF
  size_t started_ = 0;        // queue_[0, started_) have started
  JobId latest_started_id_ = 0;
  std::optional<FreeSlots> latest_started_;
  FreeSlots zero_;            // l and q zeros: the vectors before any job
  double log_inv_delta_ = 0;  // ln(1 / δ), δ = (1 - C) / slots; infinite at C = 1
  uint64_t feedback_updates_ = 0;
  std::unordered_map<SlotId, Time> loans_;  // slots lent to best-effort tasks: until when
  bool planned_from_state_ = false;         // StorePlan ran: the vectors are not the paper's
};

}  // namespace mrlocal
