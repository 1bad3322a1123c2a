// The allocation utility and the equal-utility share of the slots, on hand-worked demands
// and on seeded random ones (what every share must satisfy).
#include "sched/policy/utility_share.h"

#include <gtest/gtest.h>

#include <numeric>
#include <random>
#include <vector>

namespace mrlocal {
namespace {

int Sum(const std::vector<int>& v) { return std::accumulate(v.begin(), v.end(), 0); }

TEST(AllocationUtility, MinusOneWithNoSlotZeroAtTheNeedOneWithEveryTask) {
  const SlotDemand d{.s_fit = 4, .s_pend = 10};
  EXPECT_DOUBLE_EQ(AllocationUtility(0, d), -1);
  EXPECT_DOUBLE_EQ(AllocationUtility(2, d), -0.5);
  EXPECT_DOUBLE_EQ(AllocationUtility(4, d), 0);
  EXPECT_DOUBLE_EQ(AllocationUtility(7, d), 0.5);
  EXPECT_DOUBLE_EQ(AllocationUtility(10, d), 1);
}

TEST(AllocationUtility, AJobWithoutANeedStartsAtZeroAndAJobAtItsLastTasksJumpsToOne) {
  EXPECT_DOUBLE_EQ(AllocationUtility(0, {.s_fit = 0, .s_pend = 8}), 0);
  EXPECT_DOUBLE_EQ(AllocationUtility(2, {.s_fit = 0, .s_pend = 8}), 0.25);
  EXPECT_DOUBLE_EQ(AllocationUtility(5, {.s_fit = 6, .s_pend = 6}), -1.0 / 6);
  EXPECT_DOUBLE_EQ(AllocationUtility(6, {.s_fit = 6, .s_pend = 6}), 1);
}

TEST(EqualUtilityShare, EqualDemandsSplitEvenly) {
  const std::vector<SlotDemand> d = {{2, 5}, {2, 5}};
  EXPECT_EQ(EqualUtilityShare(d, 6), (std::vector<int>{3, 3}));
  EXPECT_EQ(EqualUtilityShare(d, 7), (std::vector<int>{4, 3}));  // the odd slot to the first
  EXPECT_EQ(EqualUtilityShare(d, 3), (std::vector<int>{2, 1}));  // below s_fit, same rule
}

// J2 needs 4 of 8, J1 2 of 6: 10 slots give both u = 0.5 (J1: 2 + 0.5 x 4, J2: 4 + 0.5 x 4).
TEST(EqualUtilityShare, AJobThatNeedsMoreGetsMoreAndTheSameUtility) {
  const std::vector<SlotDemand> d = {{2, 6}, {4, 8}};
  const std::vector<int> share = EqualUtilityShare(d, 10);
  EXPECT_EQ(share, (std::vector<int>{4, 6}));
  EXPECT_DOUBLE_EQ(AllocationUtility(share[0], d[0]), 0.5);
  EXPECT_DOUBLE_EQ(AllocationUtility(share[1], d[1]), 0.5);
}

// 6 slots where 12 are needed: each job gets half its need, both at u = -0.5.
TEST(EqualUtilityShare, OverSubscribedEveryJobIsEquallyShortOfItsNeed) {
  const std::vector<SlotDemand> d = {{4, 8}, {8, 12}};
  const std::vector<int> share = EqualUtilityShare(d, 6);
  EXPECT_EQ(share, (std::vector<int>{2, 4}));
  EXPECT_DOUBLE_EQ(AllocationUtility(share[0], d[0]), -0.5);
  EXPECT_DOUBLE_EQ(AllocationUtility(share[1], d[1]), -0.5);
}

// 4 slots for needs of 3 and 5: the equal level is u = -0.5 (1.5 and 2.5 slots); whole
// slots leave each job within one slot of it, both still short of their need.
TEST(EqualUtilityShare, OverSubscribedUtilitiesAreEqualUpToASlot) {
  const std::vector<SlotDemand> d = {{3, 6}, {5, 8}};
  const std::vector<int> share = EqualUtilityShare(d, 4);
  EXPECT_EQ(Sum(share), 4);
  for (size_t j = 0; j < d.size(); ++j) {
    EXPECT_LT(AllocationUtility(share[j], d[j]), 0);
    EXPECT_LE(AllocationUtility(share[j] - 1, d[j]), -0.5);
    EXPECT_GE(AllocationUtility(share[j] + 1, d[j]), -0.5);
  }
}

// A job without a goal (s_fit = 0) waits while a job with one is short of its need, and
// takes what is left once none is.
TEST(EqualUtilityShare, JobsWithoutAGoalGetSlotsOnlyOnceEveryNeedIsMet) {
  const std::vector<SlotDemand> d = {{0, 10}, {6, 10}};
  EXPECT_EQ(EqualUtilityShare(d, 4), (std::vector<int>{0, 4}));
  EXPECT_EQ(EqualUtilityShare(d, 6), (std::vector<int>{0, 6}));
  EXPECT_EQ(EqualUtilityShare(d, 20), (std::vector<int>{10, 10}));
}

// A job that can use fewer slots than it needs (s_pend < s_fit) gets all it can use
// first, as the most urgent; the rest goes to the others.
TEST(EqualUtilityShare, NeverAboveWhatAJobCanUse) {
  const std::vector<SlotDemand> d = {{10, 2}, {4, 20}};
  EXPECT_EQ(EqualUtilityShare(d, 3), (std::vector<int>{2, 1}));
  EXPECT_EQ(EqualUtilityShare(d, 12), (std::vector<int>{2, 10}));
  EXPECT_EQ(EqualUtilityShare(d, 100), (std::vector<int>{2, 20}));
}

TEST(EqualUtilityShare, NoJobsOrNoSlotsGiveNothing) {
  EXPECT_TRUE(EqualUtilityShare({}, 8).empty());
  const std::vector<SlotDemand> d = {{3, 6}, {0, 4}};
  EXPECT_EQ(EqualUtilityShare(d, 0), (std::vector<int>{0, 0}));
}

// Seeded random demands: every share sums to min(slots, sum s_pend), stays within
// [0, s_pend], and no job is more than one slot from the equal-utility level the others
// are at (moving one slot from a job to another never lifts the lower utility above the
// higher one's level before the move).
TEST(EqualUtilityShare, RandomDemandsKeepTheContract) {
  std::mt19937 rng(15);
  std::uniform_int_distribution<int> count(1, 12), need(0, 16), slots_of(0, 80);
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<SlotDemand> d(count(rng));
    int pending = 0;
    for (SlotDemand& j : d) {
      j = {need(rng), need(rng)};
      pending += j.s_pend;
    }
    const int slots = slots_of(rng);
    const std::vector<int> share = EqualUtilityShare(d, slots);
    SCOPED_TRACE(testing::Message() << "trial " << trial << " slots " << slots);
    ASSERT_EQ(share.size(), d.size());
    EXPECT_EQ(Sum(share), std::min(slots, pending));
    for (size_t j = 0; j < d.size(); ++j) {
      EXPECT_GE(share[j], 0);
      EXPECT_LE(share[j], d[j].s_pend);
    }
    for (size_t a = 0; a < d.size(); ++a)
      for (size_t b = 0; b < d.size(); ++b) {
        if (share[a] == 0 || share[b] == d[b].s_pend) continue;
        // b could have taken a's last slot: then a's utility without it is no higher than
        // b's utility with one more.
        EXPECT_LE(AllocationUtility(share[a] - 1, d[a]), AllocationUtility(share[b] + 1, d[b]))
            << a << " " << b;
      }
  }
}

}  // namespace
}  // namespace mrlocal
