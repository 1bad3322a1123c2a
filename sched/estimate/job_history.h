// History-based task-time estimates per app (RTMR section IV.A): what the deadline
// policies (rtmr, dc) know of a job before it runs. After each job the worst case seen so
// far grows to cover it (the fields of AppModel, sched/estimate/app_model.h):
//   alpha            max ratio of shuffled size units to input units (RTMR's α = max(α, σ_r/σ))
//   map cost         c_m^max: every map task seen ran within map_fixed_s + map_s_per_unit · σ_i
//   reduce cost      c_r^max likewise, per reduce input unit
//   reduce_skew      max over jobs of (largest reduce input) / (mean reduce input)
// Times are normalized to slot speed 1.0 (seconds × the slot's speed), so a history taken
// on one cluster holds on another: a policy divides by its slowest slot's speed, which is
// RTMR's "worst case over heterogeneous nodes" without having to run on every node.
//
// Deviation from the paper (README, "RTMR"): the paper keeps one cost per unit. A job's
// small last split or a nearly empty reduce then sets c^max hundreds of times too high for
// full-size tasks, so we keep an affine bound instead: the per-unit cost is the worst over
// each job's full-size tasks (at least half its largest), and the fixed part is what the
// other tasks need on top. Every task seen lies under the bound.
//
// The history file (reading, writing, where it lives) is tools/runtime/history_file.h.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sched/core/cluster_state.h"
#include "sched/estimate/app_model.h"
#include "sched/estimate/estimator.h"

namespace mrlocal {

// An app's model and where it comes from.
struct AppEstimate {
  AppModel model;
  uint64_t jobs = 0;  // jobs it covers
  // "history" (finished jobs), "probe" (a first-run sample of the input, widened by a
  // safety factor), "model" (a simulation's task model), "declared" (a synthetic job's
  // own task times, in a real run).
  std::string source = "history";
};

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
  // α·σ in all, the largest reduce max(1, skew)·α·σ/R (RTMR section IV.A). REQUIRES: R > 0.
  std::optional<ShuffleEstimate> Shuffle(const JobState& job) const override;
  std::string Source(const JobState& job) const override;
  // A successful attempt is kept with its job; at the job's end a job that is done is
  // Record()ed, as ObserveJob() sees it. Failed attempts and jobs teach nothing.
  void Observe(const TaskRecord& record, const ClusterState& state) override;
  void ObserveJobEnd(const JobState& job) override;

  // Grows the app's estimate to cover `job` (RTMR's max updates, affine as above): each
  // quantity becomes the max of its old value and what this job needs, and jobs += 1. The
  // fixed part is fitted against the new per-unit cost, so every task of this job and of
  // the jobs before it lies under fixed + per_unit · units, exactly in double arithmetic.
  // An estimate from a "probe" is replaced, not maxed: the probe is a deliberately widened
  // first guess and a max would keep its widening forever. What this job cannot show (the
  // reduce costs and skew of a job without reduces) keeps the probe's values.
  // Samples with negative or non-finite units or seconds, or a speed that is not positive,
  // are ignored. Tasks of zero units or zero seconds carry no per-unit information but
  // still bound the fixed part. A job with no (valid) map sample changes nothing.
  void Record(const JobObservation& job);

  // Null when the app has no estimate.
  const AppEstimate* Find(const std::string& app) const;
  void Set(const std::string& app, AppEstimate estimate) { apps_[app] = std::move(estimate); }
  const std::map<std::string, AppEstimate>& apps() const { return apps_; }

 private:
  std::map<std::string, AppEstimate> apps_;
  std::map<JobId, JobObservation> running_;  // what Observe has seen of unfinished jobs
};

// The observation of a finished job: each done task's input (map: split bytes; reduce:
// planned size units), its duration end - start and the speed of its slot. The caller
// gives σ_r, the units the maps emitted (JobOutcome::map_output_units).
JobObservation ObserveJob(const JobState& job, const ClusterState& state, uint64_t shuffle_units);

}  // namespace mrlocal
