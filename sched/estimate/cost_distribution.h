// What fraction of its worst-case estimate a task's time is, as a distribution on [0, 1],
// and how far a sum of such times can reach at a stated probability: what RTMR's admission
// at a confidence C < 1 plans with (sched/policy/rtmr_policy.h).
//
// The bound on a sum is Chernoff's with the distribution's own cumulant generating
// function K(x) = ln E[exp(x R)]: for independent task times S = sum_i w_i R_i (w_i the
// worst cases, in seconds),
//   P(S >= t) <= exp(sum_i K(theta w_i) - theta t)   for every theta > 0,
// so S stays below min over theta of (sum_i K(theta w_i) + L) / theta with probability at
// least 1 - exp(-L). Why this bound: it holds for any distribution the samples describe,
// needs no normal approximation (a task's time is skewed: at sigma 0.5 its worst case is
// four times its mean), and is close to the exact quantile: for n tasks of the simulator's
// noise at sigma 0.5 and probability 1e-4 it is 1.81 worst cases for n = 2 (exact 1.62),
// 4.97 for n = 10 (exact 4.53), against n at the worst case; Bernstein's inequality, which
// needs only the mean and variance, gives 2 and 7.74.
//
// K is kept on a log grid of x and read between points by chords, which lie above a convex
// function: every value used is an upper bound, so the bound stays one. theta runs over a
// fixed log grid (ThetaGrid, 1/s), wide enough for chains of a tenth of a second to a day;
// any theta gives a valid bound, the grid only decides how close to the best one it is.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace mrlocal {

// The theta grid of the bound (1/s): kThetas values, 10^(1/3) apart, from kTheta0.
struct ThetaGrid {
  static constexpr int kThetas = 16;
  static constexpr double kTheta0 = 1e-3;
  static double Theta(int k);
  static double InverseTheta(int k);
  static const std::array<double, kThetas> kInverse;  // 1 / theta_k, for ChainTail::Bound
};
// ln E exp(theta_k T) of one task's time T, for every theta_k of the grid, rounded up.
using TaskCumulants = std::array<float, ThetaGrid::kThetas>;

class CostDistribution {
 public:
  // The distribution of `ratios` (actual / worst, each clamped to [0, 1]), each equally
  // likely. REQUIRES: not empty.
  static std::shared_ptr<const CostDistribution> FromRatios(const std::vector<double>& ratios);

  double mean() const { return mean_; }
  // The cumulants of a task of worst case `worst_s` seconds distributed as `d` (null: it
  // always takes its worst case).
  static TaskCumulants OfTask(const CostDistribution* d, double worst_s);

  static constexpr int kXPerDecade = 12;
  static constexpr double kX0 = 1e-3;  // the table spans [kX0, kX0 * 10^kXDecades]
  static constexpr int kXDecades = 7;
  static constexpr int kXPoints = kXPerDecade * kXDecades + 1;

 private:
  // K(x) for x >= 0, from above.
  double Cumulant(double x) const;

  double mean_ = 1;
  std::array<double, kXPoints> k_{};  // K(kX0 * 10^(i / kXPerDecade))
};

// The Chernoff bound of a sum of independent task times, by its cumulant generating
// function on the theta grid.
class ChainTail {
 public:
  // Both inline: RTMR's admission adds a task to a chain and reads its bound per planned
  // task, and the sums then stay in registers (the bound reads them right after they are
  // stored; a load of stores not yet written back stalls).
  void Add(const TaskCumulants& task) {
    for (size_t k = 0; k < k_.size(); ++k) k_[k] += task[k];
    ++tasks_;
  }
  // Seconds the sum stays below with probability >= 1 - exp(-log_inv_delta).
  double Bound(double log_inv_delta) const {
    if (tasks_ == 0) return 0;
    const double rounding = 1 + double(tasks_) * 0x1p-23;
    std::array<double, ThetaGrid::kThetas> b;
    for (size_t k = 0; k < b.size(); ++k)
      b[k] = (double(k_[k]) * rounding + log_inv_delta) * ThetaGrid::kInverse[k];
    // The minimum by halves, not in one scan: vector instructions, and four dependent
    // steps instead of sixteen. The same minimum: every bound is positive, none is NaN.
    static_assert(ThetaGrid::kThetas == 16);
    auto fold = [&b](size_t half) {
      for (size_t k = 0; k < half; ++k) b[k] = b[k + half] < b[k] ? b[k + half] : b[k];
    };
    fold(8), fold(4), fold(2), fold(1);
    return b[0];
  }

 private:
  // Float sums: each addition may round down by 2^-24 of the sum, so Bound raises them by
  // tasks_ times that.
  TaskCumulants k_{};
  uint32_t tasks_ = 0;
};

}  // namespace mrlocal
