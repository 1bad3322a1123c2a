// Walker's alias method: O(1) draws from a discrete distribution, for the generators
// (Zipf word ranks, power-law node weights). A draw costs one 64-bit random number.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace mrlocal {

// Draws index k with probability weights[k] / sum(weights): the high 32 bits of a draw
// pick a column (multiply-shift, no division), the next 24 bits its coin.
struct AliasTable {
  std::vector<uint32_t> threshold;  // 24-bit coin below it: keep the column
  std::vector<uint32_t> alias;

  explicit AliasTable(const std::vector<double>& weights) {
    const size_t n = weights.size();
    double sum = 0;
    for (double w : weights) sum += w;
    std::vector<double> w(n), prob(n, 1.0);
    std::vector<uint32_t> small, large;
    alias.resize(n);
    for (uint32_t k = 0; k < n; ++k) {
      w[k] = weights[k] * static_cast<double>(n) / sum;
      alias[k] = k;
      (w[k] < 1 ? small : large).push_back(k);
    }
    while (!small.empty() && !large.empty()) {
      uint32_t a = small.back(), b = large.back();
      small.pop_back();
      prob[a] = w[a];
      alias[a] = b;
      w[b] -= 1 - w[a];
      if (w[b] < 1) {
        large.pop_back();
        small.push_back(b);
      }
    }
    threshold.resize(n);
    for (size_t k = 0; k < n; ++k)
      threshold[k] = static_cast<uint32_t>(std::min(std::ldexp(prob[k], 24), 16777216.0));
  }
  uint32_t Sample(uint64_t r) const {
    uint32_t k = static_cast<uint32_t>(((r >> 32) * threshold.size()) >> 32);
    return ((r >> 8) & 0xffffff) < threshold[k] ? k : alias[k];
  }
};

}  // namespace mrlocal
