// The median of a sample (the mean of the middle two for an even count); 0 for none.
#pragma once

#include <algorithm>
#include <vector>

namespace mrlocal {

inline double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  if (v.size() % 2 == 1) return *mid;
  return (*std::max_element(v.begin(), mid) + *mid) / 2;
}

}  // namespace mrlocal
