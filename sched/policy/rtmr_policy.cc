#include "sched/policy/rtmr_policy.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <utility>

#include "sched/core/units.h"
#include "sched/policy/binary_heap.h"
#include "sched/policy/fifo_policy.h"

namespace mrlocal {
namespace {

constexpr Time kNoDeadline = Time::max();
// Extra nodes tried when suggesting how a rejected job could fit (binary search).
constexpr int kMaxExtraNodes = 1 << 16;

// Algorithm VI's loops: the finish times of `tasks` that are done, in ascending order, each
// replace the smallest entry of `slots`.
template <typename SlotTimes>
void ReplaceSmallestByFinishes(SlotTimes& slots, const std::vector<TaskState>& tasks) {
  std::vector<Time> ends;
  for (const TaskState& t : tasks)
    if (t.status == TaskStatus::kDone) ends.push_back(t.end);
  std::sort(ends.begin(), ends.end());
  for (Time t : ends) {
    if (slots.empty()) return;
    auto s = slots.PopSmallest();
    slots.Restart(s, t);
    slots.Push(s);
  }
}

std::string Describe(const JobState& job) {
  return "job " + std::to_string(job.id) +
         (job.spec.name.empty() ? "" : " (" + job.spec.name + ")");
}

constexpr auto kLater = [](const auto& a, const auto& b) { return a.at > b.at; };

}  // namespace

// Inline, as PlanTask: called per planned task, and a call passes the slot through memory.
inline RtmrPolicy::SlotEnd RtmrPolicy::SlotTimes::PopSmallest() {
  const SlotEnd s = HeapPop(heap.Own(), heap.size(), kLater);
  heap.pop_back();
  return s;
}

inline void RtmrPolicy::SlotTimes::Push(const SlotEnd& s) {
  heap.push_back(s);
  HeapPush(heap.Own(), heap.size() - 1, s, kLater);
}

inline void RtmrPolicy::SlotTimes::Restart(SlotEnd& s, Time t) {
  s.at = t;
  if (keeps_chains) chains[s.chain] = {t, t, {}};
}

void RtmrPolicy::SlotTimes::Add(Time t) {
  Push({t, static_cast<uint32_t>(heap.size())});
  if (keeps_chains) chains.push_back({t, t, {}});
}

std::string RtmrPolicy::ConfidenceNote() const {
  return options_.confidence < 1 ? "at confidence " + FormatNumber(options_.confidence) + "; "
                                 : "";
}

RtmrPolicy::RtmrPolicy(const Estimator* estimator, RtmrOptions options,
                       std::shared_ptr<const CapacityForecast> forecast)
    : estimator_(estimator), options_(options), forecast_(std::move(forecast)) {}

// Algorithms II and III add φ to a slot's free time. Under a known availability profile
// the task ends where its work is done instead: ∫ speed × availability = work from its
// start. Which slot it gets is the dispatcher's (Algorithm IV: whichever frees first), and
// a task that ends early on one node can send the next onto a node that is about to slow
// down, so the bound is the slot where it would end last; the vectors then stay
// anonymous, and actual free times stay below the estimated ones as in the paper.
Time RtmrPolicy::TaskEnd(const Entry& job, SlotKind kind, Time start) const {
  const bool map = kind == SlotKind::kMap;
  if (forecast_) {
    if (auto end = forecast_->LatestEndOf(kind, start, map ? job.map_work : job.reduce_work))
      return *end;
  }
  return start + (map ? job.estimate.map_task : job.estimate.reduce_task);
}

inline Time RtmrPolicy::ChainEnd(const Entry& job, SlotKind kind, const Chain& chain) const {
  const Time anchor = chain.anchor;
  const double seconds = chain.tail.Bound(log_inv_delta_);
  const bool map = kind == SlotKind::kMap;
  const double task_s = Seconds(map ? job.estimate.map_task : job.estimate.reduce_task);
  if (forecast_ && task_s > 0) {  // seconds on the slowest slot as it ran at admission
    const double work_per_s = (map ? job.map_work : job.reduce_work) / task_s;
    if (auto end = forecast_->LatestEndOf(kind, anchor, seconds * work_per_s)) return *end;
  }
  return anchor + FromSeconds(seconds);
}

inline void RtmrPolicy::PlanTask(const Entry& job, SlotKind kind, Time floor, SlotTimes& slots,
                                 SlotEnd& s) const {
  if (!slots.keeps_chains) {  // confidence 1: `at` is the worst case
    s.at = TaskEnd(job, kind, std::max(s.at, floor));
    return;
  }
  Chain& c = slots.chains[s.chain];
  const Time worst = TaskEnd(job, kind, std::max(c.worst, floor));
  // A slot planned free before the floor is free by then (at the plan's probability): its
  // chain starts again there.
  if (floor >= s.at) slots.Restart(s, floor);
  c.worst = worst;
  const bool map = kind == SlotKind::kMap;
  c.tail.Add(map ? job.map_cumulants : job.reduce_cumulants);
  s.at = std::min(c.worst, ChainEnd(job, kind, c));
}

// Algorithm II (map slots) then Algorithm III (reduce slots).
RtmrPolicy::Estimate RtmrPolicy::Calculate(const Entry& job, const SlotTimes& map_free,
                                           const SlotTimes& reduce_free, Time now) const {
  return Calculate(job, map_free, reduce_free, now, {job.maps, job.reduces, now, now});
}

RtmrPolicy::Estimate RtmrPolicy::Calculate(const Entry& job, const SlotTimes& map_free,
                                           const SlotTimes& reduce_free, Time now,
                                           const Remaining& left) const {
  Estimate e{map_free, reduce_free, now};
  Time map_end = std::max(now, left.map_end);
  for (uint32_t k = 0; k < left.maps && !e.map_free.empty(); ++k) {
    SlotEnd s = e.map_free.PopSmallest();
    PlanTask(job, SlotKind::kMap, now, e.map_free, s);
    map_end = std::max(map_end, s.at);
    e.map_free.Push(s);
  }
  e.finish = std::max(map_end, left.reduce_end);
  for (uint32_t k = 0; k < left.reduces && !e.reduce_free.empty(); ++k) {
    SlotEnd s = e.reduce_free.PopSmallest();
    PlanTask(job, SlotKind::kReduce, map_end, e.reduce_free, s);
    e.finish = std::max(e.finish, s.at);
    e.reduce_free.Push(s);
  }
  return e;
}

Time RtmrPolicy::AddRunning(const Entry& job, SlotKind kind, Time start, Time now,
                            SlotTimes& slots) const {
  SlotEnd s{start, static_cast<uint32_t>(slots.heap.size())};
  if (slots.keeps_chains) slots.chains.push_back({start, start, {}});
  PlanTask(job, kind, start, slots, s);
  // Still running past the end it was planned by (below confidence 1, a quantile): it
  // ends by its worst case.
  if (s.at < now)
    slots.Restart(s, slots.keeps_chains ? std::max(now, slots.chains[s.chain].worst) : now);
  slots.Push(s);
  return s.at;
}

bool RtmrPolicy::PlanFromState(const ClusterState& state, Time now, Estimate& base,
                               std::vector<Estimate>& plans) const {
  std::unordered_map<JobId, size_t> position;
  std::vector<Remaining> left(queue_.size());
  for (size_t i = 0; i < queue_.size(); ++i) {
    const JobState& job = state.job(queue_[i].id);
    position[job.id] = i;
    left[i] = {job.maps_pending(), job.R() - job.reduces_done - job.reduces_running, now, now};
  }
  base = Estimate{};
  base.finish = now;
  base.map_free.keeps_chains = base.reduce_free.keeps_chains = zero_map_.keeps_chains;
  for (const SlotState& s : state.slots) {
    const SlotKind kind = s.info.kind;
    SlotTimes& slots = kind == SlotKind::kMap ? base.map_free : base.reduce_free;
    const auto loan = loans_.find(s.info.id);
    const auto at = s.task && !s.best_effort ? position.find(s.task->job) : position.end();
    if (at != position.end()) {
      const JobState& job = state.job(s.task->job);
      const Time start = job.task(s.task->kind, s.task->index).start;
      const Time end = AddRunning(queue_[at->second], kind, start, now, slots);
      Remaining& l = left[at->second];
      Time& stage_end = kind == SlotKind::kMap ? l.map_end : l.reduce_end;
      stage_end = std::max(stage_end, end);
    } else if (loan != loans_.end() && (!s.task || s.best_effort)) {
      slots.Add(std::max(now, loan->second));
    } else {
      slots.Add(now);  // free, or best-effort work that gives way
    }
  }
  plans.clear();
  plans.reserve(queue_.size());
  const Estimate* pred = &base;
  for (size_t i = 0; i < queue_.size(); ++i) {
    plans.push_back(Calculate(queue_[i], pred->map_free, pred->reduce_free, now, left[i]));
    if (plans.back().finish > queue_[i].deadline) return false;
    pred = &plans.back();
  }
  return true;
}

void RtmrPolicy::StorePlan(Estimate base, std::vector<Estimate>& plans) {
  for (size_t i = 0; i < queue_.size(); ++i) {
    const Estimate& pred = i ? queue_[i - 1].plan : base;
    queue_[i].pred_map_free = pred.map_free;
    queue_[i].pred_reduce_free = pred.reduce_free;
    queue_[i].plan = std::move(plans[i]);
  }
  // A job admitted at the head starts from the last started job's vectors, or, with none
  // in the queue, from the cluster as it is.
  latest_started_ = started_ ? queue_[started_ - 1].plan : std::move(base);
  planned_from_state_ = true;
}

bool RtmrPolicy::LendSlot(const SlotInfo& slot, const JobState& job, Time start,
                          const ClusterState& state, Time now) {
  if (!estimator_ || queue_.empty()) return false;
  std::optional<JobEstimate> estimate =
      EstimateJob(job, state, *estimator_, options_.estimate_margin);
  if (!estimate) return false;
  Entry lender;
  lender.estimate = std::move(*estimate);
  lender.map_work = Seconds(lender.estimate.map_task) * SlowestSpeed(state, SlotKind::kMap);
  lender.reduce_work =
      Seconds(lender.estimate.reduce_task) * SlowestSpeed(state, SlotKind::kReduce);
  loans_[slot.id] = TaskEnd(lender, slot.kind, start);
  Estimate base;
  std::vector<Estimate> plans;
  if (!PlanFromState(state, now, base, plans)) {
    loans_.erase(slot.id);
    return false;
  }
  StorePlan(std::move(base), plans);
  return true;
}

size_t RtmrPolicy::InsertionPoint(Time deadline) const {
  auto it = std::upper_bound(queue_.begin() + static_cast<ptrdiff_t>(started_), queue_.end(),
                             deadline, [](Time d, const Entry& e) { return d < e.deadline; });
  return static_cast<size_t>(it - queue_.begin());
}

RtmrPolicy::Vectors RtmrPolicy::PredecessorVectors(size_t pos) const {
  if (pos > 0) return {&queue_[pos - 1].plan.map_free, &queue_[pos - 1].plan.reduce_free};
  if (latest_started_) return {&latest_started_->map_free, &latest_started_->reduce_free};
  return {&zero_map_, &zero_reduce_};
}

bool RtmrPolicy::Propagate(size_t from, const SlotTimes* map_free, const SlotTimes* reduce_free,
                           Time now, std::vector<Estimate>* out, size_t* first_miss) const {
  for (size_t i = from; i < queue_.size(); ++i) {
    out->push_back(Calculate(queue_[i], *map_free, *reduce_free, now));
    if (first_miss && out->back().finish > queue_[i].deadline) {
      *first_miss = i;
      return false;
    }
    map_free = &out->back().map_free;
    reduce_free = &out->back().reduce_free;
  }
  return true;
}

void RtmrPolicy::StoreSuccessors(size_t from, std::vector<Estimate>& estimates) {
  for (size_t k = 0; k < estimates.size(); ++k) {
    Entry& s = queue_[from + k];
    const Entry& p = queue_[from + k - 1];
    s.pred_map_free = p.plan.map_free;
    s.pred_reduce_free = p.plan.reduce_free;
    s.plan = std::move(estimates[k]);
    if (s.id == latest_started_id_) latest_started_ = s.plan;
  }
}

std::optional<int> RtmrPolicy::ExtraNodesNeeded(const Entry& job, Vectors pred, Time now) const {
  auto fits = [&](int extra) {
    SlotTimes m = *pred.first, r = *pred.second;
    for (int k = 0; k < extra; ++k) {  // new slots are free now
      m.Add(now);
      if (job.reduces > 0) r.Add(now);
    }
    return Calculate(job, m, r, now).finish <= job.deadline;
  };
  // Even one slot per task cannot beat a map then a reduce run back to back.
  const Time map_end = TaskEnd(job, SlotKind::kMap, now);
  if ((job.reduces ? TaskEnd(job, SlotKind::kReduce, map_end) : map_end) > job.deadline)
    return std::nullopt;
  int hi = 1;
  while (!fits(hi)) {
    if (hi >= kMaxExtraNodes) return std::nullopt;
    hi *= 2;
  }
  int lo = hi / 2;  // fits(lo) is false (or lo = 0, which was tried by the admission)
  while (hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    (fits(mid) ? hi : lo) = mid;
  }
  return hi;
}

Admission RtmrPolicy::Admit(const JobState& job, const ClusterState& state, Time now) {
  if (zero_map_.empty() && zero_reduce_.empty()) {
    zero_map_.keeps_chains = zero_reduce_.keeps_chains = options_.confidence < 1;
    for (const SlotState& s : state.slots)
      (s.info.kind == SlotKind::kMap ? zero_map_ : zero_reduce_).Add(Time{0});
    // Below confidence 1 a job is late only if one of the slot chains it ends on runs past
    // its plan: at δ = (1 - C) / slots each, at most 1 - C for the job (the union bound).
    log_inv_delta_ =
        options_.confidence >= 1
            ? std::numeric_limits<double>::infinity()
            : std::log(double(zero_map_.heap.size() + zero_reduce_.heap.size()) / (1 - options_.confidence));
  }
  std::optional<JobEstimate> estimate;
  if (estimator_) estimate = EstimateJob(job, state, *estimator_, options_.estimate_margin);
  if (!estimate) return Admission::No(NoEstimateReason(job));
  Entry entry;
  entry.id = job.id;
  entry.deadline = job.absolute_deadline().value_or(kNoDeadline);
  entry.maps = job.M();
  entry.reduces = job.R();
  entry.estimate = std::move(*estimate);
  // φ was taken on the slowest slot as it runs now: times its speed, the work it stands for.
  entry.map_work = Seconds(entry.estimate.map_task) * SlowestSpeed(state, SlotKind::kMap);
  entry.reduce_work = Seconds(entry.estimate.reduce_task) * SlowestSpeed(state, SlotKind::kReduce);
  if (zero_map_.keeps_chains) {
    entry.map_cumulants = CostDistribution::OfTask(entry.estimate.map_spread.get(),
                                                   Seconds(entry.estimate.map_task));
    entry.reduce_cumulants = CostDistribution::OfTask(entry.estimate.reduce_spread.get(),
                                                      Seconds(entry.estimate.reduce_task));
  }
  if (job.R() > 0 && zero_reduce_.empty())
    return Admission::No("the cluster has no reduce slot for its " + std::to_string(job.R()) +
                         " reduces");

  // Algorithm I, lines 1-9: the job's own deadline, from its predecessor's vectors.
  const size_t pos = InsertionPoint(entry.deadline);
  const Vectors pred = PredecessorVectors(pos);
  Estimate own = Calculate(entry, *pred.first, *pred.second, now);
  Admission a;
  a.estimate.emplace().finish = own.finish;
  if (own.finish > entry.deadline) {
    a.admitted = false;
    a.reason = "estimated finish " + FormatDuration(own.finish - job.arrival) +
               " after arrival is past its deadline of " +
               FormatDuration(entry.deadline - job.arrival) + " (" + ConfidenceNote() +
               "worst-case task times: map " + FormatDuration(entry.estimate.map_task) +
               ", reduce " + FormatDuration(entry.estimate.reduce_task) + ")";
    a.estimate->min_deadline = own.finish - job.arrival;
    a.estimate->extra_nodes = ExtraNodesNeeded(entry, pred, now);
    return a;
  }
  // Lines 10-21: every job after it must still meet its deadline.
  std::vector<Estimate> successors;
  successors.reserve(queue_.size() - pos);
  size_t miss = 0;
  if (!Propagate(pos, &own.map_free, &own.reduce_free, now, &successors, &miss)) {
    const JobState& victim = state.job(queue_[miss].id);
    a.admitted = false;
    a.reason = "admitting it would make " + Describe(victim) + " miss its deadline by " +
               FormatDuration(successors.back().finish - queue_[miss].deadline);
    return a;
  }
  a.reason = job.spec.deadline
                 ? "estimated finish " + FormatDuration(own.finish - job.arrival) +
                       " after arrival, slack " + FormatDuration(entry.deadline - own.finish) +
                       (options_.confidence < 1
                            ? " (" + entry.estimate.source + " estimates at confidence " +
                                  FormatNumber(options_.confidence) + ")"
                            : " (worst-case " + entry.estimate.source + " estimates)")
                 : "no deadline: admitted last in the queue, with no guarantee";
  if (!job.spec.deadline) a.estimate.reset();
  // Lines 22-23: insert, and keep the new vectors.
  entry.pred_map_free = *pred.first;
  entry.pred_reduce_free = *pred.second;
  entry.plan = std::move(own);
  queue_.insert(queue_.begin() + static_cast<ptrdiff_t>(pos), std::move(entry));
  StoreSuccessors(pos + 1, successors);
  return a;
}

void RtmrPolicy::MarkStarted(size_t pos) {
  if (pos != started_)
    std::rotate(queue_.begin() + static_cast<ptrdiff_t>(started_),
                queue_.begin() + static_cast<ptrdiff_t>(pos),
                queue_.begin() + static_cast<ptrdiff_t>(pos) + 1);
  const Entry& e = queue_[started_++];
  latest_started_id_ = e.id;
  latest_started_ = e.plan;
}

std::optional<TaskRef> RtmrPolicy::PickTask(const SlotInfo& slot, const ClusterState& state, Time) {
  if (slot.kind == SlotKind::kMap) {
    // Algorithm IV lines 4-5: maps in queue order, data-local first (Hadoop's default).
    for (size_t pos = 0; pos < queue_.size(); ++pos) {
      const JobState& job = state.job(queue_[pos].id);
      if (job.finished() || job.maps_pending() == 0) continue;
      auto i = job.NextPendingMap(slot.node, /*local_only=*/false);
      if (!i) continue;
      const JobId id = queue_[pos].id;
      if (pos >= started_) MarkStarted(pos);
      return TaskRef{id, TaskKind::kMap, *i};
    }
    return std::nullopt;
  }
  // Lines 6-21: the reservation-based reduce dispatcher. Deviation: the paper stops when
  // reserved > Ra; with reserved == Ra a lower job would take one of the Ra free slots and
  // leave fewer than the jobs ahead reserved, so we stop at reserved >= Ra.
  // A slot running a best-effort attempt counts free: BackfillPolicy preempts it for the
  // reduce this dispatcher would put there. A lent one does not: it is busy until its loan
  // ends, as the plans count it.
  uint64_t free_reduce = 0;
  for (const SlotState& s : state.slots)
    free_reduce += s.info.kind == SlotKind::kReduce &&
                   (!s.task || (s.best_effort && !loans_.contains(s.info.id)));
  uint64_t reserved = 0;
  for (const Entry& e : queue_) {
    if (reserved >= free_reduce) break;
    const JobState& job = state.job(e.id);
    if (job.finished()) continue;
    if (auto i = PickReduceFor(job, slot, state)) return TaskRef{e.id, TaskKind::kReduce, *i};
    // A job with nothing ready for this slot still needs what it has not started: all R
    // before its reduce stage; after it, its pending reduces, each planned for another
    // free slot (one planned for a busy slot would have been picked above).
    reserved += job.reduces_planned ? job.reduces_pending() : job.R();
  }
  return std::nullopt;
}

void RtmrPolicy::OnJobFinished(const JobState& job, const ClusterState& state, Time now) {
  auto it =
      std::find_if(queue_.begin(), queue_.end(), [&](const Entry& e) { return e.id == job.id; });
  if (it == queue_.end()) return;  // rejected, or never admitted
  const size_t pos = static_cast<size_t>(it - queue_.begin());
  const bool feedback = options_.feedback && job.phase == JobPhase::kDone;
  // The paper's Algorithm V while the vectors are the paper's. Below confidence 1, or once
  // a loan re-planned the queue, feedback re-plans it from the cluster as it is instead:
  // Algorithm V re-estimates each successor from now, all its tasks, even those done or
  // running, which turns away most of what a confidence below 1 would admit (measured in
  // sched/policy/rtmr.md); and Algorithm VI's replacing the smallest free times by the
  // job's finishes holds only where its tasks took them, not under a lent slot's end.
  const bool paper = options_.confidence >= 1 && !planned_from_state_;
  if (feedback && paper) Feedback(job, pos, now);
  if (pos < started_) --started_;
  queue_.erase(queue_.begin() + static_cast<ptrdiff_t>(pos));
  if (feedback && !paper && !queue_.empty()) {
    Estimate base;
    std::vector<Estimate> plans;
    // A re-plan that misses a deadline is never stored: the plan in place still bounds.
    if (PlanFromState(state, now, base, plans)) {
      StorePlan(std::move(base), plans);
      ++feedback_updates_;
    }
  }
}

// Algorithm V, with Algorithm VI (SATU) inline.
void RtmrPolicy::Feedback(const JobState& job, size_t pos, Time now) {
  Entry& e = queue_[pos];
  const Time actual = job.finish;
  Duration epsilon;
  if (options_.feedback_threshold) {
    epsilon = *options_.feedback_threshold;
  } else {  // "a typical map task execution time": this job's median map
    std::vector<Duration> maps;
    for (const TaskState& t : job.maps)
      if (t.status == TaskStatus::kDone) maps.push_back(t.end - t.start);
    if (maps.empty()) return;
    std::nth_element(maps.begin(), maps.begin() + static_cast<ptrdiff_t>(maps.size() / 2),
                     maps.end());
    epsilon = maps[maps.size() / 2];
  }
  // Line 6 compares with e, the job's estimated finish. (Recomputing e now, as line 6 reads
  // literally, would place it after the present and always differ from the actual finish.)
  const Duration gap = actual > e.plan.finish ? actual - e.plan.finish : e.plan.finish - actual;
  if (gap < epsilon && actual <= e.deadline) return;
  ++feedback_updates_;

  // Algorithm VI: from the predecessor's vectors, each actual finish time in ascending
  // order replaces the smallest entry.
  e.plan = Estimate{e.pred_map_free, e.pred_reduce_free, actual};
  ReplaceSmallestByFinishes(e.plan.map_free, job.maps);
  ReplaceSmallestByFinishes(e.plan.reduce_free, job.reduces);
  if (e.id == latest_started_id_) latest_started_ = e.plan;

  // Lines 12-19: every successor is re-estimated from its new predecessor.
  std::vector<Estimate> successors;
  successors.reserve(queue_.size() - pos - 1);
  Propagate(pos + 1, &e.plan.map_free, &e.plan.reduce_free, now, &successors, nullptr);
  StoreSuccessors(pos + 1, successors);
}

std::vector<JobId> RtmrPolicy::queue() const {
  std::vector<JobId> ids;
  for (const Entry& e : queue_) ids.push_back(e.id);
  return ids;
}

std::optional<Time> RtmrPolicy::EstimatedFinish(JobId job) const {
  for (const Entry& e : queue_)
    if (e.id == job) return e.plan.finish;
  return std::nullopt;
}

}  // namespace mrlocal
