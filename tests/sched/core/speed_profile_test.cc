// The step function of availability: its value, its integral over any span (the work a
// slot does), and when a task of some work ends on it.
#include "sched/core/speed_profile.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace mrlocal {
namespace {

Time S(double s) { return FromSeconds(s); }

// 1.0 until 10 s, 0.5 until 20 s, 0.25 until 30 s, then 1.0 again.
SpeedProfile Steps() { return {{S(10), S(20), S(30)}, {0.5, 0.25, 1.0}}; }

TEST(SpeedProfile, IsOneBeforeTheFirstStepAndEachStepsFactorFromItsTimeOn) {
  const SpeedProfile p = Steps();
  EXPECT_DOUBLE_EQ(p.At(S(0)), 1.0);
  EXPECT_DOUBLE_EQ(p.At(S(-5)), 1.0);
  EXPECT_DOUBLE_EQ(p.At(S(9.999)), 1.0);
  EXPECT_DOUBLE_EQ(p.At(S(10)), 0.5);
  EXPECT_DOUBLE_EQ(p.At(S(25)), 0.25);
  EXPECT_DOUBLE_EQ(p.At(S(1000)), 1.0);
  EXPECT_DOUBLE_EQ(SpeedProfile().At(S(7)), 1.0);
}

TEST(SpeedProfile, IntegralIsTheAreaUnderTheSteps) {
  const SpeedProfile p = Steps();
  // Inside one step.
  EXPECT_DOUBLE_EQ(p.Integral(S(12), S(16)), 2.0);
  // 5..35: 5 x 1 + 10 x 0.5 + 10 x 0.25 + 5 x 1 = 17.5.
  EXPECT_DOUBLE_EQ(p.Integral(S(5), S(35)), 17.5);
  // Exactly on the steps: 10 x 0.5 + 10 x 0.25.
  EXPECT_DOUBLE_EQ(p.Integral(S(10), S(30)), 7.5);
  // Before the first step and after the last: factor 1.
  EXPECT_DOUBLE_EQ(p.Integral(S(-4), S(2)), 6.0);
  EXPECT_DOUBLE_EQ(p.Integral(S(40), S(100)), 60.0);
  EXPECT_DOUBLE_EQ(p.Integral(S(35), S(5)), -17.5);
  EXPECT_DOUBLE_EQ(p.Integral(S(7), S(7)), 0.0);
  EXPECT_DOUBLE_EQ(SpeedProfile().Integral(S(1), S(4)), 3.0);
}

TEST(SpeedProfile, EndOfSpendsTheWorkAtEachStepsSpeed) {
  const SpeedProfile p = Steps();
  // From 5 s at rate 1: 5 by 10 s, 5 more at 0.5 by 20 s, the last 1 at 0.25 takes 4 s.
  EXPECT_EQ(p.EndOf(S(5), 11, 1.0), S(24));
  // At rate 2: 10 by 10 s, more than the 8.5 asked: 5 + 8.5 / 2.
  EXPECT_EQ(p.EndOf(S(5), 8.5, 2.0), S(9.25));
  // The integral up to the end is the work over the rate.
  EXPECT_NEAR(p.Integral(S(5), p.EndOf(S(5), 12, 1.5)), 12 / 1.5, 1e-9);
  EXPECT_EQ(SpeedProfile().EndOf(S(3), 4, 0.5), S(11));
}

TEST(SpeedProfile, SetFromReplacesTheStepsFromThatTimeOn) {
  SpeedProfile p = Steps();
  p.SetFrom(S(20), 0.75);
  EXPECT_EQ(p.size(), 2u);
  EXPECT_DOUBLE_EQ(p.At(S(40)), 0.75);
  EXPECT_DOUBLE_EQ(p.Integral(S(0), S(30)), 10 + 5 + 7.5);
  p.SetFrom(S(25), 0.5);
  EXPECT_DOUBLE_EQ(p.At(S(24)), 0.75);
  EXPECT_DOUBLE_EQ(p.At(S(25)), 0.5);
}

TEST(SpeedProfile, RefusesTimesNotIncreasingAndFactorsNotPositive) {
  EXPECT_THROW(SpeedProfile({S(2), S(2)}, {0.5, 0.5}), std::invalid_argument);
  EXPECT_THROW(SpeedProfile({S(2)}, {0.0}), std::invalid_argument);
  EXPECT_THROW(SpeedProfile({S(2)}, {}), std::invalid_argument);
}

}  // namespace
}  // namespace mrlocal
