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
#include <cstring>
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
  // Both inline, on vectors of 4 sums and 2 bounds (GCC's and Clang's vector extensions;
  // SSE2 on x86-64, where the compiler left alone keeps 16 scalars): RTMR's admission adds
  // a task to a chain and reads its bound per planned task. Each element goes through the
  // same IEEE operations as a scalar loop would: the same sums and the same bound.
  void Add(const TaskCumulants& task) {
    for (size_t q = 0; q < kQuads; ++q) {
      Floats t;
      std::memcpy(&t, task.data() + 4 * q, sizeof t);
      k_[q] += t;
    }
    ++tasks_;
  }
  // Seconds the sum stays below with probability >= 1 - exp(-log_inv_delta): the least
  // over theta_k of (K(theta_k) + log_inv_delta) / theta_k, K's sums raised by their
  // rounding.
  double Bound(double log_inv_delta) const {
    if (tasks_ == 0) return 0;
    const double rounding = 1 + double(tasks_) * 0x1p-23;
    // The bounds of theta_k and theta_k+1 (k even).
    auto pair = [&](size_t k) {
      const Floats& sums = k_[k / 4];
      const Doubles s = __builtin_convertvector(k % 4 ? __builtin_shufflevector(sums, sums, 2, 3)
                                                      : __builtin_shufflevector(sums, sums, 0, 1),
                                                Doubles);
      Doubles inverse;
      std::memcpy(&inverse, ThetaGrid::kInverse.data() + k, sizeof inverse);
      return (s * rounding + log_inv_delta) * inverse;
    };
    // Every bound is positive and none is NaN: the least comes out the same in any order.
    Doubles least = pair(0);
    for (size_t k = 2; k < ThetaGrid::kThetas; k += 2) {
      const Doubles b = pair(k);
      least = b < least ? b : least;
    }
    return least[1] < least[0] ? least[1] : least[0];
  }

 private:
  using Floats = float __attribute__((vector_size(16)));
  using Doubles = double __attribute__((vector_size(16)));
  static constexpr size_t kQuads = ThetaGrid::kThetas / 4;
  static_assert(ThetaGrid::kThetas % 4 == 0);

  // Float sums: each addition may round down by 2^-24 of the sum, so Bound raises them by
  // tasks_ times that.
  Floats k_[kQuads] = {};
  uint32_t tasks_ = 0;
};

}  // namespace mrlocal
