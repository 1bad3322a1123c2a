// The same policy makes the same decisions on the real-time loop (AsioLoop, reports posted
// to it as the engine's slot threads do) and on the simulation (SimLoop + SimExecutor),
// for a scripted scenario. On the real loop a replaying executor finishes tasks in the
// order of their scripted (virtual) end times, so the test does not depend on how fast
// this machine is; what it checks is that the Controller and the policy behave the same
// whatever loop and executor they run on.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>

#include "sched/core/asio_loop.h"
#include "sched/core/controller.h"
#include "sched/partition/partitioner.h"
#include "sched/policy/policy_registry.h"
#include "sched/sim/sim_executor.h"
#include "sched/sim/sim_loop.h"

namespace mrlocal {
namespace {

struct Launched {
  SlotId slot;
  JobId job;
  TaskKind kind;
  uint32_t index;
  friend bool operator==(const Launched&, const Launched&) = default;
};

class LaunchLog final : public ControllerObserver {
 public:
  void OnTaskStart(const TaskLaunch& l, Time) override {
    log.push_back({l.slot, l.task.job, l.task.kind, l.task.index});
  }
  std::vector<Launched> log;
};

// Scripted work, seconds at speed 1.0: distinct values so that no two tasks end together.
double Work(JobId job, TaskKind kind, uint32_t index) {
  return (kind == TaskKind::kMap ? 1.0 : 2.0) + 0.37 * job + 0.011 * index;
}

struct Scenario {
  std::vector<SlotInfo> slots = {{0, SlotKind::kMap, 0, 1.0},
                                 {1, SlotKind::kMap, 1, 0.5},
                                 {2, SlotKind::kReduce, 0, 1.0},
                                 {3, SlotKind::kReduce, 1, 0.5}};
  // job: maps, reduces, deadline (s; 0 = none), queue, weight
  struct Job {
    uint32_t maps, reduces;
    double deadline_s;
    const char* queue;
    double weight;
  };
  std::vector<Job> jobs = {
      {5, 2, 0, "a", 1.0}, {3, 1, 40, "b", 2.0}, {4, 2, 20, "a", 1.0}, {2, 1, 30, "b", 1.0}};

  JobSpec Spec(JobId id) const {
    const Job& j = jobs.at(id - 1);
    JobSpec s;
    s.name = "job" + std::to_string(id);
    s.app = "synthetic";
    s.reduces = j.reduces;
    if (j.deadline_s > 0) s.deadline = FromSeconds(j.deadline_s);
    s.queue = j.queue;
    s.weight = j.weight;
    // Units are microseconds of work, as synthetic jobs declare them (tools/runtime/sim_jobs.h),
    // so that the deadline policies' estimates are exact.
    for (uint32_t i = 0; i < j.maps; ++i)
      s.maps.push_back({static_cast<uint64_t>(Work(id, TaskKind::kMap, i) * 1e6), {}});
    for (uint32_t i = 0; i < j.reduces; ++i) {
      const auto units = static_cast<uint64_t>(Work(id, TaskKind::kReduce, i) * 1e6);
      s.shuffle_units += units;
      s.max_reduce_units = std::max(s.max_reduce_units, units);
    }
    s.partition_hashes = MakePartitionHashes(1, j.reduces, 1);
    return s;
  }
  SimJob Model(JobId id) const {
    const Job& j = jobs.at(id - 1);
    SimJob m;
    for (uint32_t i = 0; i < j.maps; ++i) m.map_work_s.push_back(Work(id, TaskKind::kMap, i));
    for (uint32_t i = 0; i < j.reduces; ++i)
      m.reduce_work_s.push_back(Work(id, TaskKind::kReduce, i));
    return m;
  }
};

// Exact estimates for the deadline policies (rtmr, dc).
const JobHistory& History() {
  static const JobHistory history = [] {
    JobHistory h;
    AppEstimate e;
    e.map_s_per_unit = e.reduce_s_per_unit = 1e-6;
    h.Set("synthetic", e);
    return h;
  }();
  return history;
}

std::vector<Launched> RunSimulated(const Scenario& sc, const std::string& policy_name) {
  SimLoop loop;
  SimExecutor executor(loop, sc.slots);
  auto policy = MakePolicy(policy_name, {&History(), {}});
  Controller c(loop, executor, **policy, sc.slots, 2, std::move(MakePartitioner("hash")).value());
  LaunchLog log;
  c.AddObserver(&log);
  for (JobId id = 1; id <= sc.jobs.size(); ++id) {
    executor.AddJob(id, sc.Model(id));
    c.Submit(sc.Spec(id));
  }
  c.RunUntilIdle();
  return log.log;
}

// Runs on the real loop; finishes the running task with the earliest scripted end, one at
// a time, each after the Controller has handled the previous report.
class ReplayExecutor final : public Executor {
 public:
  ReplayExecutor(AsioLoop& loop, const Scenario& sc) : loop_(loop), sc_(sc) {}
  void SetReportFn(ReportFn fn) override { report_ = std::move(fn); }
  void Launch(const TaskLaunch& l) override {
    const double speed = sc_.slots[l.slot].speed;
    const double end = virtual_now_ + Work(l.task.job, l.task.kind, l.task.index) / speed;
    running_.insert({end, l.slot, l.token, l.task});
    if (!scheduled_) {
      scheduled_ = true;
      loop_.Post([this] { FinishNext(); });
    }
  }
  void Cancel(SlotId, uint64_t) override {}
  void SetPlan(JobId, const ReducePlan&) override {}
  Status FinishJob(JobId, bool) override { return Status::OK(); }
  double Progress(SlotId) const override { return 0; }

 private:
  using Entry = std::tuple<double, SlotId, uint64_t, TaskRef>;
  struct ByEnd {
    bool operator()(const Entry& a, const Entry& b) const {
      return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
    }
  };
  void FinishNext() {
    scheduled_ = false;
    if (running_.empty()) return;
    auto [end, slot, token, task] = *running_.begin();
    running_.erase(running_.begin());
    virtual_now_ = end;
    TaskReport r;
    r.task = task;
    r.token = token;
    r.slot = slot;
    r.start = loop_.Now();
    r.end = loop_.Now();
    report_(std::move(r));  // the Controller posts it to the loop, as from a slot thread
    scheduled_ = true;
    loop_.Post([this] { FinishNext(); });  // runs after that report is handled
  }

  AsioLoop& loop_;
  const Scenario& sc_;
  ReportFn report_;
  std::set<Entry, ByEnd> running_;
  double virtual_now_ = 0;
  bool scheduled_ = false;
};

std::vector<Launched> RunReal(const Scenario& sc, const std::string& policy_name) {
  AsioLoop loop;
  ReplayExecutor executor(loop, sc);
  auto policy = MakePolicy(policy_name, {&History(), {}});
  Controller c(loop, executor, **policy, sc.slots, 2, std::move(MakePartitioner("hash")).value());
  LaunchLog log;
  c.AddObserver(&log);
  for (JobId id = 1; id <= sc.jobs.size(); ++id) c.Submit(sc.Spec(id));
  c.RunUntilIdle();
  return log.log;
}

TEST(LoopEquivalence, EveryPolicyDecidesAlikeOnTheRealAndTheSimulatedLoop) {
  Scenario sc;
  for (const std::string& policy : PolicyNames()) {
    SCOPED_TRACE(policy);
    std::vector<Launched> sim = RunSimulated(sc, policy);
    std::vector<Launched> real = RunReal(sc, policy);
    // Every task of every admitted job ran once, and in the same order on the same slots.
    if (!PolicyUsesHistory(policy))
      EXPECT_EQ(sim.size(), 5u + 2 + 3 + 1 + 4 + 2 + 2 + 1);
    else
      EXPECT_GE(sim.size(), 5u + 2);  // at least the first job, admitted on an empty cluster
    EXPECT_EQ(sim, real);
  }
}

}  // namespace
}  // namespace mrlocal
