// Soft completion-time goals under a capacity that varies: the Reverse-Adaptive scheduler
// (the seed paper, reverse-adaptive-shared-environments; Polo et al., "Adaptive MapReduce
// scheduling in shared environments", CCGrid 2014) and, over a constant forecast, the
// plain Adaptive scheduler it improves on (Polo et al., NOMS 2010). One algorithm, two
// views of the capacity ahead f(t):
//   reverse-adaptive  the run's forecast (PolicyArgs::forecast: known, learned...);
//   adaptive          the capacity the slots show now, held for ever: the sum of their
//                     speeds (what a ConstantForecast answers, without the base speeds
//                     that one needs and a policy never sees) times the span. The issue's
//                     fair reading of Adaptive. With a constant availability the two make
//                     the same decisions.
//
// Every dispatch round with a free slot re-plans, per slot kind (between events nothing
// can be dispatched, so this is exact; the walk costs 6-18 us at 100 jobs, bench_goal_walk):
//   work         per job, the tasks not done: pending x mean + for each running task
//                max(mean - work done so far, kMinRemainder x mean), in seconds at speed
//                1.0; max_parallel = pending + running.
//   goals        what the walk plans each job's tasks of a kind to end by: its absolute
//                goal less one mean task of the kind (the last wave: a list schedule ends
//                at most one task after the fluid one the walk plans, so a plan that ends
//                at the goal misses it by a fraction of a task; measured on ra-alone at
//                load 0.5, 8.0 % of goals missed without this, 1.5 % with), and for map
//                slots less the expected reduce phase d too: the job's reduce work over
//                min(reduces left, reduce slots) slots. Each at the forecast's mean rate
//                per slot over the phase (first over [now, end), then over [end - d, end),
//                where it will run: one step of the fixed point). A job whose maps run
//                has its reduce work in the reduce walk too (what it will need there).
//   s_fit        WalkBack (sched/policy/goal_walk.h) over the jobs with work of the kind,
//                the capacity forecast->Work(kind, t0, t1) (Algorithm of the seed's
//                "Intuition", Fig. 3).
//   targets      EqualUtilityShare (sched/policy/utility_share.h) over (s_fit, s_pend) of
//                the jobs with a pending task of the kind, on the slots that are free or
//                run their tasks. A job without a goal (s_fit = 0) gets slots only once
//                every job with a goal has its s_fit.
//   dispatch     a free slot goes to the job with the largest target - running, ties by
//                earliest absolute goal (none: last), then arrival; work-conserving: a
//                free slot never stays idle while a task of its kind is pending. Maps
//                data-local first; reduces through PickReduceFor.
//
// A task's work is measured, not its time: each slot keeps a work clock (the integral of
// its speed, stepped in OnSlotSpeedChanged), and a finished task did clock(end) -
// clock(start) of work, exact under throttles. A job's mean task work of a kind is, first
// that holds: the mean of its finished tasks of the kind; the Estimator's estimate at
// speed 1.0 (made at admission, at the job's mean split; reduces at the estimated shuffle
// over R); its preview job's mean (PolicyArgs::preview, matched by name); the mean of the
// finished tasks of its app; of any task of the kind; kUnknownTaskWork.
//
// Admits every job (no admission control: a goal is soft) and never preempts: a running
// task always finishes. The forecast is told each slot's speed change (Observe).
//
// One instance per Controller: it knows jobs by id, and ids restart with each Controller.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sched/core/policy.h"
#include "sched/estimate/capacity_forecast.h"
#include "sched/estimate/estimator.h"
#include "sched/plan/plan_preview.h"

namespace mrlocal {

// A job's part in the last re-plan of a slot kind.
struct GoalAllocation {
  int s_fit = 0;   // WalkBack's minimum parallelism now
  int target = 0;  // EqualUtilityShare's slots (a job with no pending task: what it holds)
};

class GoalAdaptivePolicy final : public Policy {
 public:
  // A running task's expected remainder is at least this share of the mean: it is late,
  // but not done.
  static constexpr double kMinRemainder = 0.05;
  // A task's work when nothing is known of any task yet (the first seconds of a run).
  static constexpr double kUnknownTaskWork = 1.0;

  // `forecast`: the capacity ahead, told of speed changes; null: the capacity observed
  // now, held (adaptive). `estimator` and `preview` may be null; `estimator` must
  // outlive the policy, `preview` is read here only.
  GoalAdaptivePolicy(std::string name, std::shared_ptr<CapacityForecast> forecast,
                     const Estimator* estimator, const PlanPreview* preview);

  std::string_view name() const override { return name_; }
  Admission Admit(const JobState& job, const ClusterState& state, Time now) override;
  void Dispatch(DispatchRound& round, const ClusterState& state, Time now) override;
  void OnTaskFinished(const TaskRecord& record, const ClusterState& state, Time now) override;
  void OnJobFinished(const JobState& job, const ClusterState& state, Time now) override;
  void OnSlotSpeedChanged(const SlotInfo& slot, double old_speed, const ClusterState& state,
                          Time now) override;

  // `job`'s s_fit and target in the last re-plan of `kind`'s slots; none: it took no part
  // (no work of that kind then, or no re-plan yet).
  std::optional<GoalAllocation> LastAllocation(JobId job, SlotKind kind) const;

 private:
  struct Mean {
    double sum = 0;
    int count = 0;
    void Add(double w) { sum += w, ++count; }
    std::optional<double> value() const {
      return count > 0 ? std::optional<double>(sum / count) : std::nullopt;
    }
  };
  // The integral of a slot's speed: work done on it since the run started.
  struct SlotClock {
    double work = 0;  // at `since`
    Time since{0};
    double speed = 1;
    double task_start = 0;  // the clock when its current task was launched
    double At(Time t) const { return work + speed * Seconds(t - since); }
  };
  struct JobTrack {
    std::string app;
    std::array<Mean, 2> done;                    // finished tasks' work, by SlotKind
    std::array<std::optional<double>, 2> prior;  // estimator's or preview's, by SlotKind
  };
  // A job's tasks not done, by SlotKind.
  struct JobLoad {
    std::array<double, 2> work{};
    std::array<int, 2> pending{};
    std::array<int, 2> running{};
  };
  struct Candidate;

  void NoteSlots(const ClusterState& state, Time now);
  // The work the slots of `kind` are expected to do in [t0, t1).
  double Capacity(SlotKind kind, Time t0, Time t1) const;
  double MeanWork(JobId job, SlotKind kind) const;
  std::map<JobId, JobLoad> Loads(const ClusterState& state, Time now) const;
  // How long before `end` a phase of `work_per_lane` on each of its lanes must start.
  Duration PhaseBefore(SlotKind kind, double work_per_lane, Time end, Time now) const;
  // The goal the job's tasks of `kind` must end by.
  std::optional<Time> KindGoal(const JobState& job, const JobLoad& load, SlotKind kind,
                               Time now) const;
  // Re-plans `kind` (last_[kind]) and returns the jobs with a pending task of it.
  std::vector<Candidate> Replan(SlotKind kind, const ClusterState& state,
                                const std::map<JobId, JobLoad>& loads, Time now);
  void Fill(SlotKind kind, std::vector<Candidate> candidates, DispatchRound& round,
            const ClusterState& state, Time now);

  std::string name_;
  std::shared_ptr<CapacityForecast> forecast_;  // null: adaptive, which holds held_rate_
  std::array<double, 2> held_rate_{};           // by SlotKind: the speeds summed, this round
  const Estimator* estimator_;
  std::map<std::string, std::array<std::optional<double>, 2>> preview_means_;  // by job name
  std::vector<SlotClock> clocks_;                                              // by SlotId
  std::array<int, 2> slots_of_kind_{};
  std::map<JobId, JobTrack> jobs_;
  std::map<std::string, std::array<Mean, 2>> app_done_;
  std::array<Mean, 2> all_done_;
  std::array<std::map<JobId, GoalAllocation>, 2> last_;
};

}  // namespace mrlocal
