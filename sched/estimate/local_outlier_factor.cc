#include "sched/estimate/local_outlier_factor.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace mrlocal {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The neighbourhood N_k of sorted value i: the other values in [first, last).
struct Neighbourhood {
  size_t first = 0, last = 0;
  double k_distance = 0;
};

}  // namespace

std::vector<double> LocalOutlierFactors(std::span<const double> values, int min_pts) {
  const size_t n = values.size();
  std::vector<double> lof(n, 1.0);
  if (n < 2) return lof;
  const size_t k = std::min(static_cast<size_t>(std::max(min_pts, 1)), n - 1);

  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return values[a] < values[b]; });
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = values[order[i]];

  // The k nearest of v[i]: the window [lo, lo + k] holding i whose farther end is nearest.
  // The best window only moves right as i does.
  std::vector<Neighbourhood> hood(n);
  size_t lo = 0;
  for (size_t i = 0; i < n; ++i) {
    lo = std::max(lo, i >= k ? i - k : 0);
    while (lo + k + 1 < n && lo < i && v[lo + k + 1] - v[i] < v[i] - v[lo]) ++lo;
    Neighbourhood& h = hood[i];
    h.k_distance = std::max(v[i] - v[lo], v[lo + k] - v[i]);
    // Ties at k-distance join the neighbourhood (it may hold more than k values). Found by
    // distance, as the definition compares, not by v[i] -+ k-distance, which rounds.
    const double x = v[i], d = h.k_distance;
    h.first = static_cast<size_t>(std::partition_point(v.begin(),
                                                       v.begin() + static_cast<std::ptrdiff_t>(lo),
                                                       [&](double y) { return x - y > d; }) -
                                  v.begin());
    h.last =
        static_cast<size_t>(std::partition_point(v.begin() + static_cast<std::ptrdiff_t>(lo + k),
                                                 v.end(), [&](double y) { return y - x <= d; }) -
                            v.begin());
  }

  // Equation 4. k-distance 0: p's neighbours all equal p, and so do theirs (p's group holds
  // more than k values): every reach-distance is 0.
  std::vector<double> lrd(n);
  for (size_t i = 0; i < n; ++i) {
    const Neighbourhood& h = hood[i];
    if (h.k_distance == 0) {
      lrd[i] = kInf;
      continue;
    }
    double reach = 0;
    for (size_t j = h.first; j < h.last; ++j)
      if (j != i) reach += std::max(hood[j].k_distance, std::abs(v[i] - v[j]));
    lrd[i] = static_cast<double>(h.last - h.first - 1) / reach;
  }

  // Equation 5.
  for (size_t i = 0; i < n; ++i) {
    if (std::isinf(lrd[i])) continue;  // inside a cluster of duplicates: 1
    const Neighbourhood& h = hood[i];
    double sum = 0;
    for (size_t j = h.first; j < h.last; ++j)
      if (j != i) sum += lrd[j];
    lof[order[i]] = sum / (static_cast<double>(h.last - h.first - 1) * lrd[i]);
  }
  return lof;
}

}  // namespace mrlocal
