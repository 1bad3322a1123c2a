#include "sched/partition/largest_first_partitioner.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <utility>

namespace mrlocal {

double AssignLargestFirst(std::span<const uint64_t> sizes, std::span<const double> speeds,
                          std::vector<uint32_t>* owner) {
  const uint32_t p = static_cast<uint32_t>(sizes.size());
  const uint32_t R = static_cast<uint32_t>(speeds.size());
  // Largest first, ties in index order. Sorting (~size, index) pairs by value saves an
  // indirection per comparison; this O(p log p) sort is most of the planning cost.
  std::vector<std::pair<uint64_t, uint32_t>> order(p);
  for (uint32_t i = 0; i < p; ++i) order[i] = {~sizes[i], i};
  std::sort(order.begin(), order.end());

  // Reduce tasks of equal speed form a group whose earliest finisher is simply its least
  // loaded task, so a min-heap per group replaces a scan over all R tasks: O(p G log R)
  // for G distinct speeds (usually 1-3) instead of O(p R).
  using Lane = std::pair<uint64_t, uint32_t>;  // (load, reduce task), least first
  std::vector<uint32_t> by_speed(R);
  std::iota(by_speed.begin(), by_speed.end(), 0u);
  std::stable_sort(by_speed.begin(), by_speed.end(),
                   [&](uint32_t a, uint32_t b) { return speeds[a] > speeds[b]; });
  std::vector<double> group_speed;
  std::vector<std::vector<Lane>> heaps;
  for (uint32_t r : by_speed) {
    if (group_speed.empty() || group_speed.back() != speeds[r]) {
      group_speed.push_back(speeds[r]);
      heaps.emplace_back();
    }
    heaps.back().push_back({0, r});  // ascending r: already a valid min-heap
  }

  owner->assign(p, 0);
  for (const auto& [neg_size, i] : order) {
    const uint64_t x = ~neg_size;
    size_t best = 0;
    double best_finish = 0;
    for (size_t g = 0; g < heaps.size(); ++g) {
      const Lane& top = heaps[g].front();
      double finish = static_cast<double>(top.first + x) / group_speed[g];
      if (g == 0 || finish < best_finish ||
          (finish == best_finish && top.second < heaps[best].front().second)) {
        best = g;
        best_finish = finish;
      }
    }
    auto& heap = heaps[best];
    std::pop_heap(heap.begin(), heap.end(), std::greater<>());
    heap.back().first += x;
    (*owner)[i] = heap.back().second;
    std::push_heap(heap.begin(), heap.end(), std::greater<>());
  }

  double phase = 0;
  for (size_t g = 0; g < heaps.size(); ++g)
    for (const Lane& lane : heaps[g])
      phase = std::max(phase, static_cast<double>(lane.first) / group_speed[g]);
  return phase;
}

std::string_view LargestFirstPartitioner::name() const {
  switch (mode_) {
    case Mode::kLb:
      return "lb";
    case Mode::kLbSketch:
      return "lb-sketch";
    case Mode::kDp:
      return "dp";
    case Mode::kDpSketch:
      return "dp-sketch";
  }
  return "?";
}

Result<Partitioner::Assignment> LargestFirstPartitioner::Assign(
    const CountMinSketch& sizes, std::span<const double> speeds) const {
  // LB balances bytes: it plans as if every slot ran at the same speed.
  std::vector<double> equal;
  if (mode_ == Mode::kLb || mode_ == Mode::kLbSketch) {
    equal.assign(speeds.size(), 1.0);
    speeds = equal;
  }
  // Sketch-based approach (Section IV): each row is a complete partition function with
  // exact sizes (Eq. 7), so plan every row and keep the one whose phase ends first. Every
  // row sums to the same total, so with equal speeds the shortest phase (the smallest
  // maximum load) is the best Balance: the paper's LB enhanced with sketches (evaluation,
  // before Fig. 9) is the same loop.
  const int rows = mode_ == Mode::kDpSketch || mode_ == Mode::kLbSketch ? sizes.depth() : 1;
  Assignment best;
  double best_phase = 0;
  std::vector<uint32_t> owner;
  for (int row = 0; row < rows; ++row) {
    double phase = AssignLargestFirst(sizes.Row(row), speeds, &owner);
    if (row == 0 || phase < best_phase) {  // strict: ties keep the lower row
      best_phase = phase;
      best.row = row;
      best.owner.swap(owner);
    }
  }
  return best;
}

}  // namespace mrlocal
