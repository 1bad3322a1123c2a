#include "sched/estimate/job_history.h"

#include <algorithm>
#include <cmath>

namespace mrlocal {
namespace {

// Seconds of work at speed 1.0 and input units of one valid task sample.
struct Work {
  double units;
  double w;
};

std::vector<Work> ValidWork(const std::vector<TaskSample>& samples) {
  std::vector<Work> out;
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

// The smallest fixed part a >= 0 (up to an ulp) with a + c·u >= w as evaluated in doubles,
// which is how AppModel::MapSeconds evaluates it: w - c·u alone can round one ulp low.
double FixedPartCovering(double w, double c, double u) {
  const double p = c * u;
  if (p >= w) return 0;
  double a = w - p;
  while (a + p < w) a = std::nextafter(a, INFINITY);
  return a;
}

// Grows (fixed, per_unit) to cover `tasks` (non-empty). The per-unit cost comes from the
// full-size tasks only (units at least half the largest), so a tiny last split, whose time
// is mostly fixed cost, does not inflate it; the fixed part then covers every task against
// the grown per-unit cost. Fitting against the new cost rather than this job's own c is
// tighter and still an upper bound, since new cost >= c.
void GrowAffine(const std::vector<Work>& tasks, double& fixed, double& per_unit) {
  double big = 0;
  for (const Work& t : tasks) big = std::max(big, t.units);
  double c = 0;
  for (const Work& t : tasks)
    if (t.units > 0 && t.units >= big / 2 && std::isfinite(t.w / t.units))
      c = std::max(c, t.w / t.units);
  per_unit = std::max(per_unit, c);
  double a = 0;
  for (const Work& t : tasks) a = std::max(a, FixedPartCovering(t.w, per_unit, t.units));
  fixed = std::max(fixed, a);
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
  s.total_units = e->model.alpha * InputUnits(job);
  s.largest_units = std::max(1.0, e->model.reduce_skew) * s.total_units / job.R();
  return s;
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
  const std::vector<Work> maps = ValidWork(job.maps);
  if (maps.empty()) return;
  const std::vector<Work> reduces = ValidWork(job.reduces);
  const double ratio = job.shuffle_units / job.input_units;
  const bool shows_alpha = job.input_units > 0 && std::isfinite(ratio) && ratio >= 0;
  double sum = 0, largest = 0;
  for (const Work& r : reduces) {
    sum += r.units;
    largest = std::max(largest, r.units);
  }
  const bool shows_skew = sum > 0 && std::isfinite(sum);

  AppEstimate& e = apps_[job.app];
  AppModel& m = e.model;
  if (e.source == "probe") {
    // Replace what this job shows; keep the probe's guesses for what it cannot show.
    m.map_fixed_s = 0;
    m.map_s_per_unit = 0;
    if (!reduces.empty()) {
      m.reduce_fixed_s = 0;
      m.reduce_s_per_unit = 0;
    }
    if (shows_alpha) m.alpha = 0;
    if (shows_skew) m.reduce_skew = 1;
    e.jobs = 0;
  }
  e.source = "history";
  e.jobs += 1;

  GrowAffine(maps, m.map_fixed_s, m.map_s_per_unit);
  if (!reduces.empty()) GrowAffine(reduces, m.reduce_fixed_s, m.reduce_s_per_unit);
  if (shows_alpha) m.alpha = std::max(m.alpha, ratio);
  // max/mean >= 1 in exact arithmetic; the max with the old skew (>= 1) absorbs rounding.
  if (shows_skew)
    m.reduce_skew = std::max(m.reduce_skew, largest / (sum / static_cast<double>(reduces.size())));
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
