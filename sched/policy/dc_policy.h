// The Deadline Constraint scheduler of Kc and Anyanwu (2010), as RTMR section III describes
// it, deficiencies included: it is RTMR's baseline, and our runs must show it admitting
// jobs that then miss.
//
// With the job's estimates (sched/estimate/job_estimate.h: the same estimator as rtmr), a job
// J = (A, D, M, R, σ) that arrives at A:
//   reduce stage   all R reduces run at once for φ_r (assumption 2 of section III), so it
//                  must start by the latest reduce start  max_rs = A + D − φ_r;
//   map stage      runs at the minimum parallelism that ends it by max_rs, treating the
//                  map work as fluid: n_m^min = ceil(Σ map work / (max_rs − A));
//   admitted iff   max_rs > A, R ≤ the cluster's reduce slots, n_m^min map slots are
//                  available at A (not held by the minimum parallelism of admitted jobs
//                  still in their map stage), and R reduce slots are free at the single
//                  point max_rs (not inside [max_rs_j, A_j + D_j] of an admitted job j).
// The last test is the deficiency section III names: it checks one point in time, not the
// whole interval [max_rs, A + D], so reduce stages can collide; the fluid map stage also
// ignores that tasks are indivisible.
//
// Dispatch: jobs in EDF order; a job runs at most n_m^min maps at a time (it is given the
// minimum number of map slots, no more); reduces go to the first job in EDF order with a
// ready one, with no reservation.
//
// A job without a deadline is admitted best effort, with no estimate needed: it holds no
// slots in the test above and comes after every job with a deadline, taking only the map
// slots they leave (no cap). Tasks are not preempted, so its running maps can still delay
// a deadline job that the test said had its slots: DC does not account for them either.
#pragma once

#include <map>

#include "sched/core/policy.h"
#include "sched/estimate/estimator.h"
#include "sched/estimate/job_estimate.h"
#include "sched/policy/deadline_order.h"

namespace mrlocal {

class DcPolicy final : public Policy {
 public:
  // `estimator` gives the worst-case task times; it must outlive the policy (null: none).
  // A job with a deadline that it cannot estimate is rejected.
  // `margin` (>= 1) multiplies every estimated task time.
  explicit DcPolicy(const Estimator* estimator, double margin = 1.0);

  std::string_view name() const override { return "dc"; }
  std::string_view speculation_veto() const override {
    return "dc reserves slots for each admitted job's worst case; a speculative copy would "
           "take slot time it promised";
  }
  bool admission_control() const override { return true; }
  Admission Admit(const JobState& job, const ClusterState& state, Time now) override;
  std::optional<TaskRef> PickTask(const SlotInfo& slot, const ClusterState& state,
                                  Time now) override;
  void OnJobFinished(const JobState& job, const ClusterState& state, Time now) override;

 private:
  // What an admitted job with a deadline holds in the schedulability test.
  struct Entry {
    Time deadline{0};       // A + D
    Time max_rs{0};         // latest reduce start
    uint32_t min_maps = 0;  // n_m^min
    uint32_t reduces = 0;
  };
  // Map slots not held by the minimum parallelism of admitted jobs still in their map
  // stage (each holds min(n_m^min, its maps not done)).
  int MapSlotsAvailable(const ClusterState& state, int map_slots) const;
  // Σ R_j over admitted jobs j whose reduce window [max_rs_j, A_j + D_j] contains `t`.
  int ReduceSlotsBusyAt(const ClusterState& state, Time t) const;

  const Estimator* estimator_;
  double margin_ = 1.0;
  std::map<JobId, Entry> admitted_;  // admitted with a deadline and not finished
  DeadlineOrder order_;              // every admitted job not finished
};

}  // namespace mrlocal
