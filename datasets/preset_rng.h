// The random draws of the workload presets (datasets/workload_presets.h): the same on
// every platform, because std::mt19937_64's output is fixed by the standard and the
// transforms are ours (no std::*_distribution, whose results differ between libraries).
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>

namespace mrlocal {

class Rng {
 public:
  explicit Rng(uint64_t seed) : g_(seed) {}

  // [0, 1), 53 random bits.
  double Uniform() { return static_cast<double>(g_() >> 11) * 0x1p-53; }

  // [0, n), n >= 1: Lemire's multiply-shift with rejection (no modulo bias).
  uint64_t Below(uint64_t n) {
    using u128 = unsigned __int128;
    u128 m = u128{g_()} * n;
    if (static_cast<uint64_t>(m) < n) {
      const uint64_t threshold = (0 - n) % n;
      while (static_cast<uint64_t>(m) < threshold) m = u128{g_()} * n;
    }
    return static_cast<uint64_t>(m >> 64);
  }

  // [lo, hi], lo <= hi.
  uint64_t Between(uint64_t lo, uint64_t hi) { return lo + Below(hi - lo + 1); }

  // Inverse CDF; 1 - u is in (0, 1], so the log is finite.
  double Exponential(double mean) { return -mean * std::log(1 - Uniform()); }

  // Box-Muller, cosine branch only (one normal per two uniforms: simple to reproduce).
  double Normal(double mean, double sigma) {
    const double u1 = 1 - Uniform(), u2 = Uniform();
    return mean + sigma * std::sqrt(-2 * std::log(u1)) * std::cos(2 * std::numbers::pi * u2);
  }

  // Normal conditioned on >= min (drawn again below it: a truncated normal).
  double NormalAtLeast(double mean, double sigma, double min) {
    double x;
    do x = Normal(mean, sigma);
    while (x < min);
    return x;
  }

  // Knuth's product of uniforms: exact arithmetic but for exp(-mean); fine for mean ~30.
  uint64_t Poisson(double mean) {
    const double limit = std::exp(-mean);
    uint64_t k = 0;
    for (double p = Uniform(); p > limit; p *= Uniform()) ++k;
    return k;
  }

 private:
  std::mt19937_64 g_;
};

// Milliseconds: hides a last-bit difference of log/cos between C libraries.
inline double Ms(double s) { return std::round(s * 1000) / 1000; }

}  // namespace mrlocal
