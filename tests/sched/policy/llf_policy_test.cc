// LlfPolicy against hand-built ClusterStates (jobs as the Controller makes them), then in
// simulation: the order by laxity, when laxities are recomputed, and steering around an
// overloaded node.
#include "sched/policy/llf_policy.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>

#include "sched/core/cluster_spec.h"
#include "sched/policy/edf_policy.h"
#include "sched/policy/policy_registry.h"
#include "tests/util/cluster.h"
#include "tests/util/policy_test_util.h"

namespace mrlocal {
namespace {

using std::chrono::seconds;
using testing::ExactHistory;
using testing::MakeCluster;
using testing::Nodes;

// Counts the estimates asked of an ExactHistory.
class CountingEstimator final : public Estimator {
 public:
  std::optional<double> TaskSeconds(const JobState& job, const TaskFeatures& task) const override {
    ++calls;
    return history.TaskSeconds(job, task);
  }
  std::optional<ShuffleEstimate> Shuffle(const JobState& job) const override {
    return history.Shuffle(job);
  }
  std::string Source(const JobState& job) const override { return history.Source(job); }

  JobHistory history = ExactHistory();
  mutable int calls = 0;
};

// Wake-ups as asked, fired by hand.
class FakeHost final : public PolicyHost {
 public:
  TimerId WakeAt(Time at) override {
    wakes[++last] = at;
    return last;
  }
  void CancelWake(TimerId id) override { wakes.erase(id); }
  bool Preempt(const TaskRef&) override { return false; }
  std::map<TimerId, Time> wakes;
  TimerId last = 0;
};

struct Fixture {
  explicit Fixture(const std::vector<SlotInfo>& slots) : s(MakeCluster(slots)), llf(&estimator) {
    llf.Attach(&host);
  }
  // Synthetic job `id` arriving at `arrival_s`: `maps` maps of map_s seconds, one reduce of
  // 1 s, admitted and active.
  JobState& Add(JobId id, double arrival_s, std::optional<double> deadline_s, uint32_t maps,
                double map_s, std::string app = "synthetic") {
    JobState j = testing::ArrivingJob(testing::JobBuilder(std::move(app))
                                          .Deadline(testing::SecondsOrNone(deadline_s))
                                          .MapSeconds(std::vector<double>(maps, map_s))
                                          .ReduceSeconds(1, 1.0)
                                          .Build(),
                                      id, FromSeconds(arrival_s));
    EXPECT_TRUE(llf.Admit(j, s, j.arrival).admitted);
    s.active.push_back(id);
    return s.jobs.emplace(id, std::move(j)).first->second;
  }
  // The job the first map slot's decision goes to at `now_s`.
  std::optional<JobId> Next(double now_s) {
    auto t = llf.PickTask(s.slots[0].info, s, FromSeconds(now_s));
    if (!t) return std::nullopt;
    return t->job;
  }

  CountingEstimator estimator;
  FakeHost host;
  ClusterState s;
  LlfPolicy llf;
};

void RunAllMaps(JobState& job) {
  for (auto& t : job.maps) t.status = TaskStatus::kRunning;
  job.maps_running = job.M();
}

TEST(LlfPolicy, AdmitsEveryJobAndIsRegistered) {
  Fixture f(Nodes(1, 1, 1));
  f.Add(1, 0, 1, 50, 10);  // hopeless, still admitted
  EXPECT_FALSE(f.llf.admission_control());
  auto made = MakePolicy("llf", &f.estimator.history,
                         PolicyArgs().Set(kLofThreshold, 2.0).Set(kLofMinPts, 4.0));
  ASSERT_TRUE(made.ok());
  EXPECT_EQ((*made)->name(), "llf");
}

TEST(LlfPolicy, OrdersByLaxityNotByDeadline) {
  Fixture f(Nodes(1, 1, 1));
  f.Add(1, 0, 100, 1, 1);    // deadline 100 s, 2 s of work: laxity 98 s
  f.Add(2, 0, 120, 10, 10);  // later deadline, 101 s of work: laxity 19 s
  EXPECT_EQ(*f.llf.Laxity(1, Time{0}), seconds(98));
  EXPECT_EQ(*f.llf.Laxity(2, Time{0}), seconds(19));
  EXPECT_EQ(f.Next(0), 2u);
  EdfPolicy edf;  // which would take job 1
  for (JobId id : {1u, 2u}) edf.Admit(f.s.job(id), f.s, Time{0});
  EXPECT_EQ(edf.PickTask(f.s.slots[0].info, f.s, Time{0})->job, 1u);
}

TEST(LlfPolicy, CountsWavesOfTasksOverTheSlotsSpeeds) {
  // 20 maps of 10 s on 4 map slots, two of speed 0.5: 200 s of work over a speed of 3.
  Fixture f(testing::ClusterSlots("2x(1m,1r,1.0)+2x(1m,0r,0.5)"));
  f.Add(1, 0, 1000, 20, 10);
  EXPECT_NEAR(Seconds(*f.llf.Laxity(1, Time{0})), 1000 - 200.0 / 3 - 1, 1e-6);
}

TEST(LlfPolicy, NegativeLaxityWaitsForEveryJobWithLaxityLeftThenLeastNegativeFirst) {
  Fixture f(Nodes(1, 1, 1));
  f.Add(1, 0, std::nullopt, 2, 1);  // no deadline: last of all
  f.Add(2, 0, 5, 10, 10);           // laxity 5 - 101 = -96
  f.Add(3, 0, 500, 2, 10);          // laxity 479
  f.Add(4, 0, 50, 6, 10);           // laxity 50 - 61 = -11
  for (JobId expected : {3u, 4u, 2u, 1u}) {
    ASSERT_EQ(f.Next(0), expected);
    RunAllMaps(f.s.job(expected));
  }
  EXPECT_FALSE(f.Next(0));
}

TEST(LlfPolicy, AJobItCannotEstimateHasEdfsLaxity) {
  Fixture f(Nodes(1, 1, 1));
  f.Add(1, 0, 30, 2, 1, "unknown-app");
  EXPECT_EQ(*f.llf.Laxity(1, seconds(4)), seconds(26));
  EXPECT_FALSE(f.llf.Laxity(2, seconds(4)));
}

TEST(LlfPolicy, RecomputesLaxityOnArrivalFinishAndZeroCrossingOnly) {
  Fixture f(Nodes(1, 1, 1));
  f.Add(1, 0, 100, 4, 10);  // laxity 59
  f.Add(2, 0, 70, 1, 10);   // laxity 59
  EXPECT_EQ(f.llf.laxity_updates(), 2u);
  const int calls = f.estimator.calls;
  // Decisions walk the order: no estimate, no update.
  for (int i = 0; i < 1000; ++i) f.Next(i % 50);
  EXPECT_EQ(f.estimator.calls, calls);
  EXPECT_EQ(f.llf.laxity_updates(), 2u);

  // A finished map: job 1 is recomputed, and only it.
  JobState& j1 = f.s.job(1);
  j1.maps[0].status = TaskStatus::kDone;
  j1.maps[0].slot = 0;
  j1.maps[0].end = seconds(10);
  j1.maps_done = 1;
  f.llf.OnTaskFinished(
      {.task = {1, TaskKind::kMap, 0}, .slot = 0, .start = Time{0}, .end = seconds(10)}, f.s,
      seconds(10));
  EXPECT_EQ(f.llf.laxity_updates(), 3u);
  EXPECT_GT(f.estimator.calls, calls);
  EXPECT_EQ(*f.llf.Laxity(1, seconds(10)), seconds(59));  // 100 - 10 - 31

  // Job 2's laxity reaches zero at 59 s: its wake-up recomputes it, and it now waits for
  // job 1, whose laxity is positive.
  ASSERT_EQ(f.host.wakes.size(), 2u);
  TimerId zero2 = 0;
  for (auto [id, at] : f.host.wakes)
    if (at == seconds(59) && zero2 == 0) zero2 = id;
  EXPECT_EQ(f.Next(58), 2u);
  f.llf.OnTimer(zero2, f.s, seconds(59));
  EXPECT_EQ(f.llf.laxity_updates(), 4u);
  EXPECT_LT(*f.llf.Laxity(2, seconds(60)), Duration::zero());
  EXPECT_EQ(f.Next(60), 1u);
}

// The slots of a round, recorded.
class FakeRound final : public DispatchRound {
 public:
  explicit FakeRound(ClusterState& s) : s_(s) {}
  SlotId NextFree(SlotKind kind, SlotId from) const override {
    for (SlotId i = from; i < static_cast<SlotId>(s_.slots.size()); ++i)
      if (s_.slots[i].info.kind == kind && !s_.slots[i].task) return i;
    return -1;
  }
  bool Assign(SlotId slot, const std::optional<TaskRef>& task) override {
    if (!task) return true;
    s_.slots[slot].task = task;
    JobState& job = s_.job(task->job);
    job.task(task->kind, task->index).status = TaskStatus::kRunning;
    job.task(task->kind, task->index).slot = slot;
    ++(task->kind == TaskKind::kMap ? job.maps_running : job.reduces_running);
    assigned[slot] = *task;
    return true;
  }
  std::map<SlotId, TaskRef> assigned;

 private:
  ClusterState& s_;
};

// Map `i` of `job` ran on `slot` from start_s to end_s.
void Finish(Fixture& f, JobId job, uint32_t i, SlotId slot, double start_s, double end_s) {
  JobState& j = f.s.job(job);
  TaskState& t = j.maps[i];
  if (t.status == TaskStatus::kRunning) --j.maps_running;
  t.status = TaskStatus::kDone;
  t.slot = slot;
  t.start = FromSeconds(start_s);
  t.end = FromSeconds(end_s);
  ++j.maps_done;
  f.s.slots[slot].task.reset();
  f.llf.OnTaskFinished(
      {.task = {job, TaskKind::kMap, i}, .slot = slot, .start = t.start, .end = t.end}, f.s, t.end);
}

TEST(LlfPolicy, SteersAwayFromAnOverloadedNodeAndLetsItBackOnceItRecovers) {
  Fixture f(Nodes(4, 2, 1));  // map slots 0-7, two per node: node 3 has 6 and 7
  f.Add(1, 0, 15, 40, 1);     // laxity 15 - (40 / 8 + 1) = 9 s
  // 1 s maps: nodes 0-2 take 1 s, node 3 takes 6 s.
  for (uint32_t i = 0; i < 6; ++i) Finish(f, 1, i, static_cast<SlotId>(i), 0, 1);
  Finish(f, 1, 6, 6, 0, 6);
  EXPECT_TRUE(f.llf.detector().overloaded(3));
  EXPECT_EQ(f.llf.detector().overloaded_nodes(), std::vector<NodeId>{3});
  const std::optional<LofEvaluation> e = f.llf.detector().LastEvaluation(1);
  ASSERT_TRUE(e);
  ASSERT_EQ(e->tasks.size(), 7u);
  EXPECT_TRUE(e->tasks.back().node_overloaded);
  EXPECT_EQ(e->tasks.back().node, 3);
  EXPECT_DOUBLE_EQ(e->tasks.back().value, 6.0);
  EXPECT_GT(e->tasks.back().lof, 1.5);
  EXPECT_FALSE(e->tasks.front().node_overloaded);
  // Reduces are planned on the healthy nodes' reduce slots only.
  const JobState wide = testing::ArrivingJob(testing::JobBuilder().Maps(1).Reduces(4).Build(), 9);
  const std::vector<SlotId> plan = f.llf.PlaceReduces(wide, f.s);
  ASSERT_EQ(plan.size(), 4u);
  for (SlotId slot : plan) EXPECT_NE(f.s.slots[slot].info.node, 3) << slot;

  // Its laxity is now 15 - 6 - (33 / 6 + 1) = 2.5 s, short of a 6 s map on node 3: the
  // healthy slots get maps, node 3's none.
  FakeRound round(f.s);
  f.llf.Dispatch(round, f.s, seconds(6));
  EXPECT_EQ(round.assigned.size(), 6u);
  EXPECT_FALSE(round.assigned.count(6) || round.assigned.count(7));
  for (SlotId s = 0; s < 6; ++s) Finish(f, 1, round.assigned[s].index, s, 6, 7);

  // Its cool-off (the 6 s its task took) over, node 3 gets one probation task.
  FakeRound later(f.s);
  f.llf.Dispatch(later, f.s, seconds(12));
  EXPECT_TRUE(later.assigned.count(6));
  EXPECT_FALSE(later.assigned.count(7)) << "one probation task at a time";
  // It took 1 s, as the others: node 3 is back.
  Finish(f, 1, later.assigned[6].index, 6, 12, 13);
  EXPECT_FALSE(f.llf.detector().overloaded(3));
}

// A run must not stall on an overloaded node. Job 1's reduce was planned on node 3's
// reduce slot before node 3 was marked: while the node cools off, a free healthy reduce
// slot takes it (PickReduceFor alone leaves it to its free planned slot), and the policy
// asks to be woken when the cool-off ends, so that the probation does not wait for an
// event that may never come (a real run hung at its end, every slot idle).
TEST(LlfPolicy, AnOverloadedNodeStallsNoTask) {
  Fixture f(Nodes(4, 2, 1));  // map slots 0-7; reduce slots 8-11, one per node
  f.Add(1, 0, 15, 8, 1);
  for (uint32_t i = 0; i < 7; ++i) Finish(f, 1, i, static_cast<SlotId>(i), 0, 1);
  Finish(f, 1, 7, 6, 0, 6);  // node 3's map slot: six times slower
  ASSERT_TRUE(f.llf.detector().overloaded(3));
  bool woken_at_cool_off_end = false;
  for (auto [id, at] : f.host.wakes) woken_at_cool_off_end |= at == seconds(12);
  EXPECT_TRUE(woken_at_cool_off_end);

  JobState& job = f.s.job(1);
  job.reduces_planned = true;
  job.reduces[0].planned_slot = 11;
  FakeRound round(f.s);
  f.llf.Dispatch(round, f.s, seconds(7));
  ASSERT_EQ(round.assigned.size(), 1u);
  const SlotId took = round.assigned.begin()->first;
  EXPECT_NE(f.s.slots[took].info.node, 3);
  EXPECT_EQ(f.s.slots[took].info.kind, SlotKind::kReduce);
}

// A heterogeneous cluster: node 0 (a map slot at 1.0 and the reduce slot), node 1 (a map
// slot at 0.5). Job 1 (three 1 s maps, deadline 5 s) takes both map slots at 0; job 2 (one
// 10 s map, deadline 11.5 s) arrives at 0.5 s. When the fast slot frees at 1 s, edf gives
// it job 1's last map, and job 2's map starts at 2 s: it ends at 12.1 s, late. llf sees
// job 2's laxity (0.9 s) below job 1's (2.9 s): job 2 takes it, job 1's last map runs on
// the slow slot from 2 s to 4 s, and both meet their deadlines.
std::map<JobId, JobState> RunHeterogeneous(Policy& policy) {
  const ClusterSpec cluster = *ClusterSpec::Parse("1x(1m,1r,1.0)+1x(1m,0r,0.5)");
  const std::vector<SlotInfo> slots = cluster.Slots();
  SimLoop loop;
  SimExecutor exec(loop, slots);
  Controller c(loop, exec, policy, slots, cluster.nodes(),
               std::move(MakePartitioner("hash")).value(), testing::Quiet());
  struct Job {
    double arrival_s;
    uint32_t maps;
    double map_s, deadline_s;
  };
  for (Job j : {Job{0, 3, 1, 5}, Job{0.5, 1, 10, 11.5}}) {
    c.SubmitAt(FromSeconds(j.arrival_s), [&exec, j](JobId id) {
      SimJob model;
      model.map_work_s.assign(j.maps, j.map_s);
      model.reduce_work_s = {0.1};
      exec.AddJob(id, std::move(model));
      return testing::JobBuilder()
          .Deadline(FromSeconds(j.deadline_s))
          .MapSeconds(std::vector<double>(j.maps, j.map_s))
          .ReduceSeconds(1, 0.1)
          .Build();
    });
  }
  c.RunUntilIdle();
  return c.state().jobs;
}

TEST(LlfPolicy, MeetsADeadlineEdfMissesOnAHeterogeneousCluster) {
  EdfPolicy edf;
  auto by_edf = RunHeterogeneous(edf);
  const JobHistory history = ExactHistory();
  LlfPolicy llf(&history);
  auto by_llf = RunHeterogeneous(llf);
  for (auto* jobs : {&by_edf, &by_llf})
    for (auto& [id, job] : *jobs) ASSERT_EQ(job.phase, JobPhase::kDone) << id;
  EXPECT_GT(by_edf.at(2).finish, *by_edf.at(2).absolute_deadline());
  for (auto& [id, job] : by_llf) EXPECT_LE(job.finish, *job.absolute_deadline()) << id;
}

}  // namespace
}  // namespace mrlocal
