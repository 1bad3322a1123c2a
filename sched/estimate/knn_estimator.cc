#include "sched/estimate/knn_estimator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

namespace mrlocal {
namespace {

constexpr int kFeatures = 3;
using Point = std::array<double, kFeatures>;

// The features in the space distances are measured in, before scaling by their ranges.
Point Features(double units, double speed, int node_tasks) {
  return {std::log1p(units), std::log(speed), static_cast<double>(node_tasks)};
}

// 1 / (each feature's range over `observations`); 0 for a feature with none.
Point InverseRanges(const std::vector<Point>& points) {
  Point lo = points.front(), hi = lo, inv{};
  for (const Point& p : points)
    for (int f = 0; f < kFeatures; ++f) {
      lo[f] = std::min(lo[f], p[f]);
      hi[f] = std::max(hi[f], p[f]);
    }
  for (int f = 0; f < kFeatures; ++f) inv[f] = hi[f] > lo[f] ? 1 / (hi[f] - lo[f]) : 0;
  return inv;
}

// Epanechnikov's kernel, 0 outside |d| < 1.
double Epanechnikov(double d) { return d < 1 ? 0.75 * (1 - d * d) : 0; }

}  // namespace

size_t NeighbourCount(size_t n) {
  if (n == 0) return 0;
  const auto k = static_cast<size_t>(std::lround(kKnnNeighbourFactor * std::pow(n, 0.8)));
  return std::clamp<size_t>(k, 1, n);
}

bool ValidObservation(const KnnObservation& o) {
  return std::isfinite(o.units) && o.units >= 0 && std::isfinite(o.slot_speed) &&
         o.slot_speed > 0 && o.node_tasks >= 0 && std::isfinite(o.seconds) && o.seconds >= 0 &&
         std::isfinite(o.seconds * o.slot_speed);
}

std::optional<double> KnnRegress(const std::vector<KnnObservation>& observations,
                                 const TaskFeatures& task) {
  if (observations.empty() || !std::isfinite(task.units) || !std::isfinite(task.slot_speed) ||
      task.slot_speed <= 0)
    return std::nullopt;
  // Neighbours are found at the nearest observed size; a size below all observed is
  // estimated as the smallest (a time has a fixed part: scaling it down would under-estimate).
  double lo = INFINITY, hi = 0;
  for (const KnnObservation& o : observations) {
    lo = std::min(lo, o.units);
    hi = std::max(hi, o.units);
  }
  const double units = std::max(task.units, lo);

  std::vector<Point> points;
  points.reserve(observations.size() + 1);
  for (const KnnObservation& o : observations)
    points.push_back(Features(o.units, o.slot_speed, o.node_tasks));
  const Point inv = InverseRanges(points);
  const Point q = Features(std::min(units, hi), task.slot_speed, std::max(0, task.node_tasks));
  std::vector<double> distance(points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    double sum = 0;
    for (int f = 0; f < kFeatures; ++f) sum += std::pow((points[i][f] - q[f]) * inv[f], 2);
    distance[i] = std::sqrt(sum);
  }
  // The k nearest; of equal distances, the newest.
  std::vector<size_t> order(points.size());
  std::iota(order.begin(), order.end(), 0);
  const size_t k = NeighbourCount(points.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<ptrdiff_t>(k), order.end(),
                    [&](size_t a, size_t b) {
                      return distance[a] != distance[b] ? distance[a] < distance[b] : a > b;
                    });
  const double r = kKernelWidening * distance[order[k - 1]];
  double weights = 0, work = 0;
  for (size_t j = 0; j < k; ++j) {
    const KnnObservation& o = observations[order[j]];
    const double w = r > 0 ? Epanechnikov(distance[order[j]] / r) : 1.0;
    // The neighbour's work at the query's size, as a task's time grows with its input near
    // it: a plain mean of neighbours larger (or smaller) than the query would be biased by
    // their sizes, most at the edges of the observed range, and beyond the largest size
    // this extrapolates in proportion.
    const double at_size = o.units > 0 ? units / o.units : 1.0;
    weights += w;
    work += w * o.seconds * o.slot_speed * at_size;
  }
  const double seconds = work / weights / task.slot_speed;
  if (!std::isfinite(seconds)) return std::nullopt;  // absurd sizes or speeds only
  return seconds;
}

std::optional<double> KnnEstimator::TaskSeconds(const JobState& job,
                                                const TaskFeatures& task) const {
  // The fallback's estimate, NaN when none (a plain double: GCC 12 under ThreadSanitizer
  // takes an optional<double> here for maybe-uninitialized).
  double prior = NAN;
  if (fallback_) prior = fallback_->TaskSeconds(job, task).value_or(NAN);
  const bool has_prior = !std::isnan(prior);
  const KnnAppObservations* app = Find(job.spec.app);
  const std::vector<KnnObservation> none;
  const std::vector<KnnObservation>& seen = app ? app->of(task.kind) : none;
  std::optional<double> learned = KnnRegress(seen, task);
  if (!learned) return has_prior ? std::optional(kColdFactor * prior) : std::nullopt;
  if (has_prior) *learned *= BelowSeenFactor(job, task, seen, prior);
  // Cold: the share of the observations still missing is the widened prior's (or, without
  // one, the learned estimate widened alike).
  const double warm = std::min(1.0, static_cast<double>(seen.size()) / kWarmObservations);
  const double cold = kColdFactor * (has_prior ? prior : *learned);
  return warm * *learned + (1 - warm) * cold;
}

// Below the smallest size observed, KnnRegress keeps the smallest's time. The prior knows
// how a time shrinks with the input (its fixed part included), so it scales that down: a
// friend-count history of whole graphs (854 KB splits) otherwise estimated the dynshare
// preset's 71 KB splits 12x too slow, and llf gave up jobs that had 60 ms to spare.
double KnnEstimator::BelowSeenFactor(const JobState& job, const TaskFeatures& task,
                                     const std::vector<KnnObservation>& seen,
                                     double prior_s) const {
  double smallest = INFINITY;
  for (const KnnObservation& o : seen) smallest = std::min(smallest, o.units);
  if (!(prior_s > 0) || !(task.units < smallest)) return 1.0;
  TaskFeatures at_smallest = task;
  at_smallest.units = smallest;
  const double there = fallback_->TaskSeconds(job, at_smallest).value_or(0);
  return there > 0 ? std::min(1.0, prior_s / there) : 1.0;
}

std::optional<ShuffleEstimate> KnnEstimator::Shuffle(const JobState& job) const {
  return fallback_ ? fallback_->Shuffle(job) : std::nullopt;
}

std::string KnnEstimator::Source(const JobState& job) const {
  const KnnAppObservations* app = Find(job.spec.app);
  const size_t n = app ? app->maps.size() + app->reduces.size() : 0;
  if (n > 0) return "knn (" + std::to_string(n) + (n == 1 ? " observation)" : " observations)");
  const std::string prior = fallback_ ? fallback_->Source(job) : "";
  return prior.empty() ? "" : "knn cold start from " + prior;
}

namespace {

// A task's observation as it ran on `slot`; none when the slot is unknown.
std::optional<KnnObservation> ObservationOf(const TaskState& t, SlotId slot, Time start, Time end,
                                            int node_tasks, const ClusterState& state) {
  if (slot < 0 || static_cast<size_t>(slot) >= state.slots.size()) return std::nullopt;
  return KnnObservation{static_cast<double>(t.input_bytes),
                        state.slots[static_cast<size_t>(slot)].info.speed, node_tasks,
                        Seconds(end - start)};
}

}  // namespace

void KnnEstimator::Observe(const TaskRecord& record, const ClusterState& state) {
  if (!record.ok) return;
  const JobState& job = state.job(record.task.job);
  const TaskState& t = job.task(record.task.kind, record.task.index);
  if (auto o = ObservationOf(t, record.slot, record.start, record.end, record.node_tasks, state))
    Add(job.spec.app, record.task.kind, *o);
}

void AddObservation(KnnAppObservations& app, TaskKind kind, const KnnObservation& o) {
  if (!ValidObservation(o)) return;
  std::vector<KnnObservation>& kept = app.of(kind);
  kept.push_back(o);
  if (kept.size() > kMaxKnnObservations)
    kept.erase(kept.begin(), kept.end() - static_cast<ptrdiff_t>(kMaxKnnObservations));
}

const KnnAppObservations* KnnEstimator::Find(const std::string& app) const {
  auto it = apps_.find(app);
  return it == apps_.end() ? nullptr : &it->second;
}

KnnAppObservations KnnObserveJob(const JobState& job, const ClusterState& state) {
  KnnAppObservations out;
  for (TaskKind kind : {TaskKind::kMap, TaskKind::kReduce})
    for (const TaskState& t : kind == TaskKind::kMap ? job.maps : job.reduces)
      if (t.status == TaskStatus::kDone)
        if (auto o = ObservationOf(t, t.slot, t.start, t.end, t.node_tasks, state))
          out.of(kind).push_back(*o);
  return out;
}

}  // namespace mrlocal
