#include "sched/policy/utility_share.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

namespace mrlocal {
namespace {

// The slots at which `d` reaches utility u (the inverse of AllocationUtility), at most
// s_pend: continuous and non-decreasing in u.
double SlotsAt(double u, SlotDemand d) {
  double s = u <= 0 ? d.s_fit * (1 + u) : d.s_fit + u * std::max(d.s_pend - d.s_fit, 0);
  return std::min(s, static_cast<double>(d.s_pend));
}

// The largest u in [-1, 1] whose slots fit in `slots`. Their sum is linear in u between
// the knots (u = 0, where every job passes its s_fit, and where a job with s_pend < s_fit
// reaches s_pend), so find the segment and interpolate: exact, no search tolerance.
double EqualUtilityLevel(std::span<const SlotDemand> demands, int slots) {
  auto total = [&](double u) {
    double sum = 0;
    for (const SlotDemand& d : demands) sum += SlotsAt(u, d);
    return sum;
  };
  std::vector<double> knots = {-1, 0, 1};
  for (const SlotDemand& d : demands)
    if (d.s_pend < d.s_fit) knots.push_back(static_cast<double>(d.s_pend) / d.s_fit - 1);
  std::sort(knots.begin(), knots.end());
  auto hi =
      std::partition_point(knots.begin(), knots.end(), [&](double u) { return total(u) <= slots; });
  if (hi == knots.end()) return 1;
  if (hi == knots.begin()) return -1;
  const double lo = *(hi - 1), at_lo = total(lo), at_hi = total(*hi);
  return lo + (*hi - lo) * (slots - at_lo) / (at_hi - at_lo);
}

}  // namespace

double AllocationUtility(int slots, SlotDemand d) {
  if (slots < d.s_fit) return static_cast<double>(slots - d.s_fit) / d.s_fit;
  if (d.s_pend <= d.s_fit) return 1.0;
  return static_cast<double>(slots - d.s_fit) / (d.s_pend - d.s_fit);
}

std::vector<int> EqualUtilityShare(std::span<const SlotDemand> demands, int slots) {
  const int pending = std::accumulate(demands.begin(), demands.end(), 0,
                                      [](int sum, SlotDemand d) { return sum + d.s_pend; });
  const int target = std::max(std::min(slots, pending), 0);
  const double u = EqualUtilityLevel(demands, target);

  std::vector<int> share(demands.size());
  std::vector<std::pair<double, size_t>> remainders;  // (fraction lost to the floor, job)
  int given = 0;
  for (size_t j = 0; j < demands.size(); ++j) {
    const double s = SlotsAt(u, demands[j]);
    // An exact whole number of slots may come out a hair below it.
    share[j] = std::min(static_cast<int>(std::floor(s + 1e-9)), demands[j].s_pend);
    given += share[j];
    remainders.emplace_back(s - share[j], j);
  }
  std::stable_sort(remainders.begin(), remainders.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [fraction, j] : remainders) {
    if (given == target) break;
    if (share[j] < demands[j].s_pend) ++share[j], ++given;
  }
  return share;
}

}  // namespace mrlocal
