#include "sched/estimate/job_history.h"

#include <algorithm>
#include <cmath>

namespace mrlocal {
namespace {

// The valid samples as (units, seconds of work at speed 1.0).
std::vector<AffinePoint> ValidWork(const std::vector<TaskSample>& samples) {
  std::vector<AffinePoint> out;
  out.reserve(samples.size());
  for (const TaskSample& s : samples) {
    const double w = s.seconds * s.speed;
    if (!std::isfinite(s.units) || s.units < 0 || !std::isfinite(s.seconds) || s.seconds < 0 ||
        !std::isfinite(s.speed) || s.speed <= 0 || !std::isfinite(w))
      continue;
    out.push_back({s.units, w});
  }
  return out;
}

// Appends `more` to `kept`, then drops the oldest beyond `limit`.
template <typename T>
void AppendBounded(std::vector<T>& kept, const std::vector<T>& more, size_t limit) {
  kept.insert(kept.end(), more.begin(), more.end());
  if (kept.size() > limit) kept.erase(kept.begin(), kept.end() - static_cast<ptrdiff_t>(limit));
}

// The model refitted to what was observed; a part nothing was observed for keeps its value.
void Refit(const AppObservations& o, AppModel& m) {
  if (!o.maps.empty()) {
    const AffineBound b = FitAffineBound(o.maps);
    m.map_fixed_s = b.fixed;
    m.map_s_per_unit = b.per_unit;
  }
  if (!o.reduces.empty()) {
    const AffineBound b = FitAffineBound(o.reduces);
    m.reduce_fixed_s = b.fixed;
    m.reduce_s_per_unit = b.per_unit;
  }
  if (!o.shuffles.empty()) {
    const AffineBound b = FitAffineBound(o.shuffles);
    m.shuffle_fixed_units = b.fixed;
    m.alpha = b.per_unit;
  }
  // max/mean >= 1 in exact arithmetic; the max with 1 absorbs rounding.
  if (!o.skews.empty()) m.reduce_skew = std::max(1.0, TrimmedMax(o.skews, 1.0));
}

// A task's sample as it ran on `slot`; none when the slot is unknown (a task without one
// cannot be normalized to speed 1.0).
std::optional<TaskSample> Sample(const TaskState& t, SlotId slot, Time start, Time end,
                                 const ClusterState& state) {
  if (slot < 0 || static_cast<size_t>(slot) >= state.slots.size()) return std::nullopt;
  return TaskSample{static_cast<double>(t.input_bytes), Seconds(end - start),
                    state.slots[static_cast<size_t>(slot)].info.speed};
}

double InputUnits(const JobState& job) {
  double input = 0;
  for (const TaskState& m : job.maps) input += static_cast<double>(m.input_bytes);
  return input;
}

}  // namespace

std::optional<double> JobHistory::TaskSeconds(const JobState& job, const TaskFeatures& task) const {
  const AppEstimate* e = Find(job.spec.app);
  if (!e) return std::nullopt;
  const double work = task.kind == TaskKind::kMap ? e->model.MapSeconds(task.units)
                                                  : e->model.ReduceSeconds(task.units);
  return work / task.slot_speed;
}

std::optional<ShuffleEstimate> JobHistory::Shuffle(const JobState& job) const {
  const AppEstimate* e = Find(job.spec.app);
  if (!e) return std::nullopt;
  ShuffleEstimate s;
  s.total_units = e->model.shuffle_fixed_units + e->model.alpha * InputUnits(job);
  s.largest_units = std::max(1.0, e->model.reduce_skew) * s.total_units / job.R();
  return s;
}

std::shared_ptr<const CostDistribution> JobHistory::Spread(const JobState& job,
                                                          TaskKind kind) const {
  const AppEstimate* e = Find(job.spec.app);
  if (!e) return nullptr;
  const bool map = kind == TaskKind::kMap;
  const std::vector<AffinePoint>& seen = map ? e->observations.maps : e->observations.reduces;
  if (seen.size() < kMinSpreadObservations) return map ? e->map_spread : e->reduce_spread;
  std::vector<double> ratios;
  for (const AffinePoint& p : seen) {
    const double bound = map ? e->model.MapSeconds(p.units) : e->model.ReduceSeconds(p.units);
    ratios.push_back(bound > 0 ? p.value / bound : 1.0);  // FromRatios clamps to [0, 1]
  }
  return CostDistribution::FromRatios(ratios);
}

std::string JobHistory::Source(const JobState& job) const {
  const AppEstimate* e = Find(job.spec.app);
  return e ? e->source : "";
}

void JobHistory::Observe(const TaskRecord& record, const ClusterState& state) {
  if (!record.ok) return;
  const JobState& job = state.job(record.task.job);
  const TaskState& t = job.task(record.task.kind, record.task.index);
  JobObservation& o = running_[job.id];
  o.app = job.spec.app;
  if (record.task.kind == TaskKind::kMap)
    o.shuffle_units += static_cast<double>(record.output_bytes);
  if (auto s = Sample(t, record.slot, record.start, record.end, state))
    (record.task.kind == TaskKind::kMap ? o.maps : o.reduces).push_back(*s);
}

void JobHistory::ObserveJobEnd(const JobState& job) {
  auto it = running_.find(job.id);
  if (it == running_.end()) return;
  JobObservation o = std::move(it->second);
  running_.erase(it);
  if (job.phase != JobPhase::kDone) return;
  o.input_units = InputUnits(job);
  Record(o);
}

void JobHistory::Record(const JobObservation& job) {
  const std::vector<AffinePoint> maps = ValidWork(job.maps);
  if (maps.empty()) return;
  const std::vector<AffinePoint> reduces = ValidWork(job.reduces);
  double sum = 0, largest = 0;
  for (const AffinePoint& r : reduces) {
    sum += r.units;
    largest = std::max(largest, r.units);
  }
  const double skew = largest / (sum / static_cast<double>(reduces.size()));

  AppEstimate& e = apps_[job.app];
  if (e.source == "probe") {
    e.observations = {};
    e.jobs = 0;
  }
  e.source = "history";
  e.jobs += 1;
  AppObservations& o = e.observations;
  AppendBounded(o.maps, maps, kMaxTaskObservations);
  AppendBounded(o.reduces, reduces, kMaxTaskObservations);
  if (std::isfinite(job.input_units) && job.input_units >= 0 && std::isfinite(job.shuffle_units) &&
      job.shuffle_units >= 0)
    AppendBounded(o.shuffles, {{job.input_units, job.shuffle_units}}, kMaxJobObservations);
  if (sum > 0 && std::isfinite(sum) && std::isfinite(skew))
    AppendBounded(o.skews, {skew}, kMaxJobObservations);
  Refit(o, e.model);
}

bool OutsideObservedSizes(const AppEstimate& e, double map_units) {
  if (e.observations.maps.empty()) return false;
  double lo = INFINITY, hi = 0;
  for (const AffinePoint& p : e.observations.maps) {
    lo = std::min(lo, p.units);
    hi = std::max(hi, p.units);
  }
  return map_units > 2 * hi || 2 * map_units < lo;
}

const AppEstimate* JobHistory::Find(const std::string& app) const {
  auto it = apps_.find(app);
  return it == apps_.end() ? nullptr : &it->second;
}

JobObservation ObserveJob(const JobState& job, const ClusterState& state, uint64_t shuffle_units) {
  JobObservation o;
  o.app = job.spec.app;
  o.shuffle_units = static_cast<double>(shuffle_units);
  o.input_units = InputUnits(job);
  auto sample = [&](const TaskState& t, std::vector<TaskSample>& out) {
    if (t.status != TaskStatus::kDone) return;
    if (auto s = Sample(t, t.slot, t.start, t.end, state)) out.push_back(*s);
  };
  for (const TaskState& m : job.maps) sample(m, o.maps);
  for (const TaskState& r : job.reduces) sample(r, o.reduces);
  return o;
}

}  // namespace mrlocal
