// Slots shared among queues in proportion to what each bids: the Dynamic Priority scheduler
// (`dynprio`; Sandholm and Lai, "Dynamic Proportional Share Scheduling in Hadoop", section
// 3.1) and its static baseline, Hadoop's Capacity Scheduler (`capacity`).
//
//   interval     every allocation interval (default 20 s, inside the paper's "10 seconds to
//                1 minute") the shares are set from the bids then in force: price
//                p = sum of the bids s_i of the queues with work (an admitted job not yet
//                finished) and money left; queue i is entitled to s_i / p of the c map
//                slots and of the c reduce slots. Rounded by largest remainder (Hamilton):
//                each gets floor(s_i c / p), and the slots left over go to the largest
//                fractions (ties: the higher bid, then the queue declared first), so the
//                paper's example, bids 4, 1.5 and 2 on 15 slots, is exactly 8, 3 and 4.
//                A queue that gains or loses its work mid-interval has the shares re-set
//                at once, with the interval's bids (the paper: no allocation for a user
//                with nothing pending or running).
//   paying       at the interval's end queue i pays s_i x (slot time its attempts used in
//                the interval) / (the interval's length): its bid per slot per interval,
//                at the bid in force when the interval started. A queue pays at most what
//                it has left; the slot time beyond it is used unpaid. Money is counted in
//                micro-credits (QueueLedger), so every statement adds up exactly.
//   enforcing    a free slot goes to the queue furthest below its share (running / exact
//                share, lowest first) among the paying queues with a pending task of the
//                slot's kind; then, work-conserving, to the paying queues over their share
//                in the same order; then to the queues that pay nothing (bid 0, budget
//                spent, closed), FIFO by their oldest waiting job (budget 0 -> FIFO).
//                Within a queue its jobs go FIFO: a data-local map first, reduces by
//                PickReduceFor.
//   preempting   with `preempt` set: when a paying queue with pending work holds fewer
//                slots of a kind than its share and no slot of that kind is free, and this
//                has lasted `preempt`, attempts of the queues over their share are killed
//                and requeued (they restart from the beginning, as Hadoop's do): from the
//                queue furthest over its share, its latest-started attempt first (the
//                least work lost), as many as the starved queues lack.
//   capacity     the same enforcement and preemption over static shares: each open queue's
//                bid / the sum of all open queues' bids, whether it has work or not (idle
//                capacity is lent and reclaimed by preemption); no money changes hands.
//   changes      announced changes (QueueSetup::events) apply at their time: a new bid
//                from the next interval (the paper prices an interval at the bids of the
//                one before), a budget added, a queue opened or closed, at once.
//   boosts       a job that gives its own bid (JobSpec::bid, section 4.4's "4x boost for
//                job n") makes its queue bid that, from the next interval, while it is in
//                the system (the highest, when several are); capacity's shares stay fixed.
//
// Admits every job: it makes no deadline promise.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "sched/core/policy.h"
#include "sched/core/queue_ledger.h"
#include "sched/core/queue_spec.h"

namespace mrlocal {

enum class ShareRule : uint8_t {
  kDynamic,  // dynprio: shares among the queues with work, paid from their budgets
  kStatic,   // capacity: fixed shares among the open queues, nothing paid
};

struct QueueShareOptions {
  ShareRule rule = ShareRule::kDynamic;
  Duration interval = std::chrono::seconds(20);
  std::optional<Duration> preempt;  // none: never preempt
  // The queues and their changes; null or empty: a queue opens at its first job, bidding 1
  // with no budget limit.
  std::shared_ptr<const QueueSetup> setup;
};

class QueueSharePolicy final : public Policy {
 public:
  QueueSharePolicy(std::string name, QueueShareOptions options);

  std::string_view name() const override { return name_; }
  std::string_view speculation_veto() const override {
    return "dynprio and capacity charge queues for the slots their tasks hold and preempt "
           "tasks to re-share them";
  }
  Admission Admit(const JobState& job, const ClusterState& state, Time now) override;
  void Dispatch(DispatchRound& round, const ClusterState& state, Time now) override;
  std::optional<TaskRef> PickTask(const SlotInfo& slot, const ClusterState& state,
                                  Time now) override;
  void OnTaskFinished(const TaskRecord& record, const ClusterState& state, Time now) override;
  void OnJobFinished(const JobState& job, const ClusterState& state, Time now) override;
  void OnTimer(TimerId id, const ClusterState& state, Time now) override;
  const QueueLedger* Ledger() const override { return &ledger_; }
  void ForgetLedgerIntervals(size_t count) override;
  Status ChangeQueue(const QueueEvent& event, const ClusterState& state, Time now) override;

 private:
  static constexpr int kKinds = 2;  // map, reduce
  // A queue as the policy runs it; its money and totals are in ledger_.accounts[i].
  struct Queue {
    double bid = 0;  // the bid of the current interval (QueueAccount::rate is the newest)
    std::vector<double> boosts;          // JobSpec::bid of its jobs in the system that give one
    bool paying = false;                 // has a share this interval: a bid > 0, money, open
    int jobs = 0;                        // admitted and not finished
    double share[kKinds] = {0, 0};       // exact: s_i c / p
    int entitled[kKinds] = {0, 0};       // rounded
    Duration used{0};                    // slot time in the current interval
    std::map<JobId, Duration> job_used;  // `used` by job
    Duration entitled_time{0};           // slot time entitled to in the current interval
    int running[kKinds] = {0, 0};        // scratch of a decision
    int pending[kKinds] = {0, 0};        // scratch of a decision
  };

  uint32_t QueueOf(const std::string& name, Time now);
  uint32_t Open(const QueueSpec& spec, Time now);
  // Has a share now: a bid > 0, open, and (dynprio) money left.
  bool Paying(uint32_t queue) const;
  // What it bids from the next interval: its rate, or under dynprio the highest bid of
  // its jobs in the system that give their own (the paper's boost).
  double NextBid(uint32_t queue) const;
  void Start(const ClusterState& state, Time now);
  void StartInterval(Time now);
  void CloseInterval(const ClusterState& state, Time now);
  // A queue's slot time `used` by `job` in the current interval.
  void AddUse(uint32_t queue, JobId job, Duration used);
  // Adds the shares in force since they were set to each queue's entitled slot time.
  void AccrueEntitlement(Time now);
  void SetShares(Time now);
  void Apply(const QueueEvent& event, Time now);
  // Each queue's running and pending tasks of `kind`, and the jobs with a pending one.
  void Tally(const ClusterState& state, SlotKind kind);
  void PreemptIfStarved(const ClusterState& state, SlotKind kind, Time now);

  std::string name_;
  QueueShareOptions options_;
  QueueLedger ledger_;
  std::vector<Queue> queues_;  // by account index
  std::unordered_map<std::string, uint32_t> queue_ids_;
  // Each job's queue, by JobId - first_job_ (the Controller numbers jobs 1, 2, ...): the
  // span from the oldest job in the system to the newest, not every job ever, so that a
  // service's memory stays flat. kNoQueue: finished (or never seen).
  static constexpr uint32_t kNoQueue = UINT32_MAX;
  std::vector<uint32_t> job_queue_;
  JobId first_job_ = 0;
  size_t finished_prefix_ = 0;  // job_queue_[0, this) are all kNoQueue
  bool InSystem(JobId id) const {
    return id >= first_job_ && id - first_job_ < job_queue_.size() &&
           job_queue_[id - first_job_] != kNoQueue;
  }
  uint32_t JobQueue(JobId id) const { return job_queue_[id - first_job_]; }
  void SetJobQueue(JobId id, uint32_t queue);
  void DropJobQueue(JobId id);
  bool started_ = false;
  int slots_[kKinds] = {0, 0};  // the cluster's map and reduce slots: c
  int active_jobs_ = 0;
  double price_ = 0;           // p of the shares in force
  double price_at_start_ = 0;  // p when the interval began
  bool interval_open_ = false;
  Time interval_start_{0};
  Time shares_since_{0};  // when the shares in force were set
  bool shares_stale_ = true;
  TimerId interval_timer_ = 0;
  std::unordered_map<TimerId, size_t> event_timers_;  // -> index in setup->events
  std::optional<Time> starved_since_[kKinds];
  TimerId starve_timer_[kKinds] = {0, 0};
  std::vector<TaskRef> preempting_;  // killed by us, not yet reported
  struct Candidate {
    uint32_t queue;
    JobId job;
    const JobState* state;
  };
  std::vector<Candidate> candidates_;  // scratch, reused
  // A queue's place in a decision: tier (below its share, over it, unpaid), then running /
  // exact share, then the higher bid. Scratch, by queue.
  struct QueueOrder {
    int tier;
    double load;
    double minus_bid;
  };
  std::vector<QueueOrder> queue_order_;
};

}  // namespace mrlocal
