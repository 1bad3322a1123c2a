// A speed factor over time as a step function: a node's availability (the share of its
// CPU left to MapReduce, DESIGN.md (shared) §3), or the forecast of it a policy is told.
// The simulator integrates it to end tasks, the runtime steps the slots' speeds along it,
// and the capacity forecasts (sched/estimate/capacity_forecast.h) integrate it to predict
// work: one implementation for all three.
#pragma once

#include <cstddef>
#include <vector>

#include "sched/core/clock.h"

namespace mrlocal {

class SpeedProfile {
 public:
  // Factor 1.0 at all times.
  SpeedProfile() = default;
  // factor[i] from at[i] on, 1.0 before at[0]. REQUIRES: as many factors as times, times
  // strictly increasing, factors > 0 (std::invalid_argument otherwise: the readers of
  // specs check first and say which field is wrong).
  SpeedProfile(std::vector<Time> at, std::vector<double> factor);

  // Appends a step. REQUIRES: `at` after the last step, factor > 0.
  void Add(Time at, double factor);
  // From `at` on, the factor is `factor`: the steps at or after `at` are dropped (a record
  // of what was observed, corrected). REQUIRES: factor > 0.
  void SetFrom(Time at, double factor);

  // The factor at `t`: the last step at or before t; 1.0 before the first.
  double At(Time t) const;
  // The integral of the factor over [t0, t1), in seconds at factor 1 (negative when
  // t1 < t0), exact for the steps up to rounding: O(log steps).
  double Integral(Time t0, Time t1) const;
  // When a task of `work` seconds at speed 1.0 that starts at `from` on a slot of base
  // speed `rate` ends, its speed being rate x the factor: the t where rate x
  // Integral(from, t) reaches `work`. REQUIRES: work >= 0, rate > 0.
  Time EndOf(Time from, double work, double rate) const;

  const std::vector<Time>& times() const { return at_; }
  const std::vector<double>& factors() const { return factor_; }
  size_t size() const { return at_.size(); }
  bool empty() const { return at_.empty(); }

 private:
  // How many steps are at or before t (0: t is before the first).
  size_t StepsUpTo(Time t) const;
  // The factor in force after `steps` steps.
  double FactorAfter(size_t steps) const { return steps == 0 ? 1.0 : factor_[steps - 1]; }

  std::vector<Time> at_;
  std::vector<double> factor_;
  std::vector<double> cumulative_;  // cumulative_[i]: Integral(at_[0], at_[i])
};

// The factor a(t) x b(t): a node's availability times an injected slowdown.
SpeedProfile Product(const SpeedProfile& a, const SpeedProfile& b);

}  // namespace mrlocal
