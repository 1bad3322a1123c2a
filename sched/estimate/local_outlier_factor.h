// The local outlier factor (Breunig, Kriegel, Ng, Sander 2000) of each value of a set of
// numbers, with MinPts = k neighbours: DynamicShare's equations 4 and 5, which it applies to
// the laxities of one job's tasks on different workers to find overloaded ones.
//   k-distance(p)      the distance from p to its k-th nearest other value
//   N_k(p)             every other value within k-distance(p): k of them, or more on ties
//   reach-dist(p, o)   max(k-distance(o), |p - o|)
//   lrd(p)             |N_k(p)| / Σ_{o in N_k(p)} reach-dist(p, o)          (eq. 4)
//   LOF(p)             Σ_{o in N_k(p)} lrd(o) / (|N_k(p)| · lrd(p))         (eq. 5)
// About 1 inside a cluster, clearly above 1 for a value far from its neighbours' density.
//
// Duplicates (Breunig, section 4: more than k equal values make lrd infinite):
//   lrd(p) infinite (p and its k nearest are equal)  ->  LOF(p) = 1: p is inside a
//       cluster of duplicates, as dense as its neighbours;
//   lrd(p) finite, some neighbour's infinite         ->  LOF(p) = +inf: p lies next to
//       an infinitely dense cluster it is not part of (the definition's limit).
// Fewer than two values: every LOF is 1 (nothing to compare with).
//
// In one dimension the k nearest values of p are a window of the sorted values that holds
// p, and that window only moves right as p does: the values are sorted once and the
// windows found by a two-pointer walk. Cost O(n log n + Σ |N_k(p)|), O(n k) without ties;
// memory O(n), nothing allocated per value.
#pragma once

#include <span>
#include <vector>

namespace mrlocal {

// LOF of each of `values`, in their order. k = min(min_pts, n - 1). REQUIRES: min_pts >= 1,
// values finite.
std::vector<double> LocalOutlierFactors(std::span<const double> values, int min_pts);

}  // namespace mrlocal
