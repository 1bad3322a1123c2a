// Deterministic English-shaped text with Zipf-distributed word frequencies: the built-in
// default corpus of `mrlocal wordcount` and `mrlocal gen text`, and skewed inputs for tests
// and benchmarks. The same options give the same bytes on any machine and with any number
// of threads.
#pragma once

#include <cstdint>
#include <memory>
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

// The word of rank `rank` (1-based, >= 1). Ranks 1..ListedWordCount() are English words
// in their frequency order in 15 Gutenberg books (the, and, to, of, a, ...), from
// datasets/english_words.txt, compiled in. Later ranks are pseudo-words (lower-case letters,
// alternating consonants and vowels) with the length distribution of the books' words of
// about that rank (7-8 letters past rank 4,000), none of them a listed word. Every word is a
// key WordCount makes ([a-z][a-z']*, at most 16 bytes); distinct ranks give distinct words.
std::string WordOfRank(uint32_t rank);
uint32_t ListedWordCount();

// Makes the text one chunk at a time. Chunk i (kChunkBytes, the last one shorter) depends
// only on the options and i, so the bytes do not depend on which thread makes which chunk.
// Lines end with '\n', and so does every chunk. Words sometimes come capitalized, in
// capitals, quoted, with "'s", or with numbers and punctuation around.
class TextGenerator {
 public:
  static constexpr uint64_t kChunkBytes = 4 << 20;

  // Builds the vocabulary and the sampler: ~10 ms for 100,000 words.
  explicit TextGenerator(const TextOptions& options);
  ~TextGenerator();
  TextGenerator(const TextGenerator&) = delete;
  TextGenerator& operator=(const TextGenerator&) = delete;

  uint64_t chunks() const;
  uint64_t chunk_bytes(uint64_t index) const;
  // Replaces *out with chunk `index`. Thread-safe; reuse `out` to avoid reallocations.
  void Chunk(uint64_t index, std::string* out) const;

 private:
  struct Tables;
  TextOptions options_;
  std::unique_ptr<const Tables> tables_;
};

// The whole text in memory, its chunks made on every core.
std::string GenerateText(const TextOptions& options);

}  // namespace mrlocal
