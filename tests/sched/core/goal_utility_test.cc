// GoalUtility on hand-worked values: 1 for an instant job, 0 at the goal, -1/2 at twice
// the goal, 1/2 at half of it; -1 is what a job that never completes scores.
#include "sched/core/goal_utility.h"

#include <gtest/gtest.h>

namespace mrlocal {
namespace {

using std::chrono::seconds;

TEST(GoalUtility, IsOneForAnInstantJobAndZeroExactlyAtTheGoal) {
  EXPECT_DOUBLE_EQ(GoalUtility(seconds(0), seconds(10)), 1.0);
  EXPECT_DOUBLE_EQ(GoalUtility(seconds(10), seconds(10)), 0.0);
}

TEST(GoalUtility, FallsLinearlyBeforeTheGoal) {
  EXPECT_DOUBLE_EQ(GoalUtility(seconds(5), seconds(10)), 0.5);
  EXPECT_DOUBLE_EQ(GoalUtility(std::chrono::milliseconds(7500), seconds(10)), 0.25);
}

TEST(GoalUtility, IsMinusAHalfAtTwiceTheGoalAndStaysAboveAFailedJob) {
  EXPECT_DOUBLE_EQ(GoalUtility(seconds(20), seconds(10)), -0.5);
  EXPECT_DOUBLE_EQ(GoalUtility(seconds(40), seconds(10)), -0.75);
  EXPECT_GT(GoalUtility(std::chrono::hours(1000), seconds(10)), kFailedGoalUtility);
  EXPECT_DOUBLE_EQ(kFailedGoalUtility, -1.0);
}

}  // namespace
}  // namespace mrlocal
