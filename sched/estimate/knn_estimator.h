// Task times learned from the tasks that finished: DynamicShare's k-NN smoothing (the
// paper's section 3.1, equations 1 and 2). Per app and task kind it keeps observations
// (the features of a task at its launch -> its seconds) and estimates a new task by a
// kernel-weighted mean of its k nearest observations.
//   Features   map: split bytes; reduce: size units; both: the slot's speed and the attempts
//              running on the slot's node (the paper's cpu and memory of the worker).
//   Distance   Euclidean over log1p(units), log(speed) and node_tasks, each divided by its
//              range over the stored observations (a feature with no range is left out: it
//              tells none of them apart), so that no feature dominates by its unit.
//   Kernel     Epanechnikov, K(d) = 3/4 (1 - d^2), scaled by R. The paper's R is the k-th
//              neighbour's distance, which gives that neighbour weight 0; ours is 1.25 times
//              it (kKernelWidening), so the k-th keeps 36 % of the nearest's weight. All k
//              at distance 0 (R = 0): equal weights. Equation 1 with the weights of
//              equation 2 is then sum(K y) / sum(K): the 1/R and f^ factors cancel.
//   k          max(1, round(0.5 n^(4/5))), at most n: the paper's k proportional to
//              n^(4/5) balances bias and variance; 0.5 keeps k small while n is (k = 1 up
//              to n = 2, 5 at 20, 42 at the bound of 256), so a size seen a few times is
//              not averaged with others.
//   Target     the work, seconds x the slot's speed, divided by the query's speed: a
//              speed never observed is still estimated, proportionally. Each neighbour's
//              work is first scaled to the query's size (x query units / its units): near
//              a size a task's time grows in proportion to its input, and a plain mean of
//              neighbours of other sizes is biased towards theirs, most at the edges of the
//              observed range.
//   Sizes      A query above the largest observed units has the largest as neighbours and
//              is scaled from them in proportion (a task's time grows at most in proportion
//              to its input beyond a fixed cost: an over-estimate); one below the smallest
//              is estimated as the smallest (likewise an over-estimate), scaled down by
//              the fallback's ratio between the two sizes when there is a fallback (its
//              model has the fixed part k-NN cannot see).
//   Cold start with fewer than kWarmObservations observations of the kind, the estimate
//              blends in the fallback estimator's (the run's history or model) times
//              kColdFactor, in proportion to what is missing: it starts high and converges
//              (the paper's Fig. 4). Without observations or fallback: none.
//   Bound      at most kMaxKnnObservations per app and kind; the oldest is evicted first,
//              so the estimator follows a machine whose speed drifts (the size clamping
//              above covers a size range that recent tasks no longer span).
// Shuffle() is the fallback's (k-NN estimates task times only). The history file keeps the
// observations (tools/runtime/history_file.h).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sched/core/cluster_state.h"
#include "sched/estimate/estimator.h"

namespace mrlocal {

// One finished task as the estimator keeps it: its features at launch and its time.
struct KnnObservation {
  double units = 0;
  double slot_speed = 1.0;
  int node_tasks = 0;
  double seconds = 0;
  bool operator==(const KnnObservation&) const = default;
};

// An app's observations of each kind, oldest first.
struct KnnAppObservations {
  std::vector<KnnObservation> maps;
  std::vector<KnnObservation> reduces;
  std::vector<KnnObservation>& of(TaskKind kind) { return kind == TaskKind::kMap ? maps : reduces; }
  const std::vector<KnnObservation>& of(TaskKind kind) const {
    return kind == TaskKind::kMap ? maps : reduces;
  }
  bool operator==(const KnnAppObservations&) const = default;
};

// Per app.
using KnnObservations = std::map<std::string, KnnAppObservations>;

inline constexpr size_t kMaxKnnObservations = 256;  // per app and kind: ~8 KB in the file
inline constexpr double kKnnNeighbourFactor = 0.5;  // k = round(0.5 n^(4/5))
inline constexpr double kKernelWidening = 1.25;     // R = 1.25 x the k-th distance
inline constexpr double kColdFactor = 2.0;          // the fallback's estimate, widened
inline constexpr size_t kWarmObservations = 8;      // of a kind, to trust k-NN alone

// k for n observations: max(1, round(kKnnNeighbourFactor n^(4/5))), at most n.
size_t NeighbourCount(size_t n);

// The k-NN regression alone over `observations` (no cold start): seconds on a slot of
// task.slot_speed. None when there are no observations, or the query (or its estimate)
// is not finite.
std::optional<double> KnnRegress(const std::vector<KnnObservation>& observations,
                                 const TaskFeatures& task);

// True when `o` can be learned from: finite, non-negative, a positive speed.
bool ValidObservation(const KnnObservation& o);
// Appends `o` to app's observations of `kind`, evicting the oldest beyond
// kMaxKnnObservations; an invalid one is ignored.
void AddObservation(KnnAppObservations& app, TaskKind kind, const KnnObservation& o);

class KnnEstimator final : public Estimator {
 public:
  // `fallback` (may be null; must outlive this) gives the cold-start prior and Shuffle;
  // `observations` are what it starts from (those kept in the history file).
  explicit KnnEstimator(const Estimator* fallback = nullptr, KnnObservations observations = {})
      : fallback_(fallback), apps_(std::move(observations)) {}

  std::optional<double> TaskSeconds(const JobState& job, const TaskFeatures& task) const override;
  std::optional<ShuffleEstimate> Shuffle(const JobState& job) const override;
  // "knn (N observations)", or while none: "knn cold start from <fallback's>".
  std::string Source(const JobState& job) const override;
  // A successful attempt becomes an observation at once (features at its launch); failed
  // and preempted ones teach nothing. Nothing is kept per job.
  void Observe(const TaskRecord& record, const ClusterState& state) override;

  // AddObservation to the app's (an app is not created for an invalid one).
  void Add(const std::string& app, TaskKind kind, const KnnObservation& o) {
    if (ValidObservation(o)) AddObservation(apps_[app], kind, o);
  }
  // Null when the app has none.
  const KnnAppObservations* Find(const std::string& app) const;
  // Forgets the app; false when it had no observations.
  bool Erase(const std::string& app) { return apps_.erase(app) > 0; }
  const KnnObservations& apps() const { return apps_; }

 private:
  // For a task smaller than every one `seen`: the fallback's time at its size over its time
  // at the smallest seen (at most 1); else 1.
  double BelowSeenFactor(const JobState& job, const TaskFeatures& task,
                         const std::vector<KnnObservation>& seen, double prior_s) const;

  const Estimator* fallback_;
  KnnObservations apps_;
};

// What `job`'s done tasks teach, as Observe would have learned them: each task's input,
// its slot's speed, t.node_tasks and end - start.
KnnAppObservations KnnObserveJob(const JobState& job, const ClusterState& state);

}  // namespace mrlocal
