// The capacity forecasts: the work a cluster's slots do over a span, as each kind predicts
// it, checked against integrals worked by hand.
#include "sched/estimate/capacity_forecast.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/util/cluster.h"

namespace mrlocal {
namespace {

Time S(double s) { return FromSeconds(s); }

// Node 0: map slots 0 and 1 and reduce slot 3, speed 1.0; node 1: map slot 2, speed 0.5.
// Map rate 2.5 (2 on node 0), reduce rate 1.
std::vector<SlotInfo> Slots() { return testing::ClusterSlots("1x(2m,1r,1.0)+1x(1m,0r,0.5)"); }

// Slot `id` of Slots() at `factor` x its base speed.
SlotInfo At(int id, double factor) {
  SlotInfo s = Slots()[static_cast<size_t>(id)];
  s.speed *= factor;
  return s;
}

// Node 0's profile: 1.0 until 10 s, 0.5 until 20 s, then 0.25.
std::map<NodeId, SpeedProfile> Node0Profile() {
  return {{0, SpeedProfile({S(10), S(20)}, {0.5, 0.25})}};
}

TEST(KnownForecast, IntegratesEachNodesProfileTimesItsSlotsSpeeds) {
  KnownForecast f(Slots(), Node0Profile());
  // Maps over [0, 30): node 0: 2 x (10 + 10 x 0.5 + 10 x 0.25) = 35; node 1: 0.5 x 30.
  EXPECT_DOUBLE_EQ(f.Work(SlotKind::kMap, S(0), S(30)), 50);
  // Reduces over [5, 15): 1 x (5 + 5 x 0.5).
  EXPECT_DOUBLE_EQ(f.Work(SlotKind::kReduce, S(5), S(15)), 7.5);
  EXPECT_DOUBLE_EQ(f.Work(SlotKind::kMap, S(30), S(30)), 0);
  EXPECT_DOUBLE_EQ(f.Work(SlotKind::kMap, S(40), S(30)), 0);
  // Known in advance: what the cluster shows changes nothing.
  f.Observe(At(0, 0.1), S(1));
  EXPECT_DOUBLE_EQ(f.Work(SlotKind::kMap, S(0), S(30)), 50);
}

TEST(KnownForecast, NodesThatShareAProfileCountEach) {
  const SpeedProfile half({S(0)}, {0.5});
  KnownForecast f(testing::ClusterSlots("3x(1m,1r,1.0)"), {{0, half}, {2, half}});
  // Nodes 0 and 2 at 0.5, node 1 at 1.0: 2 x 0.5 x 10 + 10.
  EXPECT_DOUBLE_EQ(f.Work(SlotKind::kMap, S(0), S(10)), 20);
}

TEST(ConstantForecast, HoldsTheAvailabilityLastObservedForEver) {
  ConstantForecast f(Slots());
  EXPECT_DOUBLE_EQ(f.Work(SlotKind::kMap, S(0), S(10)), 25);
  f.Observe(At(0, 0.5), S(3));
  // Node 0 at 0.5, before and after 3 s: (2 x 0.5 + 0.5) x 10.
  EXPECT_DOUBLE_EQ(f.Work(SlotKind::kMap, S(0), S(10)), 15);
  EXPECT_DOUBLE_EQ(f.Work(SlotKind::kMap, S(100), S(110)), 15);
  EXPECT_DOUBLE_EQ(f.Work(SlotKind::kReduce, S(0), S(10)), 5);
  // The node's other slots telling the same change nothing.
  f.Observe(At(1, 0.5), S(3));
  f.Observe(At(3, 0.5), S(3));
  EXPECT_DOUBLE_EQ(f.Work(SlotKind::kMap, S(0), S(10)), 15);
  // Node 1 (base 0.5) at half its speed: 0.25.
  f.Observe(At(2, 0.5), S(4));
  EXPECT_DOUBLE_EQ(f.Work(SlotKind::kMap, S(0), S(10)), 12.5);
}

// Node 0 drops to 0.5 at 10 s.
void DropNode0(CapacityForecast& f) {
  for (int slot : {0, 1, 3}) f.Observe(At(slot, 0.5), S(10));
}

TEST(LearnedForecast, WithoutAPeriodHoldsAMovingAverageOfThePast) {
  LearnedForecast f(Slots(), {.window = S(10)});
  FakeClock clock;
  f.SetClock(&clock);
  clock.Set(S(10));
  DropNode0(f);
  // The past is what was seen: node 0 at 1.0 until 10 s.
  EXPECT_DOUBLE_EQ(f.Work(SlotKind::kMap, S(0), S(10)), 25);
  // At 10 s the average has seen only 1.0: held over any span ahead.
  EXPECT_DOUBLE_EQ(f.Work(SlotKind::kMap, S(40), S(50)), 25);
  // At 20 s node 0's average has decayed toward 0.5, with time constant 10 s; [10, 20) is
  // past, at 0.5.
  clock.Set(S(20));
  const double average = 0.5 + 0.5 * std::exp(-1.0);
  EXPECT_NEAR(f.Work(SlotKind::kMap, S(20), S(30)), 2 * average * 10 + 0.5 * 10, 1e-9);
  EXPECT_NEAR(f.Work(SlotKind::kMap, S(10), S(30)), (10 + 5) + (2 * average * 10 + 5), 1e-9);
  EXPECT_NEAR(f.Work(SlotKind::kReduce, S(40), S(50)), average * 10, 1e-9);
}

TEST(LearnedForecast, UnderBurstsForecastsTheShareTheyLeave) {
  const std::vector<SlotInfo> one = testing::OneNode(1, 0);
  LearnedForecast f(one, {.window = S(20)});
  SlotInfo s = one[0];
  // Bursts at 0.5 for 2 s every 4 s: half the time at 0.5, a mean of 0.75.
  for (int t = 0; t < 400; t += 4) {
    s.speed = 0.5;
    f.Observe(s, S(t + 2));
    s.speed = 1.0;
    f.Observe(s, S(t + 4));
  }
  const double forecast = f.Work(SlotKind::kMap, S(400), S(410)) / 10;
  EXPECT_NEAR(forecast, 0.75, 0.03);
}

TEST(LearnedForecast, WithAPeriodRepeatsTheLastPeriodObserved) {
  const std::vector<SlotInfo> one = testing::OneNode(1, 0);
  LearnedForecast f(one, {.period = S(100), .window = S(30)});
  SlotInfo s = one[0];
  s.speed = 0.5;
  f.Observe(s, S(20));
  s.speed = 1.0;
  f.Observe(s, S(50));
  FakeClock clock;  // at 60 s
  clock.Set(S(60));
  f.SetClock(&clock);
  // Seen: 1.0 over [0, 20), 0.5 over [20, 50), 1.0 over [50, 60): 45.
  EXPECT_DOUBLE_EQ(f.Work(SlotKind::kMap, S(0), S(60)), 45);
  EXPECT_DOUBLE_EQ(f.Work(SlotKind::kMap, S(10), S(30)), 15);
  // The average at 60 s, for the times one period earlier than which nothing was seen.
  const double at50 = 0.5 + 0.5 * std::exp(-1.0);
  const double at60 = 1.0 + (at50 - 1.0) * std::exp(-10.0 / 30);
  // [120, 130) is [20, 30) a period earlier: 0.5 x 10.
  EXPECT_NEAR(f.Work(SlotKind::kMap, S(120), S(130)), 5, 1e-9);
  // [60, 160): [-40, 0) unseen at the average, then [0, 60) as seen.
  EXPECT_NEAR(f.Work(SlotKind::kMap, S(60), S(160)), 40 * at60 + 45, 1e-9);
  // [170, 175) is [-30, -25) two periods earlier, before the run: the average.
  EXPECT_NEAR(f.Work(SlotKind::kMap, S(170), S(175)), 5 * at60, 1e-9);
  // A span across the past and the future: [50, 60) seen, [60, 70) is [-40, -30).
  EXPECT_NEAR(f.Work(SlotKind::kMap, S(50), S(70)), 10 + 10 * at60, 1e-9);
  // Three periods ahead and more: each whole period is the last one's 40 at60 + 45.
  EXPECT_NEAR(f.Work(SlotKind::kMap, S(60), S(360)), 3 * (40 * at60 + 45), 1e-9);
}

}  // namespace
}  // namespace mrlocal
