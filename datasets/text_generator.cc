#include "datasets/text_generator.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string_view>
#include <thread>
#include <vector>

namespace mrlocal {
namespace {

constexpr uint64_t kChunk = 4 << 20;

struct SplitMix {
  uint64_t s;
  uint64_t Next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
};

// Walker's alias method: O(1) samples from the Zipf distribution.
class AliasTable {
 public:
  AliasTable(uint32_t n, double s) : prob_(n), alias_(n) {
    std::vector<double> w(n);
    double sum = 0;
    for (uint32_t k = 0; k < n; ++k) sum += (w[k] = 1.0 / std::pow(k + 1.0, s));
    std::vector<uint32_t> small, large;
    for (uint32_t k = 0; k < n; ++k) {
      w[k] = w[k] * n / sum;
      (w[k] < 1 ? small : large).push_back(k);
    }
    while (!small.empty() && !large.empty()) {
      uint32_t a = small.back(), b = large.back();
      small.pop_back();
      prob_[a] = w[a];
      alias_[a] = b;
      w[b] -= 1 - w[a];
      if (w[b] < 1) {
        large.pop_back();
        small.push_back(b);
      }
    }
    for (uint32_t k : large) prob_[k] = 1;
    for (uint32_t k : small) prob_[k] = 1;
  }
  // One 64-bit draw: the high 32 bits pick a column (multiply-shift, no division), the
  // next 24 bits decide between it and its alias; the low 8 bits are left to the caller.
  uint32_t Sample(uint64_t r) const {
    uint32_t k = static_cast<uint32_t>(((r >> 32) * prob_.size()) >> 32);
    double u = static_cast<double>((r >> 8) & 0xffffff) * 0x1.0p-24;
    return u < prob_[k] ? k : alias_[k];
  }

 private:
  std::vector<double> prob_;
  std::vector<uint32_t> alias_;
};

// The vocabulary, flat: word k is pool[off[k], off[k] + len[k]), followed by at least
// 16 bytes of padding so that a word of up to 16 letters is copied with one fixed move.
struct Vocabulary {
  std::string pool;
  std::vector<uint32_t> off;
  std::vector<uint8_t> len;
};

// Decorations exercise a tokenizer: capitals, ALL CAPS, quotes, numbers and punctuation
// leave the lower-cased word as it is; "'s" (1 word in 64) makes a distinct word "w's".
void GenerateChunk(const TextOptions& o, const AliasTable& zipf, const Vocabulary& v,
                   uint64_t index, char* out, uint64_t size) {
  SplitMix rng{o.seed * 0x2545F4914F6CDD1Dull + index};
  std::string buf(size + 4096, '\0');
  char* p = buf.data();
  char* const stop = buf.data() + size;
  const uint64_t per_line = 2 * std::max<uint64_t>(o.words_per_line, 1);
  auto put = [&p](std::string_view s) {
    std::memcpy(p, s.data(), s.size());
    p += s.size();
  };
  while (p < stop) {
    uint32_t n = 1 + static_cast<uint32_t>(((rng.Next() >> 32) * per_line) >> 32);
    for (uint32_t i = 0; i < n; ++i) {
      uint64_t r = rng.Next();
      uint32_t k = zipf.Sample(r);
      const char* w = v.pool.data() + v.off[k];
      const size_t len = v.len[k];
      uint32_t d = static_cast<uint32_t>(r & 0xff);  // decoration dice
      if (d == 1) put("1999 ");
      if (d == 2) *p++ = '"';
      std::memcpy(p, w, 16);
      if (len > 16) std::memcpy(p, w, len);
      if (d == 3) {
        for (size_t c = 0; c < len; ++c) p[c] = static_cast<char>(p[c] - 'a' + 'A');
      } else if (i == 0) {
        p[0] = static_cast<char>(p[0] - 'a' + 'A');
      }
      p += len;
      if (d == 2) *p++ = '"';
      if (d >= 252) put("'s");
      if (i + 1 < n) {
        if (d >= 16 && d < 32)
          put(", ");
        else if (d == 4)
          put(" -- ");
        else
          *p++ = ' ';
      }
      if (p >= stop) break;  // the buffer's slack holds at most one more word
    }
    put(rng.Next() % 8 == 0 ? "!\n" : ".\n");
  }
  std::memcpy(out, buf.data(), size);
  if (size) out[size - 1] = '\n';
}

}  // namespace

TextOptions DefaultCorpusOptions() {
  TextOptions o;
  o.bytes = 512ull << 20;
  o.vocabulary = 100000;
  o.exponent = 1.0;
  o.seed = 2026;
  return o;
}

std::string WordOfRank(uint32_t rank) {
  // Consonant-vowel syllables, base 100: every syllable is two letters, so a word splits
  // into syllables one way only and distinct ranks give distinct words. Every third rank
  // ends in 'n' (odd length, so it cannot collide with a word of whole syllables).
  static constexpr char kConsonants[] = "bcdfghjklmnprstvwxyz";
  static constexpr char kVowels[] = "aeiou";
  std::string w;
  uint32_t r = rank - 1;
  do {
    uint32_t s = r % 100;
    w += kConsonants[s / 5];
    w += kVowels[s % 5];
    r /= 100;
  } while (r > 0);
  if (rank % 3 == 0) w += 'n';
  return w;
}

std::string GenerateText(const TextOptions& o) {
  const uint32_t n = std::max<uint32_t>(o.vocabulary, 1);
  Vocabulary words;
  words.off.resize(n);
  words.len.resize(n);
  for (uint32_t k = 0; k < n; ++k) {
    std::string w = WordOfRank(k + 1);  // at most 11 letters for 32-bit ranks
    words.off[k] = static_cast<uint32_t>(words.pool.size());
    words.len[k] = static_cast<uint8_t>(w.size());
    words.pool += w;
  }
  words.pool.append(16, '\0');
  AliasTable zipf(n, o.exponent);
  std::string text(o.bytes, '\0');
  uint64_t chunks = (o.bytes + kChunk - 1) / kChunk;
  unsigned threads = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), chunks));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (uint64_t c = t; c < chunks; c += threads) {
        uint64_t begin = c * kChunk, size = std::min(kChunk, o.bytes - begin);
        GenerateChunk(o, zipf, words, c, text.data() + begin, size);
      }
    });
  }
  for (auto& th : pool) th.join();
  return text;
}

}  // namespace mrlocal
