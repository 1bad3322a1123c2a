// What the scheduler itself costs, measured always: how many decisions it made, how long
// each took, and how long a free slot waited for its next task.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

namespace mrlocal {

// Latencies in nanoseconds, kept as a log-linear histogram (HdrHistogram's layout): exact
// below 128 ns, then 64 buckets per power of two, so a percentile is within 1.6 % of the
// true sample. Constant memory and O(1) per sample: a simulated day records 50 M
// decisions, which as raw samples would be 400 MB and dominate the run.
class LatencySamples {
 public:
  void Add(int64_t ns) {
    const uint64_t v = ns < 0 ? 0 : static_cast<uint64_t>(ns);
    ++counts_[Bucket(v)];
    ++count_;
  }
  size_t count() const { return count_; }
  // The nearest-rank q-quantile, in microseconds: the middle of its bucket.
  double PercentileUs(double q) const {
    if (count_ == 0) return 0;
    const uint64_t rank = static_cast<uint64_t>(q * static_cast<double>(count_ - 1) + 0.5) + 1;
    uint64_t seen = 0;
    for (size_t b = 0; b < kBuckets; ++b) {
      seen += counts_[b];
      if (seen >= rank) return Middle(b) / 1000.0;
    }
    return Middle(kBuckets - 1) / 1000.0;
  }

 private:
  static constexpr int kSubBits = 6;  // 64 buckets per power of two
  static constexpr size_t kBuckets = (64 - kSubBits + 1) << kSubBits;
  static size_t Bucket(uint64_t v) {
    if (v < (uint64_t{2} << kSubBits)) return static_cast<size_t>(v);
    const int exp = 63 - std::countl_zero(v) - kSubBits;  // >= 1
    return (static_cast<size_t>(exp + 1) << kSubBits) + ((v >> exp) & ((1u << kSubBits) - 1));
  }
  static double Middle(size_t b) {
    if (b < (size_t{2} << kSubBits)) return static_cast<double>(b);
    const int exp = static_cast<int>(b >> kSubBits) - 1;
    const uint64_t low = ((uint64_t{1} << kSubBits) | (b & ((1u << kSubBits) - 1))) << exp;
    return static_cast<double>(low) + static_cast<double>((uint64_t{1} << exp) - 1) / 2;
  }
  std::vector<uint64_t> counts_ = std::vector<uint64_t>(kBuckets, 0);
  uint64_t count_ = 0;
};

struct SchedulerStats {
  uint64_t decisions = 0;      // policy calls: admissions, picks, ticks
  LatencySamples decision_ns;  // wall time of each policy call
  LatencySamples dispatch_ns;  // slot (and task) ready -> task's first instruction
  uint64_t launches = 0;
  uint64_t preemptions = 0;
  // Requests of the policy that could not be carried out (a bug in the policy): skipped.
  uint64_t invalid_decisions = 0;
  uint64_t retries = 0;          // failed attempts run again (RetryOptions)
  uint64_t node_exclusions = 0;  // nodes excluded after failures of several jobs
  uint64_t speculations = 0;     // speculative copies launched (speculation.h)
};

}  // namespace mrlocal
