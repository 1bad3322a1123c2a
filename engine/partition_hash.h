// Partition functions: key hash -> partition index in [0, p).
//
// Row i of a job's count-min sketch (DynamicShare, section on skew) uses the
// pairwise-independent h_i(x) = ((a_i * x + b_i) mod P) mod p over the key's 64-bit
// xxHash, P = 2^61 - 1. Row 0 is a = 1, b = 0: plain "hash mod p", Hadoop's
// HashPartitioner. Every row is a complete partition function, so the partitioner can
// pick any row and the reduce tasks then route records with that same row.
#pragma once

#include <cstdint>
#include <vector>

namespace mrlocal {

struct PartitionHash {
  static constexpr uint64_t kPrime = (uint64_t{1} << 61) - 1;  // Mersenne prime 2^61-1

  uint64_t a = 1;
  uint64_t b = 0;
  uint32_t partitions = 1;

  uint32_t operator()(uint64_t key_hash) const {
    unsigned __int128 v = static_cast<unsigned __int128>(a) * (key_hash % kPrime) + b;
    // Fold mod 2^61-1 without a 128-bit division.
    uint64_t lo = static_cast<uint64_t>(v & kPrime);
    uint64_t hi = static_cast<uint64_t>(v >> 61);
    uint64_t r = lo + hi;
    r = (r & kPrime) + (r >> 61);
    if (r >= kPrime) r -= kPrime;
    return static_cast<uint32_t>(r % partitions);
  }

  friend bool operator==(const PartitionHash&, const PartitionHash&) = default;
};

// The d partition functions of a job: row 0 is hash mod p, rows 1.. are drawn from a
// deterministic generator seeded by `seed`, so every map task of a job agrees on them.
inline std::vector<PartitionHash> MakePartitionHashes(int rows, uint32_t partitions,
                                                      uint64_t seed) {
  std::vector<PartitionHash> out;
  out.reserve(rows);
  out.push_back({1, 0, partitions});
  uint64_t s = seed ^ 0x9E3779B97F4A7C15ull;
  auto next = [&s] {  // splitmix64
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  for (int i = 1; i < rows; ++i) {
    uint64_t a = 1 + next() % (PartitionHash::kPrime - 1);
    uint64_t b = next() % PartitionHash::kPrime;
    out.push_back({a, b, partitions});
  }
  return out;
}

}  // namespace mrlocal
