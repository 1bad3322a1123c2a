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
  // confidence 1 there is none: `at` is the worst case). Each queued job keeps its own
  // and its predecessor's, equal to another job's: shared until changed.
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
  using Vectors = std::pair<const SlotTimes*, const SlotTimes*>;  // T^m, T^r
  struct Estimate {
    SlotTimes map_free, reduce_free;
    Time finish{0};
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
    Estimate plan;                              // J.T^m, J.T^r and e
    SlotTimes pred_map_free, pred_reduce_free;  // its predecessor's, that plan came from
  };

  // What of a queued job is left to plan: its tasks not started, and when its started
  // maps and reduces end at the latest.
  struct Remaining {
    uint32_t maps = 0, reduces = 0;
    Time map_end{0}, reduce_end{0};
  };
  // Algorithms II and III from the predecessor's vectors: all of the job's tasks, or what
  // is left of them.
  Estimate Calculate(const Entry& job, const SlotTimes& map_free, const SlotTimes& reduce_free,
                     Time now) const;
  Estimate Calculate(const Entry& job, const SlotTimes& map_free, const SlotTimes& reduce_free,
                     Time now, const Remaining& left) const;
  // A slot whose task of `job` started at `start` and still runs: pushed into `slots` free
  // where that task ends at the latest, which is returned.
  Time AddRunning(const Entry& job, SlotKind kind, Time start, Time now, SlotTimes& slots) const;
  // The queue re-planned from the cluster as it is now: every slot free when its task ends
  // at its worst (now when it is free or runs best-effort work, which gives way; a lent
  // slot when its loan ends), then what is left of each job in queue order. False when a
  // job would miss its deadline; else `base` (the slots before the queue) and `plans`.
  bool PlanFromState(const ClusterState& state, Time now, Estimate& base,
                     std::vector<Estimate>& plans) const;
  // Makes PlanFromState's results the queue's vectors.
  void StorePlan(Estimate base, std::vector<Estimate>& plans);
  // When a task of the job's `kind` that starts at `start` ends at the latest.
  Time TaskEnd(const Entry& job, SlotKind kind, Time start) const;
  // Plans one task of the job's `kind` on slot `s` of `slots`, started no earlier than
  // `floor`.
  void PlanTask(const Entry& job, SlotKind kind, Time floor, SlotTimes& slots, SlotEnd& s) const;
  // Where `chain` ends with probability >= 1 - δ; `job` gives the work a second on its
  // slowest slot stands for.
  Time ChainEnd(const Entry& job, SlotKind kind, const Chain& chain) const;
  // The vectors a job at queue position `pos` starts from: its predecessor's; at the head,
  // the latest started job's (it may have left the queue); else all zeros.
  Vectors PredecessorVectors(size_t pos) const;
  // Where a job with this deadline enters: after every started job and every unstarted one
  // with an earlier or equal deadline.
  size_t InsertionPoint(Time deadline) const;
  // Re-estimates queue_[from..] in order, the first from the given vectors. With
  // `first_miss`, stops at the first job that would miss (false, its position stored; its
  // estimate is the last in `out`).
  bool Propagate(size_t from, const SlotTimes* map_free, const SlotTimes* reduce_free, Time now,
                 std::vector<Estimate>* out, size_t* first_miss) const;
  // Keeps Propagate's results as queue_[from..]'s vectors.
  void StoreSuccessors(size_t from, std::vector<Estimate>& estimates);
  // For a rejected job: the fewest nodes of (1m,1r,1.0) added now that would fit it.
  std::optional<int> ExtraNodesNeeded(const Entry& job, Vectors pred, Time now) const;
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
  std::optional<Estimate> latest_started_;
  SlotTimes zero_map_, zero_reduce_;  // l and q zeros: the vectors before any job
  double log_inv_delta_ = 0;          // ln(1 / δ), δ = (1 - C) / slots; infinite at C = 1
  uint64_t feedback_updates_ = 0;
  std::unordered_map<SlotId, Time> loans_;  // slots lent to best-effort tasks: until when
  bool planned_from_state_ = false;          // StorePlan ran: the vectors are not the paper's
};

}  // namespace mrlocal
