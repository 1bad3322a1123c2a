// A worst-case affine bound, fixed + per_unit · units, fitted to observed (units, value)
// points of several sizes so that no single outlier dominates it: what JobHistory
// (sched/estimate/job_history.h) keeps of task times and of a job's shuffle.
//
// Method, in two steps:
//  1. A robust line through the points: Theil–Sen (the median of the slopes between pairs
//     of points whose sizes are at least 2x apart; nearer sizes give slopes made of timing
//     noise), its intercept the median of value - slope · units, both >= 0. Without such a
//     pair it goes through the origin at the median value per unit (the paper's c = τ/σ),
//     or is the median value when every size is 0. Its breakdown point is 29 %: one point,
//     however far off, moves it little.
//  2. The points furthest above that line, relative to it, are left out as outliers: at
//     most one in ten (none while there are fewer than 10, when an outlier cannot be told
//     from the spread). The bound is then the tightest affine upper bound of the rest: of
//     the lines with fixed, per_unit >= 0 under which every kept point lies, exactly in
//     double arithmetic, the one lowest summed over the kept points (an edge of their upper
//     convex hull; of equally low lines, the steepest, which errs high for bigger tasks).
//     Its slope is one between two points of sizes at least 2x apart; without such points
//     the size dependence is unknown, and the bound goes through the origin (safe for
//     bigger tasks, which JobHistory's callers probe before trusting it far beyond).
// Why not a least-squares or quantile line: RTMR's guarantee needs an upper bound, and a
// line through the middle of the points has half of them above it; why not RTMR's max of
// τ/σ: a task's fixed cost divided by a tiny size makes a per-unit cost that no task of
// normal size ever needs, and a max never forgets one.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace mrlocal {

struct AffinePoint {
  double units = 0;  // the size: a task's input units, a job's input units
  double value = 0;  // what it cost: seconds at speed 1.0, shuffled units
  bool operator==(const AffinePoint&) const = default;
};

struct AffineBound {
  double fixed = 0;
  double per_unit = 0;
  double At(double units) const { return fixed + per_unit * units; }
};

// How many of n observations a fit may leave out as outliers: one in ten.
inline size_t OutliersAllowed(size_t n) { return n / 10; }

// The bound described above. REQUIRES: every point's units and value finite and >= 0.
// {0, 0} for no points.
AffineBound FitAffineBound(std::span<const AffinePoint> points);

// The largest of `values` once OutliersAllowed(size) of the largest are left out; `none`
// when there are no values.
double TrimmedMax(std::vector<double> values, double none);

}  // namespace mrlocal
