// History-based task-time estimates per app (RTMR section IV.A): what the deadline
// policies (rtmr, dc) know of a job before it runs. Per app it keeps a bounded sample of
// what finished jobs showed, and fits the fields of AppModel (sched/estimate/app_model.h)
// to it after each job:
//   map cost         a worst-case affine bound of the map tasks' times over their input
//                    units (FitAffineBound, sched/estimate/affine_bound.h)
//   reduce cost      likewise, over the reduce tasks' input units
//   alpha and        a worst-case affine bound of each job's shuffled units over its input
//   shuffle_fixed_units  units (RTMR's α is the per-unit part)
//   reduce_skew      the largest of the jobs' (largest reduce input) / (mean reduce input)
//                    once the outliers are left out (TrimmedMax)
// Times are normalized to slot speed 1.0 (seconds × the slot's speed), so a history taken
// on one cluster holds on another: a policy divides by its slowest slot's speed, which is
// RTMR's "worst case over heterogeneous nodes" without having to run on every node.
//
// Deviation from the paper (sched/policy/rtmr.md): the paper keeps the max of one cost per unit,
// τ/σ. A small task's fixed cost divided by its size then sets that cost thousands of times
// too high for a task of normal size, and a max keeps it forever: one 24-byte WordCount
// made a 4.2 MiB one look like 16 minutes. So the cost is affine, fitted across the sizes
// seen, and robust: every observation kept lies under the bound but at most one in ten
// (the furthest above a robust line), and only the newest kMaxTaskObservations tasks and
// kMaxJobObservations jobs are kept, so an old outlier is forgotten.
//
// The history file (reading, writing, where it lives) is tools/runtime/history_file.h.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sched/core/cluster_state.h"
#include "sched/estimate/affine_bound.h"
#include "sched/estimate/app_model.h"
#include "sched/estimate/estimator.h"

namespace mrlocal {

// What an app's finished jobs showed, newest last, at most kMaxTaskObservations tasks of
// each kind and kMaxJobObservations jobs.
struct AppObservations {
  std::vector<AffinePoint> maps;      // (input units, seconds at speed 1.0)
  std::vector<AffinePoint> reduces;   // (input size units, seconds at speed 1.0)
  std::vector<AffinePoint> shuffles;  // per job: (input units σ, shuffled units σ_r)
  std::vector<double> skews;          // per job with reduce input: largest / mean
  bool operator==(const AppObservations&) const = default;
};
inline constexpr size_t kMaxTaskObservations = 64;
inline constexpr size_t kMaxJobObservations = 32;

// An app's model and where it comes from.
struct AppEstimate {
  AppModel model;
  uint64_t jobs = 0;  // jobs it covers
  // "history" (finished jobs), "probe" (a first-run sample of the input, widened by a
  // safety factor), "model" (a simulation's task model), "declared" (a synthetic job's
  // own task times, in a real run).
  std::string source = "history";
  // What the model is fitted to; empty for a model given whole (a probe, a simulation's
  // model, a history file of version 1, which kept only maxima).
  AppObservations observations = {};
  // How tasks spread below the model (Estimator::Spread) for a model given whole: the
  // simulation's noise (ModelHistory). With kMinSpreadObservations tasks observed of a kind,
  // the observations tell instead.
  std::shared_ptr<const CostDistribution> map_spread = {}, reduce_spread = {};
};
inline constexpr size_t kMinSpreadObservations = 16;

// One finished task, as measured: its input in size units, its duration in seconds and
// the speed of the slot it ran on (so seconds × speed is its work at speed 1.0).
struct TaskSample {
  double units = 0;
  double seconds = 0;
  double speed = 1.0;
};

// A finished, successful job.
struct JobObservation {
  std::string app;
  double input_units = 0;    // σ
  double shuffle_units = 0;  // σ_r
  std::vector<TaskSample> maps;
  std::vector<TaskSample> reduces;
};

class JobHistory final : public Estimator {
 public:
  // The app's model at the slot's speed: MapSeconds or ReduceSeconds of the units over the
  // speed. None for an app without history.
  std::optional<double> TaskSeconds(const JobState& job, const TaskFeatures& task) const override;
  // shuffle_fixed_units + α·σ in all, the largest reduce max(1, skew) times an R-th of that
  // (RTMR section IV.A, with the fixed part). REQUIRES: R > 0.
  std::optional<ShuffleEstimate> Shuffle(const JobState& job) const override;
  // Of the app's observed tasks of `kind`: the distribution of work / the model's bound at
  // its units (a ratio above 1, one of the few tasks above the bound, counts as 1), once
  // there are kMinSpreadObservations; else the AppEstimate's own spread.
  std::shared_ptr<const CostDistribution> Spread(const JobState& job,
                                                 TaskKind kind) const override;
  std::string Source(const JobState& job) const override;
  // A successful attempt is kept with its job; at the job's end a job that is done is
  // Record()ed, as ObserveJob() sees it. Failed attempts and jobs teach nothing.
  void Observe(const TaskRecord& record, const ClusterState& state) override;
  void ObserveJobEnd(const JobState& job) override;

  // Adds `job`'s tasks and shape to the app's observations (dropping the oldest beyond
  // the bounds) and refits the app's model to them, as described above; jobs += 1. What
  // no observation shows yet (the reduce costs and skew of a map-only job) keeps the value
  // the estimate had. An estimate from a "probe" starts afresh (jobs = 1, no observations):
  // the probe is a deliberately widened first guess, and its sample is no job of the app.
  // Samples with negative or non-finite units or seconds, or a speed that is not positive,
  // are ignored. A job with no (valid) map sample changes nothing.
  void Record(const JobObservation& job);

  // Null when the app has no estimate.
  const AppEstimate* Find(const std::string& app) const;
  void Set(const std::string& app, AppEstimate estimate) { apps_[app] = std::move(estimate); }
  // Forgets the app; false when it had no estimate.
  bool Erase(const std::string& app) { return apps_.erase(app) > 0; }
  const std::map<std::string, AppEstimate>& apps() const { return apps_; }

 private:
  std::map<std::string, AppEstimate> apps_;
  std::map<JobId, JobObservation> running_;  // what Observe has seen of unfinished jobs
};

// True when a map of `map_units` is more than twice as big as any map `e` observed, or
// less than half as small as all of them: how its time relates to theirs is then an
// extrapolation the history cannot vouch for (a front end probes instead). False when `e`
// observed no map (a model given whole: nothing to compare with).
bool OutsideObservedSizes(const AppEstimate& e, double map_units);

// The observation of a finished job: each done task's input (map: split bytes; reduce:
// planned size units), its duration end - start and the speed of its slot. The caller
// gives σ_r, the units the maps emitted (JobOutcome::map_output_units).
JobObservation ObserveJob(const JobState& job, const ClusterState& state, uint64_t shuffle_units);

}  // namespace mrlocal
