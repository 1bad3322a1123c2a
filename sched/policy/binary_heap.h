// std::push_heap and std::pop_heap, step for step as libstdc++ does them, so
// that equal elements come out in the same order, written out for RTMR's admission
// (sched/policy/rtmr_policy.h), which runs them per planned task:
//   - the element pushed stays in registers (std::push_heap reads it back from the vector
//     just after it was written, a store-forwarding stall);
//   - pop picks the child to descend to without a branch (a mispredicted branch per level
//     of the heap: which child is smaller is a coin toss);
//   - both inline: RTMR calls them per planned task, in its innermost loop.
// The order of equal elements matters: RTMR's slots with equal free times differ in what
// is planned on them below confidence 1. tests/sched/policy/binary_heap_test.cc checks
// both against the standard library's.
#pragma once

#include <cstddef>

namespace mrlocal {

// Adds `item` to the heap h[0, n) ordered by `less` (as std::push_heap on h[0, n] with
// `item` at h[n]: the greatest on top). REQUIRES: room for h[n]; `item` not in h.
template <typename T, typename Less>
[[gnu::always_inline]] inline void HeapPush(T* h, size_t n, const T& item, Less less) {
  size_t hole = n;
  while (hole > 0) {
    const size_t parent = (hole - 1) / 2;
    if (!less(h[parent], item)) break;
    h[hole] = h[parent];
    hole = parent;
  }
  h[hole] = item;
}

// Removes the top of the heap h[0, n) and returns it; h[0, n - 1) is then the heap (as
// std::pop_heap, then the back). REQUIRES: n > 0.
template <typename T, typename Less>
[[gnu::always_inline]] inline T HeapPop(T* h, size_t n, Less less) {
  const T top = h[0];
  // The hole at the top goes down to a leaf along the greater children (libstdc++'s
  // __adjust_heap), then `last` rises from there (__push_heap). `last` stays in place
  // until then, read late: it is usually the item pushed just before, and reading it
  // whole right after it was written field by field stalls.
  const T& last = h[n - 1];
  const ptrdiff_t len = static_cast<ptrdiff_t>(n) - 1;
  const ptrdiff_t inner = (len - 1) / 2;  // the hole descends while above it
  ptrdiff_t hole = 0, child = 0;
  // Two levels a step while both children are above `inner`: the six elements below the
  // hole are read at once, and the step waits on one read, not two in a row.
  while (2 * hole + 2 < inner) {
    const ptrdiff_t right = 2 * hole + 2;  // the grandchildren: 2 right - 1 .. 2 right + 2
    const ptrdiff_t left = less(h[right], h[right - 1]);
    const ptrdiff_t left_below_left = less(h[2 * right], h[2 * right - 1]);
    const ptrdiff_t left_below_right = less(h[2 * right + 2], h[2 * right + 1]);
    child = right - left;
    // Which of the two, without a branch (a coin toss, as above).
    const ptrdiff_t below = (left & left_below_left) | (~left & left_below_right);
    const ptrdiff_t grandchild = 2 * child + 2 - below;
    h[hole] = h[child];
    h[child] = h[grandchild];
    hole = child = grandchild;
  }
  while (child < inner) {
    child = 2 * (child + 1);
    child -= static_cast<ptrdiff_t>(less(h[child], h[child - 1]));  // no branch
    h[hole] = h[child];
    hole = child;
  }
  if ((len & 1) == 0 && child == (len - 2) / 2) {
    child = 2 * (child + 1);
    h[hole] = h[child - 1];
    hole = child - 1;
  }
  while (hole > 0) {
    const ptrdiff_t parent = (hole - 1) / 2;
    if (!less(h[parent], last)) break;
    h[hole] = h[parent];
    hole = parent;
  }
  if (len > 0) h[hole] = last;
  return top;
}

}  // namespace mrlocal
