// Nanoseconds from the CPU's time-stamp counter, for timing the policy's decisions: rdtsc
// costs ~10 ns where steady_clock's vDSO call costs ~27 ns on the development machine, and
// a simulation of FB-2010 times 16 M decisions at two reads each (12 % of its time went to
// the clock, issue 23). The counter's rate is measured against steady_clock once per
// process, over 1 ms. Without an invariant TSC (constant rate, never stopped: CPUID
// 0x80000007 EDX bit 8), or off x86-64, it is steady_clock.
#pragma once

#include <chrono>
#include <cstdint>

#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

namespace mrlocal {

class TickClock {
 public:
  // A reading: only differences of two mean anything.
  static int64_t Now() {
#if defined(__x86_64__)
    if (Rate().invariant) return static_cast<int64_t>(__rdtsc());
#endif
    return SteadyNs();
  }
  // Nanoseconds between two readings.
  static int64_t Ns(int64_t from, int64_t to) {
    return static_cast<int64_t>(static_cast<double>(to - from) * Rate().ns_per_tick);
  }

 private:
  struct TickRate {
    bool invariant = false;
    double ns_per_tick = 1.0;
  };
  static int64_t SteadyNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  static const TickRate& Rate() {
    static const TickRate rate = [] {
      TickRate r;
#if defined(__x86_64__)
      unsigned a = 0, b = 0, c = 0, d = 0;
      if (__get_cpuid(0x80000007, &a, &b, &c, &d) && (d & (1u << 8))) {
        const int64_t ns0 = SteadyNs();
        const uint64_t t0 = __rdtsc();
        int64_t ns1 = ns0;
        while ((ns1 = SteadyNs()) - ns0 < 1'000'000) {
        }
        const uint64_t t1 = __rdtsc();
        if (t1 > t0) {
          r.invariant = true;
          r.ns_per_tick = static_cast<double>(ns1 - ns0) / static_cast<double>(t1 - t0);
        }
      }
#endif
      return r;
    }();
    return rate;
  }
};

}  // namespace mrlocal
