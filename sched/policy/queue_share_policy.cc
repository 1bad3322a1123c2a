#include "sched/policy/queue_share_policy.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <tuple>

#include "sched/core/units.h"
#include "sched/policy/job_cursor.h"
#include "sched/policy/pick_in_order.h"

namespace mrlocal {
namespace {

// `charge` split among the jobs in proportion to the slot time each used: each gets the
// floor of its exact part, and the micro-credits left over go one each to the largest
// remainders (ties: the lower job id), so that the parts add up to `charge` exactly.
std::vector<JobCharge> SplitCharge(const std::map<JobId, Duration>& used, MicroCredits charge) {
  std::vector<JobCharge> parts;
  double total = 0;
  for (const auto& [job, d] : used) total += Seconds(d);
  std::vector<std::pair<double, size_t>> remainders;
  MicroCredits given = 0;
  for (const auto& [job, d] : used) {
    const double exact = total > 0 ? static_cast<double>(charge) * Seconds(d) / total : 0;
    const auto floor = static_cast<MicroCredits>(exact);
    parts.push_back({job, Seconds(d), floor});
    given += floor;
    remainders.emplace_back(exact - static_cast<double>(floor), parts.size() - 1);
  }
  std::stable_sort(remainders.begin(), remainders.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t i = 0; given < charge && !remainders.empty(); i = (i + 1) % remainders.size()) {
    ++parts[remainders[i].second].charge;
    ++given;
  }
  // Rounding of the exact parts can floor one above its true value: take it back.
  for (size_t i = 0; given > charge && i < parts.size(); ++i) {
    const MicroCredits back = std::min(parts[i].charge, given - charge);
    parts[i].charge -= back;
    given -= back;
  }
  return parts;
}

int KindIndex(SlotKind kind) { return kind == SlotKind::kMap ? 0 : 1; }

// Largest remainder (Hamilton): `slots` split among `quotas` (exact shares summing to
// `slots`, or all zero) so that each gets its quota rounded down or up and the rounded
// shares sum to `slots`. Ties of the remainder: the higher bid, then the lower index.
std::vector<int> RoundShares(const std::vector<double>& quotas, const std::vector<double>& bids,
                             int slots) {
  std::vector<int> out(quotas.size(), 0);
  int given = 0;
  std::vector<size_t> order;
  for (size_t i = 0; i < quotas.size(); ++i) {
    if (!(quotas[i] > 0)) continue;
    // A quota a rounding error below a whole number is that number.
    out[i] = static_cast<int>(std::floor(quotas[i] + 1e-9));
    given += out[i];
    order.push_back(i);
  }
  if (order.empty()) return out;
  auto fraction = [&](size_t i) { return quotas[i] - out[i]; };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::make_tuple(fraction(a), bids[a]) > std::make_tuple(fraction(b), bids[b]);
  });
  for (size_t k = 0; given < slots && k < order.size(); ++k, ++given) ++out[order[k]];
  return out;
}

}  // namespace

QueueSharePolicy::QueueSharePolicy(std::string name, QueueShareOptions options)
    : name_(std::move(name)), options_(std::move(options)) {
  ledger_.interval_s = Seconds(options_.interval);
  if (options_.setup)
    for (const QueueSpec& q : options_.setup->queues) Open(q, Time{0});
}

uint32_t QueueSharePolicy::Open(const QueueSpec& spec, Time now) {
  const auto index = static_cast<uint32_t>(ledger_.accounts.size());
  QueueAccount account;
  account.name = spec.name;
  account.unlimited = !spec.budget.has_value();
  account.opening = spec.budget ? ToMicroCredits(*spec.budget) : 0;
  account.opened = now;
  account.rate = spec.rate;
  ledger_.accounts.push_back(std::move(account));
  Queue q;
  q.bid = spec.rate;
  queues_.push_back(q);
  queue_ids_[spec.name] = index;
  shares_stale_ = true;
  return index;
}

// A queue no one declared: with declared queues it pays nothing (bid 0), so a job that
// names no queue of the run's never takes a paid share; without any, every queue a job
// names bids 1 with no budget limit (dynprio is then fair sharing among queues).
uint32_t QueueSharePolicy::QueueOf(const std::string& name, Time now) {
  auto it = queue_ids_.find(name);
  if (it != queue_ids_.end()) return it->second;
  const bool declared = options_.setup && !options_.setup->queues.empty();
  return Open({name, std::nullopt, declared ? 0.0 : 1.0}, now);
}

void QueueSharePolicy::Start(const ClusterState& state, Time now) {
  started_ = true;
  for (const SlotState& s : state.slots) ++slots_[KindIndex(s.info.kind)];
  if (!options_.setup || !host()) return;
  const auto& events = options_.setup->events;
  for (size_t i = 0; i < events.size(); ++i) {
    if (events[i].at <= now) {
      Apply(events[i], now);  // announced for before the first job: in force already
    } else {
      event_timers_[host()->WakeAt(events[i].at)] = i;
    }
  }
}

Admission QueueSharePolicy::Admit(const JobState& job, const ClusterState& state, Time now) {
  if (!started_) Start(state, now);
  const uint32_t q = QueueOf(job.spec.queue, now);
  SetJobQueue(job.id, q);
  ++ledger_.accounts[q].jobs;
  if (queues_[q].jobs++ == 0) shares_stale_ = true;
  if (job.spec.bid) queues_[q].boosts.push_back(*job.spec.bid);
  ++active_jobs_;
  if (!interval_open_) StartInterval(now);
  const QueueAccount& a = ledger_.accounts[q];
  std::string why = name_ + " admits every job: queue '" + a.name + "'";
  if (options_.rule == ShareRule::kDynamic) {
    why += " bids " + FormatNumber(a.rate) + " per slot per interval";
    if (job.spec.bid)
      why += " (this job: " + FormatNumber(*job.spec.bid) + ", from the next interval)";
    if (!a.unlimited) why += ", " + FormatCredits(a.balance()) + " left";
  } else {
    why += " has a fixed share in proportion to its bid " + FormatNumber(a.rate);
  }
  return Admission::Yes(std::move(why));
}

bool QueueSharePolicy::Paying(uint32_t i) const {
  const QueueAccount& a = ledger_.accounts[i];
  if (a.closed || !(queues_[i].bid > 0)) return false;
  return options_.rule == ShareRule::kStatic || a.unlimited || a.balance() > 0;
}

double QueueSharePolicy::NextBid(uint32_t i) const {
  const std::vector<double>& boosts = queues_[i].boosts;
  if (options_.rule == ShareRule::kStatic || boosts.empty()) return ledger_.accounts[i].rate;
  return *std::max_element(boosts.begin(), boosts.end());
}

void QueueSharePolicy::StartInterval(Time now) {
  interval_open_ = true;
  interval_start_ = now;
  for (uint32_t i = 0; i < queues_.size(); ++i) {
    queues_[i].bid = NextBid(i);
    queues_[i].used = Duration{0};
    queues_[i].job_used.clear();
    queues_[i].entitled_time = Duration{0};
  }
  shares_since_ = now;
  SetShares(now);
  price_at_start_ = price_;
  if (host()) interval_timer_ = host()->WakeAt(now + options_.interval);
}

void QueueSharePolicy::AccrueEntitlement(Time now) {
  const Duration held = now - shares_since_;
  for (Queue& q : queues_) q.entitled_time += (q.entitled[0] + q.entitled[1]) * held;
  shares_since_ = now;
}

void QueueSharePolicy::SetShares(Time now) {
  AccrueEntitlement(now);
  shares_stale_ = false;
  std::vector<double> bids(queues_.size(), 0);
  for (size_t i = 0; i < queues_.size(); ++i) {
    queues_[i].paying = Paying(static_cast<uint32_t>(i));
    // dynprio prices the queues with work; capacity shares among all open ones.
    const bool in =
        queues_[i].paying && (options_.rule == ShareRule::kStatic || queues_[i].jobs > 0);
    bids[i] = in ? queues_[i].bid : 0;
  }
  price_ = std::accumulate(bids.begin(), bids.end(), 0.0);
  for (int k = 0; k < kKinds; ++k) {
    std::vector<double> quotas(queues_.size(), 0);
    if (price_ > 0)
      for (size_t i = 0; i < queues_.size(); ++i) quotas[i] = bids[i] / price_ * slots_[k];
    const std::vector<int> rounded = RoundShares(quotas, bids, slots_[k]);
    for (size_t i = 0; i < queues_.size(); ++i) {
      queues_[i].share[k] = quotas[i];
      queues_[i].entitled[k] = rounded[i];
    }
  }
}

void QueueSharePolicy::CloseInterval(const ClusterState& state, Time now) {
  if (!interval_open_) return;
  interval_open_ = false;
  if (host() && interval_timer_) host()->CancelWake(interval_timer_);
  interval_timer_ = 0;
  // The attempts still running used their slots up to now.
  for (const SlotState& s : state.slots) {
    if (!s.task || !InSystem(s.task->job)) continue;
    const TaskState& t = state.job(s.task->job).task(s.task->kind, s.task->index);
    AddUse(JobQueue(s.task->job), s.task->job, now - std::max(t.start, interval_start_));
  }
  AccrueEntitlement(now);
  QueueInterval interval{interval_start_, now, price_at_start_, {}};
  const double per_slot_s = 1.0 / Seconds(options_.interval);
  for (uint32_t i = 0; i < queues_.size(); ++i) {
    QueueAccount& a = ledger_.accounts[i];
    Queue& q = queues_[i];
    if (a.closed && *a.closed <= interval_start_) continue;  // closed before it began
    QueueCharge line;
    line.account = i;
    line.rate = q.bid;
    line.entitled_map_slots = q.entitled[0];
    line.entitled_reduce_slots = q.entitled[1];
    line.used_slot_s = Seconds(q.used);
    line.entitled_slot_s = Seconds(q.entitled_time);
    // Its bid per slot per interval, for the slot time it used; at most what it has.
    MicroCredits due = 0;
    if (options_.rule == ShareRule::kDynamic && !a.closed && q.bid > 0)
      due = ToMicroCredits(q.bid * line.used_slot_s * per_slot_s);
    line.charge = a.unlimited ? due : std::clamp<MicroCredits>(a.balance(), 0, due);
    line.paid_slot_s =
        due > 0 ? line.used_slot_s * static_cast<double>(line.charge) / static_cast<double>(due)
                : 0;
    a.spent += line.charge;
    line.balance = a.unlimited ? 0 : a.balance();
    line.jobs = SplitCharge(q.job_used, line.charge);
    a.used_slot_s += line.used_slot_s;
    a.paid_slot_s += line.paid_slot_s;
    a.entitled_slot_s += line.entitled_slot_s;
    interval.lines.push_back(line);
  }
  ledger_.intervals.push_back(std::move(interval));
}

void QueueSharePolicy::ForgetLedgerIntervals(size_t count) {
  auto& intervals = ledger_.intervals;
  intervals.erase(intervals.begin(), intervals.begin() + std::min(count, intervals.size()));
}

void QueueSharePolicy::SetJobQueue(JobId id, uint32_t queue) {
  if (job_queue_.empty()) {
    first_job_ = id;
    finished_prefix_ = 0;
  }
  if (id < first_job_) {  // not expected (ids arrive in order), but kept correct
    job_queue_.insert(job_queue_.begin(), first_job_ - id, kNoQueue);
    first_job_ = id;
    finished_prefix_ = 0;
  }
  if (id - first_job_ >= job_queue_.size()) job_queue_.resize(id - first_job_ + 1, kNoQueue);
  job_queue_[id - first_job_] = queue;
}

void QueueSharePolicy::DropJobQueue(JobId id) {
  job_queue_[id - first_job_] = kNoQueue;
  while (finished_prefix_ < job_queue_.size() && job_queue_[finished_prefix_] == kNoQueue)
    ++finished_prefix_;
  // Amortized O(1): the finished prefix goes once it is half the span.
  if (finished_prefix_ >= 1024 && 2 * finished_prefix_ >= job_queue_.size()) {
    job_queue_.erase(job_queue_.begin(),
                     job_queue_.begin() + static_cast<ptrdiff_t>(finished_prefix_));
    first_job_ += finished_prefix_;
    finished_prefix_ = 0;
  }
}

void QueueSharePolicy::AddUse(uint32_t queue, JobId job, Duration used) {
  queues_[queue].used += used;
  queues_[queue].job_used[job] += used;
}

Status QueueSharePolicy::ChangeQueue(const QueueEvent& event, const ClusterState& state, Time now) {
  if (!started_) Start(state, now);
  Apply(event, now);
  return Status::OK();
}

void QueueSharePolicy::Apply(const QueueEvent& event, Time now) {
  auto it = queue_ids_.find(event.queue.name);
  const bool open = it != queue_ids_.end() && !ledger_.accounts[it->second].closed;
  switch (event.kind) {
    case QueueEvent::Kind::kAddQueue:
      if (!open) Open(event.queue, now);
      return;
    case QueueEvent::Kind::kSetRate:
      // In force from the next interval: this one is priced at the bids it began with.
      if (open) ledger_.accounts[it->second].rate = event.value;
      return;
    case QueueEvent::Kind::kAddBudget:
      if (open && !ledger_.accounts[it->second].unlimited) {
        ledger_.accounts[it->second].added += ToMicroCredits(event.value);
        shares_stale_ = true;  // a queue out of money may pay again
      }
      return;
    case QueueEvent::Kind::kRemoveQueue:
      if (open) {
        ledger_.accounts[it->second].closed = now;
        shares_stale_ = true;
      }
      return;
  }
}

void QueueSharePolicy::OnTimer(TimerId id, const ClusterState& state, Time now) {
  if (id == interval_timer_) {
    interval_timer_ = 0;
    CloseInterval(state, now);
    if (active_jobs_ > 0) StartInterval(now);
  } else if (auto e = event_timers_.find(id); e != event_timers_.end()) {
    Apply(options_.setup->events[e->second], now);
    event_timers_.erase(e);
  } else {
    for (int k = 0; k < kKinds; ++k)
      if (id == starve_timer_[k]) starve_timer_[k] = 0;  // the Dispatch that follows checks
  }
}

void QueueSharePolicy::OnTaskFinished(const TaskRecord& record, const ClusterState&, Time) {
  if (!InSystem(record.task.job)) return;
  if (interval_open_)
    AddUse(JobQueue(record.task.job), record.task.job,
           record.end - std::max(record.start, interval_start_));
  auto killed = std::find(preempting_.begin(), preempting_.end(), record.task);
  if (!record.ok && killed != preempting_.end()) {
    preempting_.erase(killed);
    ++ledger_.preempted_attempts;
    ledger_.preempted_slot_s += Seconds(record.end - record.start);
  }
}

void QueueSharePolicy::OnJobFinished(const JobState& job, const ClusterState& state, Time now) {
  if (!InSystem(job.id)) return;
  Queue& q = queues_[JobQueue(job.id)];
  DropJobQueue(job.id);
  if (--q.jobs == 0) shares_stale_ = true;
  if (job.spec.bid) q.boosts.erase(std::find(q.boosts.begin(), q.boosts.end(), *job.spec.bid));
  // The last job's attempts have all reported: its interval is paid for now, not at a
  // wake-up after the run.
  if (--active_jobs_ == 0) CloseInterval(state, now);
}

void QueueSharePolicy::Tally(const ClusterState& state, SlotKind kind) {
  const int k = KindIndex(kind);
  for (Queue& q : queues_) q.running[k] = q.pending[k] = 0;
  candidates_.clear();
  JobCursor jobs(state.jobs);
  for (JobId id : kind == SlotKind::kMap ? state.active : state.reducing) {
    const JobState& job = jobs[id];
    Queue& q = queues_[JobQueue(id)];
    const uint32_t pending = k == 0 ? job.maps_pending() : job.reduces_pending();
    q.running[k] += static_cast<int>(k == 0 ? job.maps_running : job.reduces_running);
    q.pending[k] += static_cast<int>(pending);
    if (pending > 0) candidates_.push_back({JobQueue(id), id, &job});
  }
}

void QueueSharePolicy::Dispatch(DispatchRound& round, const ClusterState& state, Time now) {
  if (shares_stale_) SetShares(now);
  Policy::Dispatch(round, state, now);
  if (options_.preempt)
    for (SlotKind kind : {SlotKind::kMap, SlotKind::kReduce}) PreemptIfStarved(state, kind, now);
}

std::optional<TaskRef> QueueSharePolicy::PickTask(const SlotInfo& slot, const ClusterState& state,
                                                  Time now) {
  if (shares_stale_) SetShares(now);
  const int k = KindIndex(slot.kind);
  Tally(state, slot.kind);
  // Paying queues below their share first, furthest below first; then the paying ones over
  // it, in the same order; then the queues that pay nothing, FIFO. Within a queue, FIFO
  // (candidates_ are in arrival order).
  // The queues' order is computed once per decision, not per comparison of two jobs.
  constexpr double kUnpaid = std::numeric_limits<double>::infinity();
  queue_order_.resize(queues_.size());
  for (size_t i = 0; i < queues_.size(); ++i) {
    const Queue& q = queues_[i];
    queue_order_[i] =
        !q.paying || !(q.share[k] > 0)
            ? QueueOrder{2, kUnpaid, 0.0}
            : QueueOrder{q.running[k] < q.entitled[k] ? 0 : 1, q.running[k] / q.share[k], -q.bid};
  }
  auto before = [&](const Candidate& a, const Candidate& b) {
    const QueueOrder &qa = queue_order_[a.queue], &qb = queue_order_[b.queue];
    return std::tie(qa.tier, qa.load, qa.minus_bid, a.job) <
           std::tie(qb.tier, qb.load, qb.minus_bid, b.job);
  };
  return PickInOrder(candidates_, before, slot, state);
}

void QueueSharePolicy::PreemptIfStarved(const ClusterState& state, SlotKind kind, Time now) {
  const int k = KindIndex(kind);
  const TaskKind task_kind = k == 0 ? TaskKind::kMap : TaskKind::kReduce;
  if (std::any_of(preempting_.begin(), preempting_.end(),
                  [&](const TaskRef& t) { return t.kind == task_kind; }))
    return;  // the last kills have not reported yet: their slots are on their way
  Tally(state, kind);
  const bool slot_free =
      std::any_of(state.slots.begin(), state.slots.end(),
                  [&](const SlotState& s) { return s.info.kind == kind && !s.task; });
  int lacking = 0;
  for (const Queue& q : queues_)
    if (q.paying && q.pending[k] > 0 && q.running[k] < q.entitled[k])
      lacking += std::min(q.pending[k], q.entitled[k] - q.running[k]);
  if (lacking == 0 || slot_free) {
    starved_since_[k].reset();
    if (starve_timer_[k] && host()) host()->CancelWake(starve_timer_[k]);
    starve_timer_[k] = 0;
    return;
  }
  if (!starved_since_[k]) {
    starved_since_[k] = now;
    if (host()) starve_timer_[k] = host()->WakeAt(now + *options_.preempt);
    return;
  }
  if (now - *starved_since_[k] < *options_.preempt) return;
  starved_since_[k].reset();
  // Victims: the running attempts of queues over their share, the latest started first.
  struct Running {
    Time start;
    TaskRef task;
    uint32_t queue;
  };
  std::vector<Running> running;
  for (const SlotState& s : state.slots) {
    if (s.info.kind != kind || !s.task) continue;
    const TaskState& t = state.job(s.task->job).task(s.task->kind, s.task->index);
    running.push_back({t.start, *s.task, JobQueue(s.task->job)});
  }
  std::stable_sort(running.begin(), running.end(),
                   [](const Running& a, const Running& b) { return a.start > b.start; });
  std::vector<int> excess(queues_.size());
  for (size_t i = 0; i < queues_.size(); ++i)
    excess[i] = queues_[i].running[k] - (queues_[i].paying ? queues_[i].entitled[k] : 0);
  for (; lacking > 0; --lacking) {
    // The queue furthest over its share, then its latest-started attempt.
    const auto most = std::max_element(excess.begin(), excess.end());
    if (*most <= 0) break;
    const auto victim = std::find_if(running.begin(), running.end(), [&](const Running& r) {
      return r.queue == static_cast<uint32_t>(most - excess.begin());
    });
    if (victim == running.end()) break;
    if (host() && host()->Preempt(victim->task)) preempting_.push_back(victim->task);
    --*most;
    running.erase(victim);
  }
}

}  // namespace mrlocal
