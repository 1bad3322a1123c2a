// Deterministic draws from a hash, so that a draw depends on what it is for (a seed, a
// task, an attempt) and not on the order events happen in: the simulator's noise and the
// injected faults (fault_injection.h) draw alike.
#pragma once

#include <cstdint>

namespace mrlocal {

// SplitMix64's finalizer: a well-mixed 64-bit hash.
inline uint64_t SplitMix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// A double in (0, 1) from the top 53 bits of `bits`.
inline double UnitOf(uint64_t bits) { return (static_cast<double>(bits >> 11) + 0.5) * 0x1.0p-53; }

}  // namespace mrlocal
