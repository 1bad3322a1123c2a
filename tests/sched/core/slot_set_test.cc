// SlotSet against std::set over random inserts, erases and walks, across word boundaries.
#include "sched/core/slot_set.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

namespace mrlocal {
namespace {

// What NextFrom means, from the reference.
SlotId NextFrom(const std::set<SlotId>& s, SlotId from) {
  auto it = s.lower_bound(from);
  return it == s.end() ? -1 : *it;
}

TEST(SlotSet, AgreesWithStdSetOverRandomOperations) {
  for (int range : {1, 63, 64, 65, 200, 6000}) {
    SCOPED_TRACE(range);
    std::mt19937 rng(static_cast<unsigned>(range));
    SlotSet set;
    std::set<SlotId> reference;
    EXPECT_EQ(set.First(), -1);
    for (int op = 0; op < 20'000; ++op) {
      const SlotId id = static_cast<SlotId>(rng() % static_cast<unsigned>(range));
      if (rng() % 3 == 0) {
        set.Erase(id);  // erasing what is absent, or beyond every word, is a no-op
        reference.erase(id);
      } else {
        set.Insert(id);
        reference.insert(id);
      }
      ASSERT_EQ(set.Contains(id), reference.count(id) == 1);
      const SlotId from = static_cast<SlotId>(rng() % static_cast<unsigned>(range + 70));
      ASSERT_EQ(set.NextFrom(from), NextFrom(reference, from)) << "from " << from;
    }
    // A full walk, as the Controller's Dispatch does it, visits exactly the members.
    std::set<SlotId> walked;
    for (SlotId id = set.First(); id >= 0; id = set.NextFrom(id + 1)) walked.insert(id);
    EXPECT_EQ(walked, reference);
    for (SlotId id = 0; id < range + 70; ++id)
      EXPECT_EQ(set.Contains(id), reference.count(id) == 1);
  }
}

TEST(SlotSet, EmptyAndOutOfRange) {
  SlotSet set;
  EXPECT_FALSE(set.Contains(0));
  EXPECT_EQ(set.NextFrom(1000), -1);
  set.Erase(1000);
  set.Insert(130);
  EXPECT_EQ(set.First(), 130);
  EXPECT_EQ(set.NextFrom(131), -1);
  EXPECT_EQ(set.NextFrom(10'000), -1);
  set.Erase(130);
  EXPECT_EQ(set.First(), -1);
}

}  // namespace
}  // namespace mrlocal
