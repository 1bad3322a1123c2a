// A SharedVector copy must behave as an independent vector: changing one (through
// operator[], push_back, pop_back or Own) never shows in another, however they were copied.
#include "sched/policy/shared_vector.h"

#include <gtest/gtest.h>

#include <vector>

namespace mrlocal {
namespace {

std::vector<int> Items(const SharedVector<int>& v) {
  std::vector<int> out;
  for (size_t i = 0; i < v.size(); ++i) out.push_back(v[i]);
  return out;
}

TEST(SharedVector, GrowsLikeAVector) {
  SharedVector<int> v;
  EXPECT_TRUE(v.empty());
  for (int i = 0; i < 100; ++i) v.push_back(i);
  ASSERT_EQ(v.size(), 100u);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(v[size_t(i)], i);
  v.pop_back();
  EXPECT_EQ(v.size(), 99u);
  EXPECT_EQ(v[98], 98);
}

TEST(SharedVector, ACopyIsUnchangedByChangesToTheOriginalAndTheOtherWayRound) {
  SharedVector<int> a;
  for (int i = 0; i < 5; ++i) a.push_back(i);
  SharedVector<int> b = a;
  SharedVector<int> c;
  c = b;
  a[0] = 10;
  b.push_back(5);
  c.pop_back();
  c.Own()[1] = 11;
  EXPECT_EQ(Items(a), (std::vector<int>{10, 1, 2, 3, 4}));
  EXPECT_EQ(Items(b), (std::vector<int>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(Items(c), (std::vector<int>{0, 11, 2, 3}));
}

TEST(SharedVector, AMovedFromVectorIsEmptyAndTheTargetKeepsTheItems) {
  SharedVector<int> a;
  a.push_back(7);
  SharedVector<int> b = std::move(a);
  EXPECT_EQ(Items(b), (std::vector<int>{7}));
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): moved-from state is specified
  a.push_back(8);
  EXPECT_EQ(Items(a), (std::vector<int>{8}));
  EXPECT_EQ(Items(b), (std::vector<int>{7}));
}

TEST(SharedVector, SelfAssignmentKeepsTheItems) {
  SharedVector<int> a;
  a.push_back(1);
  SharedVector<int>& same = a;
  a = same;
  EXPECT_EQ(Items(a), (std::vector<int>{1}));
}

}  // namespace
}  // namespace mrlocal
