// SO-MarS (Ling et al. 2016, section 5.3) as a policy: online, it learns of a job at its
// arrival only (its task works from the preview, that job's alone). A job that arrives
// waits for the next batch boundary k*B; at a boundary at which jobs arrived, the jobs
// present (arrived, not finished, with a task not started) are planned again with MarS
// from that instant (sched/plan/semi_online.h: a running task stays, its node is free when
// the task is expected to end; a reduce waits for its job's started maps plus the delay),
// and the new plan is followed as PlanPolicy follows one (plan_follower.h) until the next
// re-plan. A boundary without new jobs keeps the plan.
//
// The LP is solved inside OnTimer, within a wall-clock budget: min(kPlanningLpBudgetS,
// B / 2) unless given, so that on the real engine the plan is ready well before the next
// boundary; past it that re-plan is HUWF's (planner.h), and note() counts those. Jobs no
// preview job matches run FIFO on nodes that have run their plan, at once.
//
// REQUIRES: the preview is of the run's job set on the run's cluster, as PlanPolicy's.
// Pure decision logic: no threads, no locks.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sched/core/policy.h"
#include "sched/plan/instance.h"
#include "sched/plan/semi_online.h"
#include "sched/policy/plan_follower.h"

namespace mrlocal {

struct SoMarsOptions {
  // B > 0; none: kDefaultBatchTasks x the mean task work of the first job to arrive, known
  // at its arrival (the paper's 50 s for its ~12 s tasks), so that the default fits a
  // workload of millisecond tasks as well as the paper's.
  std::optional<Duration> batch_interval;
  std::optional<double> lp_budget_s;  // per re-plan, wall clock; none: SemiOnlineLpBudget(B)
};
inline constexpr double kDefaultBatchTasks = 5;

class SoMarsPolicy final : public Policy {
 public:
  SoMarsPolicy(PlanInstance preview, SoMarsOptions options = {});

  std::string_view name() const override { return "so-mars"; }
  // The batch interval chosen when none was given; how many re-plans ran out of LP budget
  // (and how many of those planned as HUWF); the last re-plan that failed; else empty.
  std::string note() const override;
  Admission Admit(const JobState& job, const ClusterState& state, Time now) override;
  void Dispatch(DispatchRound& round, const ClusterState& state, Time now) override;
  std::vector<SlotId> PlaceReduces(const JobState& job, const ClusterState& state) override;
  void OnTimer(TimerId id, const ClusterState& state, Time now) override;
  // Reduces start where and when the plan says, never early.
  bool uses_reduce_slowstart() const override { return false; }
  std::string_view speculation_veto() const override {
    return "so-mars runs each task where and when its plan says";
  }

  // Each re-plan so far, in order: its boundary, what it planned, its LP.
  const std::vector<ReplanRecord>& replans() const { return replans_; }

 private:
  // Where each preview task stands (FlattenTasks order); the jobs present in `present`.
  std::vector<TaskProgress> ProgressOf(const ClusterState& state, Time now,
                                       std::vector<bool>& present) const;
  void Replan(const ClusterState& state, Time now);
  void SetBatchInterval(Duration b);
  // kDefaultBatchTasks x the mean task work of `job`'s preview job.
  Duration DefaultBatchInterval(const JobState& job) const;

  PlanInstance preview_;
  std::vector<int> first_task_;  // per preview job, its first task (FlattenTasks order)
  int tasks_ = 0;                // of the preview
  SoMarsOptions options_;
  double lp_budget_s_ = 0;  // set with the batch interval
  PlanFollower follower_;
  std::optional<Duration> batch_interval_;  // B, once known
  std::optional<TimerId> boundary_timer_;   // the next boundary's, once a job waits for it
  std::vector<ReplanRecord> replans_;
  std::string failure_;  // the last re-plan that failed (the plan before it kept)
};

}  // namespace mrlocal
