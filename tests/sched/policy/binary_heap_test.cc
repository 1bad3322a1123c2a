// HeapPush and HeapPop must leave every element where std::push_heap and std::pop_heap
// do: RTMR's plans take the first of equal slot times, and its decisions stay the same
// only if that is the same slot. Seeded random operations on keys with many ties.
#include "sched/policy/binary_heap.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace mrlocal {
namespace {

struct Item {
  int key = 0;
  int id = 0;  // tells equal keys apart
  bool operator==(const Item&) const = default;
};
constexpr auto kLater = [](const Item& a, const Item& b) { return a.key > b.key; };

TEST(BinaryHeap, PushesAndPopsEqualKeysInTheStandardLibrarysOrder) {
  std::mt19937 rng(16);
  for (int round = 0; round < 200; ++round) {
    std::vector<Item> ours, theirs;
    const int keys = 1 + round % 7;  // few distinct keys: many ties
    int next_id = 0;
    for (int op = 0; op < 400; ++op) {
      if (ours.empty() || rng() % 5 < 3) {
        const Item item{static_cast<int>(rng() % keys), next_id++};
        ours.push_back(item);
        HeapPush(ours.data(), ours.size() - 1, item, kLater);
        theirs.push_back(item);
        std::push_heap(theirs.begin(), theirs.end(), kLater);
      } else {
        std::pop_heap(theirs.begin(), theirs.end(), kLater);
        const Item expected = theirs.back();
        theirs.pop_back();
        ASSERT_EQ(HeapPop(ours.data(), ours.size(), kLater), expected)
            << "round " << round << " op " << op;
        ours.pop_back();
      }
      ASSERT_EQ(ours, theirs) << "round " << round << " op " << op;
    }
  }
}

TEST(BinaryHeap, PopsTheSmallestKeyWhenOrderedByLater) {
  std::vector<Item> heap;
  for (int key : {5, 3, 9, 1, 7}) {
    const Item item{key, key};
    heap.push_back(item);
    HeapPush(heap.data(), heap.size() - 1, item, kLater);
  }
  std::vector<int> popped;
  for (; !heap.empty(); heap.pop_back())
    popped.push_back(HeapPop(heap.data(), heap.size(), kLater).key);
  EXPECT_EQ(popped, (std::vector<int>{1, 3, 5, 7, 9}));
}

}  // namespace
}  // namespace mrlocal
