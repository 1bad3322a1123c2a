// Deterministic English-like text with Zipf-distributed word frequencies: the built-in
// default corpus of `mrlocal wordcount`, and skewed inputs for tests and benchmarks.
// The same options give the same bytes on any machine and with any number of threads.
#pragma once

#include <cstdint>
#include <string>

namespace mrlocal {

struct TextOptions {
  uint64_t bytes = 64 << 20;
  uint32_t vocabulary = 100000;  // distinct words; rank 1 is the most frequent
  double exponent = 1.0;         // Zipf s: P(rank k) ~ 1 / k^s
  uint64_t seed = 1;
  uint32_t words_per_line = 12;  // on average
};

// The corpus `mrlocal wordcount` runs on when given no file: 512 MiB, 100,000 words,
// Zipf s = 1.0 (natural language), seed 2026.
TextOptions DefaultCorpusOptions();

// The word of rank `rank` (1-based): pronounceable, lower case, shorter for frequent ranks.
std::string WordOfRank(uint32_t rank);

// Generates the text, in 4 MiB chunks on every core (each chunk seeded by its index, so
// the bytes do not depend on the thread count); lines end with '\n'. Words sometimes come
// capitalized, in capitals, quoted, with "'s", or with numbers and punctuation around.
std::string GenerateText(const TextOptions& options);

}  // namespace mrlocal
