// Injected faults (sched/core/fault_injection.h): what --inject and a workload's "faults"
// accept and refuse, and that an attempt's fate depends only on (seed, task, attempt, slot,
// time), at the rate asked for.
#include "sched/core/fault_injection.h"

#include <gtest/gtest.h>

#include "tests/util/cluster.h"

namespace mrlocal {
namespace {

TEST(ParseFault, ReadsEveryKindWithItsOptions) {
  Fault f = ParseFault("task-fail:0.05,app=wordcount,kind=reduce,seed=9").value();
  EXPECT_EQ(f.seed, 9u);
  EXPECT_EQ(f.kind, Fault::Kind::kTaskFail);
  EXPECT_DOUBLE_EQ(f.probability, 0.05);
  EXPECT_EQ(f.app, "wordcount");
  EXPECT_EQ(f.task_kind, TaskKind::kReduce);
  f = ParseFault("slot-fail:3,from=10s").value();
  EXPECT_EQ(f.kind, Fault::Kind::kSlotFail);
  EXPECT_EQ(f.target, 3);
  EXPECT_EQ(f.from, FromSeconds(10));
  f = ParseFault("node-slow:1,factor=0.1,from=1500ms").value();
  EXPECT_EQ(f.kind, Fault::Kind::kNodeSlow);
  EXPECT_DOUBLE_EQ(f.factor, 0.1);
  EXPECT_EQ(f.from, FromSeconds(1.5));
  f = ParseFault("replica-lost:7,node=2").value();
  EXPECT_TRUE(f.of_replica());
  EXPECT_EQ(f.target, 7);
  EXPECT_EQ(f.node, 2);
  EXPECT_EQ(ParseFault("node-fail:0,from=0").value().from, Duration::zero());
}

TEST(ParseFault, RefusesWhatIsOutOfRangeOrMisspelt) {
  auto message = [](const char* text) { return ParseFault(text).status().message(); };
  EXPECT_NE(message("task-fail:1.5").find("P must be in [0, 1]"), std::string::npos);
  EXPECT_NE(message("task-fail:-0.1").find("P must be in [0, 1]"), std::string::npos);
  EXPECT_NE(message("node-slow:1").find("needs factor=F"), std::string::npos);
  EXPECT_NE(message("node-slow:1,factor=0").find("(0, 1]"), std::string::npos);
  EXPECT_NE(message("node-slow:1,factor=2").find("(0, 1]"), std::string::npos);
  EXPECT_NE(message("slot-fail:-1").find("not an index"), std::string::npos);
  EXPECT_NE(message("slot-fail:1,from=-3s").find("from:"), std::string::npos);
  EXPECT_NE(message("slot-fail:1,factor=0.5").find("not an option"), std::string::npos);
  EXPECT_NE(message("disk-fail:1").find("expected task-fail:P"), std::string::npos);
  EXPECT_NE(message("task-fail").find("expected task-fail:P"), std::string::npos);
  EXPECT_NE(message("task-fail:0.1,kind=shuffle").find("not an option"), std::string::npos);
  EXPECT_NE(message("task-fail:nan").find("not a number"), std::string::npos);
}

TEST(FaultInjector, RefusesASlotOrNodeTheClusterLacks) {
  const auto slots = testing::ClusterSlots("2x(1m,1r,1.0)");  // 4 slots on 2 nodes
  EXPECT_TRUE(FaultInjector({ParseFault("slot-fail:3").value()}, 1).CheckCluster(slots, 2).ok());
  EXPECT_FALSE(FaultInjector({ParseFault("slot-fail:4").value()}, 1).CheckCluster(slots, 2).ok());
  EXPECT_FALSE(FaultInjector({ParseFault("node-fail:2").value()}, 1).CheckCluster(slots, 2).ok());
  EXPECT_FALSE(
      FaultInjector({ParseFault("replica-lost:0,node=5").value()}, 1).CheckCluster(slots, 2).ok());
}

TEST(FaultInjector, TaskFailHitsAttemptsAtItsRateAndTheSameOnesEveryTime) {
  FaultInjector a({ParseFault("task-fail:0.05").value()}, 7);
  FaultInjector b({ParseFault("task-fail:0.05").value()}, 7);
  int failed = 0;
  constexpr int kAttempts = 20000;
  for (uint32_t i = 0; i < kAttempts; ++i) {
    const TaskRef t{1 + i % 5, i % 3 ? TaskKind::kMap : TaskKind::kReduce, i};
    const AttemptFault fa = a.ForAttempt(t, 1, 0, 0, Time{0});
    EXPECT_EQ(fa.fails(), b.ForAttempt(t, 1, 3, 1, FromSeconds(9)).fails());
    if (!fa.fails()) continue;
    ++failed;
    EXPECT_GE(*fa.at_fraction, 0.0);
    EXPECT_LT(*fa.at_fraction, 1.0);
    EXPECT_EQ(fa.status().code(), Status::Code::kIoError);  // retriable
  }
  EXPECT_NEAR(failed / double(kAttempts), 0.05, 0.006);
  // Another attempt of a failed task draws again.
  int again = 0;
  for (uint32_t i = 0; i < 2000; ++i)
    again += a.ForAttempt({1, TaskKind::kMap, i}, 2, 0, 0, Time{0}).fails();
  EXPECT_LT(again, 200);
}

TEST(FaultInjector, TaskFailAppliesToItsAppAndKindOnly) {
  FaultInjector f({ParseFault("task-fail:1,app=pi,kind=map").value()}, 1);
  f.AddJob(1, "pi");
  f.AddJob(2, "wordcount");
  EXPECT_TRUE(f.ForAttempt({1, TaskKind::kMap, 0}, 1, 0, 0, Time{0}).fails());
  EXPECT_FALSE(f.ForAttempt({1, TaskKind::kReduce, 0}, 1, 0, 0, Time{0}).fails());
  EXPECT_FALSE(f.ForAttempt({2, TaskKind::kMap, 0}, 1, 0, 0, Time{0}).fails());
  f.RemoveJob(1);
  EXPECT_FALSE(f.ForAttempt({1, TaskKind::kMap, 0}, 1, 0, 0, Time{0}).fails());
}

TEST(FaultInjector, ASlotOrNodeFailsEveryAttemptFromItsTime) {
  FaultInjector f({ParseFault("slot-fail:2,from=10s").value(), ParseFault("node-fail:1").value()},
                  1);
  const TaskRef t{1, TaskKind::kMap, 0};
  // On slot 2 an attempt that starts before 10 s fails at 10 s; one after, at its start.
  EXPECT_EQ(f.ForAttempt(t, 1, 2, 0, FromSeconds(4)).at_time, FromSeconds(10));
  EXPECT_EQ(f.ForAttempt(t, 1, 2, 0, FromSeconds(12)).at_time, FromSeconds(12));
  EXPECT_FALSE(f.ForAttempt(t, 1, 3, 0, FromSeconds(12)).fails());
  EXPECT_EQ(f.ForAttempt(t, 1, 3, 1, FromSeconds(1)).at_time, FromSeconds(1));
}

TEST(FaultInjector, SlowdownsOfANodeMultiply) {
  FaultInjector f({ParseFault("node-slow:1,factor=0.5,from=2s").value(),
                   ParseFault("node-slow:1,factor=0.5,from=4s").value()},
                  1);
  const auto profiles = f.SlowProfiles();
  ASSERT_EQ(profiles.count(1), 1u);
  const SpeedProfile& p = profiles.at(1);
  EXPECT_DOUBLE_EQ(p.At(FromSeconds(1)), 1.0);
  EXPECT_DOUBLE_EQ(p.At(FromSeconds(3)), 0.5);
  EXPECT_DOUBLE_EQ(p.At(FromSeconds(5)), 0.25);
}

}  // namespace
}  // namespace mrlocal
