// What the scheduler itself costs, measured always: how many decisions it made, how long
// each took, and how long a free slot waited for its next task.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace mrlocal {

// Latency samples in nanoseconds; percentiles by nearest rank.
class LatencySamples {
 public:
  void Add(int64_t ns) { samples_.push_back(ns); }
  size_t count() const { return samples_.size(); }
  double PercentileUs(double q) const {
    if (samples_.empty()) return 0;
    std::vector<int64_t> s = samples_;
    size_t k = static_cast<size_t>(q * static_cast<double>(s.size() - 1) + 0.5);
    std::nth_element(s.begin(), s.begin() + k, s.end());
    return static_cast<double>(s[k]) / 1000.0;
  }

 private:
  std::vector<int64_t> samples_;
};

struct SchedulerStats {
  uint64_t decisions = 0;      // policy calls: admissions, picks, ticks
  LatencySamples decision_ns;  // wall time of each policy call
  LatencySamples dispatch_ns;  // slot (and task) ready -> task's first instruction
  uint64_t launches = 0;
  uint64_t preemptions = 0;
};

}  // namespace mrlocal
