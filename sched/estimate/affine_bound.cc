#include "sched/estimate/affine_bound.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sched/estimate/median.h"

namespace mrlocal {
namespace {

// Sizes far enough apart for the slope between them to be more than timing noise.
bool FarApart(double a, double b) { return std::max(a, b) >= 2 * std::min(a, b) && a != b; }

AffineBound TheilSen(std::span<const AffinePoint> points) {
  std::vector<double> slopes;
  for (size_t i = 0; i < points.size(); ++i)
    for (size_t j = i + 1; j < points.size(); ++j)
      if (FarApart(points[i].units, points[j].units))
        slopes.push_back((points[j].value - points[i].value) / (points[j].units - points[i].units));
  AffineBound line;
  std::vector<double> v;
  if (!slopes.empty()) {
    line.per_unit = std::max(0.0, Median(std::move(slopes)));
    for (const AffinePoint& p : points) v.push_back(p.value - line.per_unit * p.units);
    line.fixed = std::max(0.0, Median(std::move(v)));
  } else if (points.front().units > 0) {  // one size, or sizes within 2x of each other
    for (const AffinePoint& p : points) v.push_back(p.value / p.units);
    line.per_unit = Median(std::move(v));
  } else {  // every size 0
    for (const AffinePoint& p : points) v.push_back(p.value);
    line.fixed = Median(std::move(v));
  }
  return line;
}

// The points less the OutliersAllowed furthest above `line`, relative to it (a point above
// a line that is 0 there is the furthest of all).
std::vector<AffinePoint> WithoutOutliers(std::span<const AffinePoint> points, AffineBound line) {
  std::vector<AffinePoint> kept(points.begin(), points.end());
  const size_t drop = OutliersAllowed(points.size());
  if (drop == 0) return kept;
  auto above = [&](const AffinePoint& p) {
    const double at = line.At(p.units);
    if (at > 0) return p.value / at;
    return p.value > 0 ? std::numeric_limits<double>::infinity() : 1.0;
  };
  std::stable_sort(kept.begin(), kept.end(),
                   [&](const AffinePoint& a, const AffinePoint& b) { return above(a) < above(b); });
  kept.resize(kept.size() - drop);
  return kept;
}

// The smallest fixed part f >= 0 (up to an ulp) with f + c·u >= w as evaluated in doubles,
// which is how AffineBound::At and AppModel evaluate it: w - c·u alone can round one ulp low.
double FixedPartCovering(double w, double c, double u) {
  const double p = c * u;
  if (p >= w) return 0;
  double f = w - p;
  while (f + p < w) f = std::nextafter(f, INFINITY);
  return f;
}

// The lowest bound over `points` (summed over them) with per-unit cost `c`.
AffineBound CoveringWithSlope(std::span<const AffinePoint> points, double c) {
  AffineBound b{0, c};
  for (const AffinePoint& p : points)
    b.fixed = std::max(b.fixed, FixedPartCovering(p.value, c, p.units));
  return b;
}

// The upper envelope of step 2. The sum n·fixed(c) + c·Σunits is convex in c and
// piecewise linear, its corners at the slopes between points. Candidates: the slopes
// between points of sizes far apart (at least 0), and the steepest line through the
// origin. Slopes between nearby sizes are left out: they are timing noise, and one of
// them near 0 would make a bound that ignores size altogether, wrong for the next bigger
// task; without sizes far apart the bound is the line through the origin.
AffineBound UpperEnvelope(std::span<const AffinePoint> points) {
  std::vector<double> slopes;
  double total_units = 0, through_origin = 0;
  for (const AffinePoint& p : points) {
    total_units += p.units;
    if (p.units > 0) through_origin = std::max(through_origin, p.value / p.units);
  }
  slopes.push_back(through_origin);
  for (size_t i = 0; i < points.size(); ++i)
    for (size_t j = i + 1; j < points.size(); ++j)
      if (FarApart(points[i].units, points[j].units))
        slopes.push_back(std::max(
            0.0, (points[j].value - points[i].value) / (points[j].units - points[i].units)));
  const double n = static_cast<double>(points.size());
  AffineBound best = CoveringWithSlope(points, through_origin);
  double best_sum = n * best.fixed + through_origin * total_units;
  for (double c : slopes) {
    const AffineBound b = CoveringWithSlope(points, c);
    const double sum = n * b.fixed + c * total_units;
    // Equal up to rounding: the steeper one.
    const double tie = 1e-9 * std::max(sum, best_sum);
    if (sum < best_sum - tie || (sum <= best_sum + tie && c > best.per_unit)) {
      best = b;
      best_sum = std::min(sum, best_sum);
    }
  }
  return best;
}

}  // namespace

AffineBound FitAffineBound(std::span<const AffinePoint> points) {
  if (points.empty()) return {};
  return UpperEnvelope(WithoutOutliers(points, TheilSen(points)));
}

double TrimmedMax(std::vector<double> values, double none) {
  if (values.empty()) return none;
  const size_t drop = OutliersAllowed(values.size());
  std::nth_element(values.begin(), values.end() - 1 - drop, values.end());
  return *(values.end() - 1 - drop);
}

}  // namespace mrlocal
