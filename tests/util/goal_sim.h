// A simulated cluster whose nodes' availability follows step profiles, as the runtime runs
// one (tools/runtime/runtime.cc): the SimExecutor integrates the profiles to end tasks, and
// at each step the forecast is told and the Controller's slot speeds change (the policy's
// OnSlotSpeedChanged). Synthetic jobs with goals; every launch recorded. No threads.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sched/core/controller.h"
#include "sched/core/goal_utility.h"
#include "sched/estimate/capacity_forecast.h"
#include "sched/partition/partitioner.h"
#include "sched/sim/sim_executor.h"
#include "sched/sim/sim_loop.h"
#include "tests/util/cluster.h"
#include "tests/util/job_builder.h"
#include "tests/util/sim_cluster.h"

namespace mrlocal::testing {

// One launch as the Controller made it.
struct Launch {
  Time at{0};
  SlotId slot = -1;
  TaskRef task;
  friend bool operator==(const Launch&, const Launch&) = default;
};

class GoalSim final : ControllerObserver {
 public:
  // `forecast` (may be null) is told each step before the Controller, as the runtime does.
  GoalSim(Policy& policy, const std::vector<SlotInfo>& slots,
          std::map<NodeId, SpeedProfile> availability = {},
          std::shared_ptr<CapacityForecast> forecast = nullptr)
      : slots_(slots),
        forecast_(std::move(forecast)),
        exec_(loop_, slots, {.noise = 0, .seed = 1, .availability = availability, .network = {}}),
        controller_(loop_, exec_, policy, slots, NodeCount(slots),
                    std::move(MakePartitioner("hash")).value(), Quiet()) {
    controller_.AddObserver(this);
    for (const auto& [node, profile] : availability)
      for (size_t i = 0; i < profile.size(); ++i)
        loop_.At(profile.times()[i], [this, node = node, factor = profile.factors()[i]] {
          for (const SlotInfo& s : slots_) {
            if (s.node != node) continue;
            SlotInfo now = s;
            now.speed = s.speed * factor;
            if (forecast_) forecast_->Observe(now, loop_.Now());
            (void)controller_.SetSlotSpeed(s.id, now.speed);
          }
        });
  }

  // A synthetic job arriving at `at`: maps of map_s[i] seconds at speed 1.0 (replicas
  // spread over the nodes), `reduces` reduces of reduce_s seconds, a relative goal.
  void Submit(Time at, std::vector<double> map_s, std::optional<Duration> goal,
              uint32_t reduces = 0, double reduce_s = 0, std::string name = "") {
    controller_.SubmitAt(at, [=, this](JobId id) {
      SimJob model;
      model.map_work_s = map_s;
      model.reduce_work_s.assign(reduces, reduce_s);
      JobSpec spec = JobBuilder()
                         .Name(name.empty() ? std::string("j") + std::to_string(id) : name)
                         .MapSeconds(map_s)
                         .SpreadOver(NodeCount(slots_))
                         .ReduceSeconds(reduces, reduce_s)
                         .Build();
      spec.goal = goal;
      exec_.AddJob(id, std::move(model));
      return spec;
    });
  }
  // `maps` maps of map_s seconds each.
  void Submit(Time at, uint32_t maps, double map_s, std::optional<Duration> goal) {
    Submit(at, std::vector<double>(maps, map_s), goal);
  }

  void Run() { controller_.RunUntilIdle(); }

  const std::vector<Launch>& launches() const { return launches_; }
  const JobState& job(JobId id) const { return controller_.state().job(id); }
  Time finish(JobId id) const { return job(id).finish; }
  bool met_goal(JobId id) const {
    const JobState& j = job(id);
    return j.phase == JobPhase::kDone && j.finish <= *j.absolute_goal();
  }
  double utility(JobId id) const {
    return GoalUtility(job(id).finish - job(id).arrival, *job(id).spec.goal);
  }
  const Controller& controller() const { return controller_; }

 private:
  void OnTaskStart(const TaskLaunch& l, Time at) override {
    launches_.push_back({at, l.slot, l.task});
  }

  std::vector<SlotInfo> slots_;
  std::shared_ptr<CapacityForecast> forecast_;
  SimLoop loop_;
  SimExecutor exec_;
  Controller controller_;
  std::vector<Launch> launches_;
};

}  // namespace mrlocal::testing
