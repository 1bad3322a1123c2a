#include "sched/core/speculation.h"

#include <algorithm>
#include <cmath>

namespace mrlocal {

double Quantile(std::vector<double>& values, double q) {
  const size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(values.size())));
  const size_t k = rank == 0 ? 0 : rank - 1;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values.end());
  return values[k];
}

void SlotPaces::Observe(SlotId slot, double pace) {
  if (!(pace > 0) || !std::isfinite(pace)) return;
  constexpr double kWeight = 0.3;  // of the newest attempt: a slot that slows shows soon
  pace_[slot] = (1 - kWeight) * pace_[slot] + kWeight * pace;
}

double SlotPaces::SlowBelow(double quantile) const {
  if (pace_.empty()) return 0;
  std::vector<double> all = pace_;
  return Quantile(all, quantile);
}

}  // namespace mrlocal
