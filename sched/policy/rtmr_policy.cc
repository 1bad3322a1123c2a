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

// When a task of one kind of one job ends, as Plan asks per planned task (Plan is compiled
// once for each: no test per task). Without a forecast: its time after its start.
struct FixedEnds {
  Duration task;
  Time End(Time start) const { return start + task; }
  // A chain that takes `seconds` from `anchor`.
  Time ChainEnd(Time anchor, double seconds) const { return anchor + FromSeconds(seconds); }
};

// With a forecast: where the task's work is done (RtmrPolicy::TaskEnd).
struct ForecastEnds {
  const CapacityForecast& forecast;
  SlotKind kind;
  Duration task;  // φ, on the slowest slot as it ran at admission
  double work;    // the work φ stands for
  Time End(Time start) const {
    if (auto end = forecast.LatestEndOf(kind, start, work)) return *end;
    return start + task;
  }
  Time ChainEnd(Time anchor, double seconds) const {
    const double task_s = Seconds(task);
    if (task_s > 0) {  // seconds on the slowest slot: the work they stand for
      const double work_per_s = work / task_s;
      if (auto end = forecast.LatestEndOf(kind, anchor, seconds * work_per_s)) return *end;
    }
    return anchor + FromSeconds(seconds);
  }
};

}  // namespace

// Inline: called per planned task, and a call passes the slot through memory.
[[gnu::always_inline]] inline RtmrPolicy::SlotEnd RtmrPolicy::SlotTimes::PopSmallest() {
  const SlotEnd s = HeapPop(heap.Own(), heap.size(), kLater);
  heap.pop_back();
  return s;
}

[[gnu::always_inline]] inline void RtmrPolicy::SlotTimes::Push(const SlotEnd& s) {
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
  return options_.confidence < 1 ? "at confidence " + FormatNumber(options_.confidence) + "; " : "";
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
template <typename F>
decltype(auto) RtmrPolicy::WithEnds(const Entry& job, SlotKind kind, F&& f) const {
  const bool map = kind == SlotKind::kMap;
  const Duration task = map ? job.estimate.map_task : job.estimate.reduce_task;
  if (forecast_)
    return f(ForecastEnds{*forecast_, kind, task, map ? job.map_work : job.reduce_work});
  return f(FixedEnds{task});
}

Time RtmrPolicy::TaskEnd(const Entry& job, SlotKind kind, Time start) const {
  return WithEnds(job, kind, [start](const auto& ends) { return ends.End(start); });
}

template <typename Ends>
[[gnu::always_inline]] inline void RtmrPolicy::PlanTask(const Ends& ends,
                                                        const TaskCumulants& cumulants, Time floor,
                                                        Chain* chains, SlotEnd& s) const {
  if (!chains) {  // confidence 1: `at` is the worst case
    s.at = ends.End(std::max(s.at, floor));
    return;
  }
  Chain& c = chains[s.chain];
  const Time worst = ends.End(std::max(c.worst, floor));
  // A slot planned free before the floor is free by then (at the plan's probability): its
  // chain starts again there.
  if (floor >= s.at) {
    s.at = floor;
    c.anchor = floor;
    c.tail = {};
  }
  c.worst = worst;
  c.tail.Add(cumulants);
  s.at = std::min(worst, ends.ChainEnd(c.anchor, c.tail.Bound(log_inv_delta_)));
}

// The heap keeps its size: each task takes the smallest entry and puts its slot back.
template <typename Ends>
Time RtmrPolicy::PlanStage(SlotTimes& slots, uint32_t tasks, Time floor, Time end, const Ends& ends,
                           const TaskCumulants& cumulants) const {
  const size_t n = slots.heap.size();
  if (n == 0) return end;
  SlotEnd* heap = slots.heap.Own();
  Chain* chains = slots.keeps_chains ? slots.chains.Own() : nullptr;
  for (uint32_t k = 0; k < tasks; ++k) {
    SlotEnd s = HeapPop(heap, n, kLater);
    PlanTask(ends, cumulants, floor, chains, s);
    end = std::max(end, s.at);
    HeapPush(heap, n - 1, s, kLater);
  }
  return end;
}

// Algorithm II (map slots) then Algorithm III (reduce slots, from the map stage's end),
// in place.
// A failed attempt ends by its worst case, and its re-run starts no later, on the slot it
// failed on at the latest: each failure delays the stage by at most one task's worst case.
// The budget's failures are therefore planned back to back where the stage ends last (a
// failure may hit either stage: the budget is planned in both).
template <typename Ends>
Time RtmrPolicy::PlanRetries(SlotTimes& slots, uint32_t failures, Time floor, Time end,
                             const Ends& ends, const TaskCumulants& cumulants) const {
  const size_t n = slots.heap.size();
  if (failures == 0 || n == 0) return end;
  // The slot the stage ended on: the latest free by its end (slots busy past it are other
  // jobs' later work, which a re-run does not wait for).
  SlotEnd* heap = slots.heap.Own();
  size_t last = n;
  for (size_t i = 0; i < n; ++i)
    if (heap[i].at <= end && (last == n || heap[i].at > heap[last].at)) last = i;
  if (last == n) return end;
  Chain* chains = slots.keeps_chains ? slots.chains.Own() : nullptr;
  for (uint32_t k = 0; k < failures; ++k)
    PlanTask(ends, cumulants, std::max(floor, end), chains, heap[last]);
  const Time retried = heap[last].at;
  // Its free time grew: down the heap while a child is free sooner.
  for (size_t i = last;;) {
    size_t child = 2 * i + 1;
    if (child >= n) break;
    if (child + 1 < n && kLater(heap[child], heap[child + 1])) ++child;
    if (!kLater(heap[i], heap[child])) break;
    std::swap(heap[i], heap[child]);
    i = child;
  }
  return std::max(end, retried);
}

Time RtmrPolicy::Plan(const Entry& job, FreeSlots& slots, Time now, const Remaining& left) const {
  const uint32_t failures = options_.fault_budget;
  const Time map_end = WithEnds(job, SlotKind::kMap, [&](const auto& ends) {
    const Time end =
        PlanStage(slots.map, left.maps, now, std::max(now, left.map_end), ends, job.map_cumulants);
    return job.maps > 0 ? PlanRetries(slots.map, failures, now, end, ends, job.map_cumulants) : end;
  });
  return WithEnds(job, SlotKind::kReduce, [&](const auto& ends) {
    const Time end = PlanStage(slots.reduce, left.reduces, map_end,
                               std::max(map_end, left.reduce_end), ends, job.reduce_cumulants);
    return job.reduces > 0
               ? PlanRetries(slots.reduce, failures, map_end, end, ends, job.reduce_cumulants)
               : end;
  });
}

Time RtmrPolicy::AddRunning(const Entry& job, SlotKind kind, Time start, Time now,
                            SlotTimes& slots) const {
  SlotEnd s{start, static_cast<uint32_t>(slots.heap.size())};
  if (slots.keeps_chains) slots.chains.push_back({start, start, {}});
  Chain* chains = slots.keeps_chains ? slots.chains.Own() : nullptr;
  const TaskCumulants& cumulants =
      kind == SlotKind::kMap ? job.map_cumulants : job.reduce_cumulants;
  WithEnds(job, kind, [&](const auto& ends) { PlanTask(ends, cumulants, start, chains, s); });
  // Still running past the end it was planned by (below confidence 1, a quantile): it
  // ends by its worst case.
  if (s.at < now)
    slots.Restart(s, slots.keeps_chains ? std::max(now, slots.chains[s.chain].worst) : now);
  slots.Push(s);
  return s.at;
}

bool RtmrPolicy::PlanFromState(const ClusterState& state, Time now, Replan& out) const {
  std::unordered_map<JobId, size_t> position;
  out.left.assign(queue_.size(), {});
  for (size_t i = 0; i < queue_.size(); ++i) {
    const JobState& job = state.job(queue_[i].id);
    position[job.id] = i;
    out.left[i] = {job.maps_pending(), job.R() - job.reduces_done - job.reduces_running, now, now};
  }
  out.base = FreeSlots{};
  out.base.map.keeps_chains = out.base.reduce.keeps_chains = zero_.map.keeps_chains;
  for (const SlotState& s : state.slots) {
    const SlotKind kind = s.info.kind;
    SlotTimes& slots = kind == SlotKind::kMap ? out.base.map : out.base.reduce;
    const auto loan = loans_.find(s.info.id);
    const auto at = s.task && !s.best_effort ? position.find(s.task->job) : position.end();
    if (at != position.end()) {
      const JobState& job = state.job(s.task->job);
      const Time start = job.task(s.task->kind, s.task->index).start;
      const Time end = AddRunning(queue_[at->second], kind, start, now, slots);
      Remaining& l = out.left[at->second];
      Time& stage_end = kind == SlotKind::kMap ? l.map_end : l.reduce_end;
      stage_end = std::max(stage_end, end);
    } else if (loan != loans_.end() && (!s.task || s.best_effort)) {
      slots.Add(std::max(now, loan->second));
    } else {
      slots.Add(now);  // free, or best-effort work that gives way
    }
  }
  out.run = Run{};
  size_t miss = 0;
  // A job admitted at the head starts from the last started job's vectors, or, with none
  // in the queue, from the cluster as it is (StorePlan).
  const size_t keep = started_ ? started_ - 1 : queue_.size();
  return Propagate(0, out.base, now, &out.left, keep, out.run, &miss);
}

void RtmrPolicy::StorePlan(Replan& replan, Time now) {
  StoreRun(0, now, &replan.left, replan.run);
  latest_started_ = started_ ? std::move(replan.run.kept) : std::move(replan.base);
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
  Replan replan;
  if (!PlanFromState(state, now, replan)) {
    loans_.erase(slot.id);
    return false;
  }
  StorePlan(replan, now);
  return true;
}

size_t RtmrPolicy::InsertionPoint(Time deadline) const {
  auto it = std::upper_bound(queue_.begin() + static_cast<ptrdiff_t>(started_), queue_.end(),
                             deadline, [](Time d, const Entry& e) { return d < e.deadline; });
  return static_cast<size_t>(it - queue_.begin());
}

RtmrPolicy::FreeSlots RtmrPolicy::PlanOf(size_t pos) const {
  if (queue_[pos].output) return *queue_[pos].output;
  // A job with no input kept has its predecessor's vectors as input; queue_[0] keeps it.
  size_t from = pos;
  while (!queue_[from].input && !queue_[from - 1].output) --from;
  FreeSlots slots = queue_[from].input ? *queue_[from].input : *queue_[from - 1].output;
  for (size_t i = from; i <= pos; ++i) Plan(queue_[i], slots, queue_[i].planned_at, queue_[i].left);
  return slots;
}

RtmrPolicy::FreeSlots RtmrPolicy::InputOf(size_t pos) const {
  return queue_[pos].input ? *queue_[pos].input : PlanOf(pos - 1);
}

void RtmrPolicy::PinInput(size_t pos) {
  if (pos < queue_.size() && !queue_[pos].input) queue_[pos].input = PlanOf(pos - 1);
}

RtmrPolicy::FreeSlots RtmrPolicy::PredecessorVectors(size_t pos) const {
  if (pos > 0) return PlanOf(pos - 1);
  return latest_started_ ? *latest_started_ : zero_;
}

bool RtmrPolicy::Propagate(size_t from, FreeSlots slots, Time now,
                           const std::vector<Remaining>* left, size_t keep, Run& run,
                           size_t* first_miss) const {
  run.finish.reserve(queue_.size() - std::min(from, queue_.size()));
  for (size_t i = from; i < queue_.size(); ++i) {
    // A copy shares the vectors: the next Plan copies them once, the stored ones stay.
    if ((i - from) % kInputEvery == 0) run.inputs.push_back(slots);
    const Entry& job = queue_[i];
    run.finish.push_back(Plan(job, slots, now, left ? (*left)[i - from] : AllOf(job, now)));
    if (i == keep) run.kept = slots;
    if (first_miss && run.finish.back() > job.deadline) {
      *first_miss = i;
      return false;
    }
  }
  run.last = std::move(slots);
  return true;
}

void RtmrPolicy::StoreRun(size_t from, Time now, const std::vector<Remaining>* left, Run& run) {
  for (size_t k = 0; k < run.finish.size(); ++k) {
    Entry& e = queue_[from + k];
    e.finish = run.finish[k];
    e.planned_at = now;
    e.left = left ? (*left)[k] : AllOf(e, now);
    if (k % kInputEvery == 0)
      e.input = std::move(run.inputs[k / kInputEvery]);
    else
      e.input.reset();
    e.output.reset();
  }
  if (!run.finish.empty()) queue_[from + run.finish.size() - 1].output = std::move(run.last);
}

std::optional<int> RtmrPolicy::ExtraNodesNeeded(const Entry& job, const FreeSlots& pred,
                                                Time now) const {
  auto fits = [&](int extra) {
    FreeSlots slots = pred;
    for (int k = 0; k < extra; ++k) {  // new slots are free now
      slots.map.Add(now);
      if (job.reduces > 0) slots.reduce.Add(now);
    }
    return Plan(job, slots, now, AllOf(job, now)) <= job.deadline;
  };
  // Even one slot per task cannot beat a map then a reduce run back to back, each after
  // the fault budget's re-runs (PlanRetries).
  Time map_end = now, end = now;
  for (uint32_t k = 0; k <= options_.fault_budget; ++k)
    map_end = TaskEnd(job, SlotKind::kMap, map_end);
  end = map_end;
  for (uint32_t k = 0; job.reduces > 0 && k <= options_.fault_budget; ++k)
    end = TaskEnd(job, SlotKind::kReduce, end);
  if (end > job.deadline) return std::nullopt;
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

void RtmrPolicy::InitSlots(const ClusterState& state) {
  zero_.map.keeps_chains = zero_.reduce.keeps_chains = options_.confidence < 1;
  for (const SlotState& s : state.slots)
    (s.info.kind == SlotKind::kMap ? zero_.map : zero_.reduce).Add(Time{0});
  // Below confidence 1 a job is late only if one of the slot chains it ends on runs past
  // its plan: at δ = (1 - C) / slots each, at most 1 - C for the job (the union bound).
  const double slots = double(zero_.map.heap.size() + zero_.reduce.heap.size());
  log_inv_delta_ = options_.confidence >= 1 ? std::numeric_limits<double>::infinity()
                                            : std::log(slots / (1 - options_.confidence));
}

std::optional<RtmrPolicy::Entry> RtmrPolicy::MakeEntry(const JobState& job,
                                                       const ClusterState& state) const {
  std::optional<JobEstimate> estimate;
  if (estimator_) estimate = EstimateJob(job, state, *estimator_, options_.estimate_margin);
  if (!estimate) return std::nullopt;
  Entry entry;
  entry.id = job.id;
  entry.deadline = job.absolute_deadline().value_or(kNoDeadline);
  entry.maps = job.M();
  entry.reduces = job.R();
  entry.estimate = std::move(*estimate);
  // φ was taken on the slowest slot as it runs now: times its speed, the work it stands for.
  entry.map_work = Seconds(entry.estimate.map_task) * SlowestSpeed(state, SlotKind::kMap);
  entry.reduce_work = Seconds(entry.estimate.reduce_task) * SlowestSpeed(state, SlotKind::kReduce);
  if (zero_.map.keeps_chains) {
    entry.map_cumulants =
        CostDistribution::OfTask(entry.estimate.map_spread.get(), Seconds(entry.estimate.map_task));
    entry.reduce_cumulants = CostDistribution::OfTask(entry.estimate.reduce_spread.get(),
                                                      Seconds(entry.estimate.reduce_task));
  }
  return entry;
}

Admission RtmrPolicy::Admit(const JobState& job, const ClusterState& state, Time now) {
  if (zero_.map.empty() && zero_.reduce.empty()) InitSlots(state);
  std::optional<Entry> entry = MakeEntry(job, state);
  if (!entry) return Admission::No(NoEstimateReason(job));
  if (job.R() > 0 && zero_.reduce.empty())
    return Admission::No("the cluster has no reduce slot for its " + std::to_string(job.R()) +
                         " reduces");

  // Algorithm I, lines 1-9: the job's own deadline, from its predecessor's vectors.
  const size_t pos = InsertionPoint(entry->deadline);
  FreeSlots pred = PredecessorVectors(pos);
  FreeSlots own = pred;
  const Time finish = Plan(*entry, own, now, AllOf(*entry, now));
  Admission a;
  a.estimate.emplace().finish = finish;
  if (finish > entry->deadline) {
    a.admitted = false;
    a.reason = "estimated finish " + FormatDuration(finish - job.arrival) +
               " after arrival is past its deadline of " +
               FormatDuration(entry->deadline - job.arrival) + " (" + ConfidenceNote() +
               "worst-case task times: map " + FormatDuration(entry->estimate.map_task) +
               ", reduce " + FormatDuration(entry->estimate.reduce_task) + ")";
    a.estimate->min_deadline = finish - job.arrival;
    a.estimate->extra_nodes = ExtraNodesNeeded(*entry, pred, now);
    return a;
  }
  // Lines 10-21: every job after it must still meet its deadline.
  Run successors;
  size_t miss = 0;
  if (!Propagate(pos, own, now, nullptr, queue_.size(), successors, &miss)) {
    const JobState& victim = state.job(queue_[miss].id);
    a.admitted = false;
    a.reason = "admitting it would make " + Describe(victim) + " miss its deadline by " +
               FormatDuration(successors.finish.back() - queue_[miss].deadline);
    return a;
  }
  a.reason =
      job.spec.deadline
          ? "estimated finish " + FormatDuration(finish - job.arrival) + " after arrival, slack " +
                FormatDuration(entry->deadline - finish) +
                (options_.confidence < 1
                     ? " (" + entry->estimate.source + " estimates at confidence " +
                           FormatNumber(options_.confidence) + ")"
                     : " (worst-case " + entry->estimate.source + " estimates)") +
                (options_.fault_budget > 0
                     ? ", covering " + std::to_string(options_.fault_budget) + " failed attempt(s)"
                     : "")
          : "no deadline: admitted last in the queue, with no guarantee";
  if (!job.spec.deadline) a.estimate.reset();
  // Lines 22-23: insert, and keep the new plans.
  entry->finish = finish;
  entry->input = std::move(pred);
  entry->output = std::move(own);
  entry->planned_at = now;
  entry->left = AllOf(*entry, now);
  queue_.insert(queue_.begin() + static_cast<ptrdiff_t>(pos), std::move(*entry));
  StoreRun(pos + 1, now, nullptr, successors);
  return a;
}

void RtmrPolicy::MarkStarted(size_t pos) {
  if (pos != started_) {
    // The three jobs whose predecessor the move changes keep the vectors they came from.
    PinInput(pos);
    PinInput(started_);
    PinInput(pos + 1);
    std::rotate(queue_.begin() + static_cast<ptrdiff_t>(started_),
                queue_.begin() + static_cast<ptrdiff_t>(pos),
                queue_.begin() + static_cast<ptrdiff_t>(pos) + 1);
  }
  latest_started_id_ = queue_[started_].id;
  latest_started_ = PlanOf(started_);
  ++started_;
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
  PinInput(pos + 1);  // its predecessor leaves
  if (pos < started_) --started_;
  queue_.erase(queue_.begin() + static_cast<ptrdiff_t>(pos));
  if (feedback && !paper && !queue_.empty()) {
    Replan replan;
    // A re-plan that misses a deadline is never stored: the plan in place still bounds.
    if (PlanFromState(state, now, replan)) {
      StorePlan(replan, now);
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
  const Duration gap = actual > e.finish ? actual - e.finish : e.finish - actual;
  if (gap < epsilon && actual <= e.deadline) return;
  ++feedback_updates_;

  // Algorithm VI: from the predecessor's vectors, each actual finish time in ascending
  // order replaces the smallest entry.
  FreeSlots plan = InputOf(pos);
  ReplaceSmallestByFinishes(plan.map, job.maps);
  ReplaceSmallestByFinishes(plan.reduce, job.reduces);
  if (e.id == latest_started_id_) latest_started_ = plan;

  // Lines 12-19: every successor is re-estimated from its new predecessor (the first keeps
  // it as its input: the job leaves the queue).
  const auto latest = std::find_if(queue_.begin(), queue_.end(),
                                   [&](const Entry& q) { return q.id == latest_started_id_; });
  Run successors;
  Propagate(pos + 1, std::move(plan), now, nullptr, static_cast<size_t>(latest - queue_.begin()),
            successors, nullptr);
  StoreRun(pos + 1, now, nullptr, successors);
  if (successors.kept) latest_started_ = std::move(successors.kept);
}

std::vector<JobId> RtmrPolicy::queue() const {
  std::vector<JobId> ids;
  for (const Entry& e : queue_) ids.push_back(e.id);
  return ids;
}

std::optional<Time> RtmrPolicy::EstimatedFinish(JobId job) const {
  for (const Entry& e : queue_)
    if (e.id == job) return e.finish;
  return std::nullopt;
}

}  // namespace mrlocal
