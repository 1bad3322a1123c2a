#include "sched/core/speed_profile.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>

namespace mrlocal {

SpeedProfile::SpeedProfile(std::vector<Time> at, std::vector<double> factor) {
  if (at.size() != factor.size())
    throw std::invalid_argument("SpeedProfile: as many factors as times");
  for (size_t i = 0; i < at.size(); ++i) Add(at[i], factor[i]);
}

void SpeedProfile::Add(Time at, double factor) {
  if (!at_.empty() && at <= at_.back())
    throw std::invalid_argument("SpeedProfile: times must be strictly increasing");
  if (!(factor > 0)) throw std::invalid_argument("SpeedProfile: factors must be > 0");
  cumulative_.push_back(
      at_.empty() ? 0.0 : cumulative_.back() + Seconds(at - at_.back()) * factor_.back());
  at_.push_back(at);
  factor_.push_back(factor);
}

void SpeedProfile::SetFrom(Time at, double factor) {
  while (!at_.empty() && at_.back() >= at) {
    at_.pop_back();
    factor_.pop_back();
    cumulative_.pop_back();
  }
  Add(at, factor);
}

size_t SpeedProfile::StepsUpTo(Time t) const {
  return static_cast<size_t>(std::upper_bound(at_.begin(), at_.end(), t) - at_.begin());
}

double SpeedProfile::At(Time t) const { return FactorAfter(StepsUpTo(t)); }

double SpeedProfile::Integral(Time t0, Time t1) const {
  if (t1 < t0) return -Integral(t1, t0);
  const size_t k0 = StepsUpTo(t0), k1 = StepsUpTo(t1);
  if (k0 == k1) return Seconds(t1 - t0) * FactorAfter(k0);
  // The head up to the first step after t0, whole steps, and the tail from the last one.
  const double head = Seconds(at_[k0] - t0) * FactorAfter(k0);
  const double middle = cumulative_[k1 - 1] - cumulative_[k0];
  const double tail = Seconds(t1 - at_[k1 - 1]) * factor_[k1 - 1];
  return head + middle + tail;
}

Time SpeedProfile::EndOf(Time from, double work, double rate) const {
  size_t i = StepsUpTo(from);
  Time t = from;
  double factor = FactorAfter(i);
  // Walk the steps from `from`, spending work at each step's speed.
  for (;; ++i) {
    const double speed = rate * factor;
    if (i == at_.size()) return t + FromSeconds(work / speed);
    const double span = Seconds(at_[i] - t);
    if (span * speed >= work) return t + FromSeconds(work / speed);
    work -= span * speed;
    t = at_[i];
    factor = factor_[i];
  }
}

SpeedProfile Product(const SpeedProfile& a, const SpeedProfile& b) {
  std::vector<Time> at;
  std::merge(a.times().begin(), a.times().end(), b.times().begin(), b.times().end(),
             std::back_inserter(at));
  at.erase(std::unique(at.begin(), at.end()), at.end());
  SpeedProfile out;
  for (Time t : at) out.Add(t, a.At(t) * b.At(t));
  return out;
}

}  // namespace mrlocal
