#include "datasets/text_generator.h"

#include <algorithm>
#include <cmath>
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
  uint32_t Sample(SplitMix& rng) const {
    uint64_t r = rng.Next();
    uint32_t k = static_cast<uint32_t>((r >> 32) % prob_.size());
    double u = static_cast<double>(r & 0xffffffffu) * 0x1.0p-32;
    return u < prob_[k] ? k : alias_[k];
  }

 private:
  std::vector<double> prob_;
  std::vector<uint32_t> alias_;
};

void GenerateChunk(const TextOptions& o, const AliasTable& zipf, const std::vector<std::string>& words,
                   uint64_t index, char* out, uint64_t size) {
  SplitMix rng{o.seed * 0x2545F4914F6CDD1Dull + index};
  std::string buf;
  buf.reserve(size + 256);
  while (buf.size() < size) {
    uint32_t n = 1 + static_cast<uint32_t>(rng.Next() % (2 * o.words_per_line));
    for (uint32_t i = 0; i < n; ++i) {
      const std::string& w = words[zipf.Sample(rng)];
      uint64_t r = rng.Next();
      if (i == 0) {
        buf.push_back(static_cast<char>(w[0] - 'a' + 'A'));
        buf.append(w, 1);
      } else {
        buf.append(w);
      }
      if ((r & 63) == 0) buf.append("'s");
      if (i + 1 < n) buf.append((r >> 8) % 16 == 0 ? ", " : " ");
    }
    buf.append((rng.Next() & 7) == 0 ? "!\n" : ".\n");
  }
  std::copy(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(size), out);
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
  std::vector<std::string> words(std::max<uint32_t>(o.vocabulary, 1));
  for (uint32_t k = 0; k < words.size(); ++k) words[k] = WordOfRank(k + 1);
  AliasTable zipf(static_cast<uint32_t>(words.size()), o.exponent);
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
